// SPDX-License-Identifier: MIT
#include "capture/cupti/cupti_translator.h"
#include "capture/cupti/cupti_client_watch.h"
#include "capture/json_text.h"

#include <algorithm>

#include <cxxabi.h>

#include <cstdlib>
#include <cstring>
#include <memory>

#include <unistd.h>

namespace gapscope::capture {

namespace {

constexpr const char* kCopyNames[]
    = { "Unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD", "DtoA", "DtoD", "HtoH", "PtoP" };
constexpr const char* kMemoryNames[]
    = { "Unknown", "Pageable", "Pinned", "Device", "Array", "Managed", "Device Static", "Managed Static" };

const char* copyName(unsigned kind)
{
    return kind < std::size(kCopyNames) ? kCopyNames[kind] : "Unknown";
}

const char* memoryName(unsigned kind)
{
    return kind < std::size(kMemoryNames) ? kMemoryNames[kind] : "Unknown";
}

const char* synchronizationName(CUpti_ActivitySynchronizationType type)
{
    // Kineto's names for its cuda_sync events, so imported and recorded traces read alike.
    switch (type) {
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE:
        return "Event Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT:
        return "Stream Wait Event";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE:
        return "Stream Sync";
    case CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE:
        return "Context Sync";
    default:
        return "Unknown Sync";
    }
}

std::string overheadName(CUpti_ActivityOverheadKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
        return "Driver compiler";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_BUFFER_FLUSH:
        return "CUPTI buffer flush";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_INSTRUMENTATION:
        return "CUPTI instrumentation";
    case CUPTI_ACTIVITY_OVERHEAD_CUPTI_RESOURCE:
        return "CUPTI resource";
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
        return "Runtime-triggered module loading";
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
        return "Lazy function loading";
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return "Command buffer full";
    case CUPTI_ACTIVITY_OVERHEAD_ACTIVITY_BUFFER_REQUEST:
        return "CUPTI activity buffer request";
    case CUPTI_ACTIVITY_OVERHEAD_UVM_ACTIVITY_INIT:
        return "CUPTI UVM activity init";
    default:
        return "CUPTI overhead (kind " + std::to_string(static_cast<unsigned>(kind)) + ")";
    }
}

} // namespace

CuptiTranslator::CuptiTranslator(NativeSink& sink)
    : m_sink(sink)
{ }

bool CuptiTranslator::isProgramOverhead(CUpti_ActivityOverheadKind kind)
{
    switch (kind) {
    case CUPTI_ACTIVITY_OVERHEAD_DRIVER_COMPILER:
    case CUPTI_ACTIVITY_OVERHEAD_RUNTIME_TRIGGERED_MODULE_LOADING:
    case CUPTI_ACTIVITY_OVERHEAD_LAZY_FUNCTION_LOADING:
    case CUPTI_ACTIVITY_OVERHEAD_COMMAND_BUFFER_FULL:
        return true;
    default:
        return false;
    }
}

std::string CuptiTranslator::walkEndNote(CUptiResult status)
{
    if (status == CUPTI_ERROR_MAX_LIMIT_REACHED)
        return {};
    const char* text = nullptr;
    std::string why = cuptiGetResultString(status, &text) == CUPTI_SUCCESS && text
        ? std::string(text) + " (" + std::to_string(static_cast<int>(status)) + ")"
        : "CUPTI error " + std::to_string(static_cast<int>(status));
    return "reading a CUPTI activity buffer stopped early: " + why
        + "; the rest of that buffer was not recorded (a record of a kind or size this CUPTI did not expect)";
}

std::string CuptiTranslator::demangle(const char* name)
{
    if (!name)
        return {};
    if (name[0] != '_' || name[1] != 'Z')
        return name;
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> demangled(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && demangled ? std::string(demangled.get()) : std::string(name);
}

std::string CuptiTranslator::apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid)
{
    const char* name = nullptr;
    if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name) {
        return std::string(domain == CUPTI_CB_DOMAIN_RUNTIME_API ? "CUDA runtime call " : "CUDA driver call ")
            + std::to_string(cbid);
    }
    // CUPTI names carry the API version ("cudaLaunchKernel_v7000"); users and the analysis know the
    // bare function name.
    std::string text(name);
    const auto pos = text.rfind("_v");
    if (pos != std::string::npos && pos + 2 < text.size()
        && text.find_first_not_of("0123456789", pos + 2) == std::string::npos)
        text.resize(pos);
    return text;
}

native::CountersRecord CuptiTranslator::takeCounters()
{
    std::lock_guard lock(m_mutex);
    const native::CountersRecord counters = m_counters;
    m_counters = {};
    return counters;
}

void CuptiTranslator::learnContextDevice(std::uint32_t contextId, std::uint32_t deviceId)
{
    std::lock_guard lock(m_mutex);
    m_contextDevice[contextId] = static_cast<std::int32_t>(deviceId);
}

void CuptiTranslator::linkDriverCall(std::uint32_t driverCorrelation, std::uint32_t runtimeCorrelation)
{
    // Its own lock, not the walk's: this runs on the program's thread inside cudaMemset*.
    std::lock_guard lock(m_linkMutex);
    // Bounded: links whose memset never shows up (its kind disabled later, a dropped record) go.
    if (m_runtimeOfDriverCall.size() >= 65536)
        m_runtimeOfDriverCall.clear();
    m_runtimeOfDriverCall[driverCorrelation] = runtimeCorrelation;
}

bool CuptiTranslator::translate(const CUpti_Activity* record)
{
    std::lock_guard lock(m_mutex);
    return translateLocked(record);
}

CuptiTranslator::BufferResult CuptiTranslator::translateBuffer(
    std::uint8_t* buffer, std::size_t validSize, std::int64_t startedNs, std::int64_t nowNs)
{
    std::lock_guard lock(m_mutex);
    BufferResult result;
    CUpti_Activity* record = nullptr;
    constexpr std::int64_t kHourNs = 3'600'000'000'000;
    for (;;) {
        result.status = cuptiActivityGetNextRecord(buffer, validSize, &record);
        if (result.status != CUPTI_SUCCESS)
            break;
        ++result.records;
        const std::size_t eventsBefore = m_eventsAdded;
        if (translateLocked(record))
            ++result.translated;
        if (nowNs != 0 && m_eventsAdded != eventsBefore
            && (m_lastStart < startedNs - kHourNs || m_lastStart > nowNs + kHourNs))
            ++result.farFromClock;
    }
    return result;
}

std::array<std::uint64_t, 6> CuptiTranslator::recordCounts() const
{
    static_assert(CuptiClientWatch::KindCount == 6);
    std::array<std::uint64_t, 6> counts {};
    for (std::size_t k = 0; k < counts.size(); ++k)
        counts[k] = m_kindRecords[k].load(std::memory_order_relaxed);
    return counts;
}

std::vector<std::int64_t> CuptiTranslator::apiThreads() const
{
    std::lock_guard lock(m_threadsMutex);
    return m_apiThreads;
}

bool CuptiTranslator::translateLocked(const CUpti_Activity* record)
{
    const auto count
        = [this](CuptiClientWatch::Kind kind) { m_kindRecords[kind].fetch_add(1, std::memory_order_relaxed); };
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        count(CuptiClientWatch::Kernels);
        break;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        count(CuptiClientWatch::Memcpy);
        break;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        count(CuptiClientWatch::Memset);
        break;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        count(CuptiClientWatch::Runtime);
        break;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        count(CuptiClientWatch::Driver);
        break;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        count(CuptiClientWatch::Sync);
        break;
    default:
        break;
    }
    switch (record->kind) {
    case CUPTI_ACTIVITY_KIND_KERNEL:
    case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL:
        return addKernel(*reinterpret_cast<const CUpti_ActivityKernel10*>(record)), true;
    case CUPTI_ACTIVITY_KIND_MEMCPY:
        return addMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record)), true;
    case CUPTI_ACTIVITY_KIND_MEMCPY2:
        return addPeerMemcpy(*reinterpret_cast<const CUpti_ActivityMemcpyPtoP4*>(record)), true;
    case CUPTI_ACTIVITY_KIND_MEMSET:
        return addMemset(*reinterpret_cast<const CUpti_ActivityMemset4*>(record)), true;
    case CUPTI_ACTIVITY_KIND_RUNTIME:
        return addApiCall(*reinterpret_cast<const CUpti_ActivityAPI*>(record), true), true;
    case CUPTI_ACTIVITY_KIND_DRIVER:
        return addApiCall(*reinterpret_cast<const CUpti_ActivityAPI*>(record), false), true;
    case CUPTI_ACTIVITY_KIND_SYNCHRONIZATION:
        return addSynchronization(*reinterpret_cast<const CUpti_ActivitySynchronization2*>(record)), true;
    case CUPTI_ACTIVITY_KIND_OVERHEAD:
        return addOverhead(*reinterpret_cast<const CUpti_ActivityOverhead3*>(record)), true;
    case CUPTI_ACTIVITY_KIND_DEVICE:
        return addDevice(*reinterpret_cast<const CUpti_ActivityDevice5*>(record)), true;
    case CUPTI_ACTIVITY_KIND_CONTEXT: {
        const auto& c = *reinterpret_cast<const CUpti_ActivityContext3*>(record);
        m_contextDevice[c.contextId] = static_cast<std::int32_t>(c.deviceId);
        return true;
    }
    default:
        ++m_counters.unknownRecords;
        return false;
    }
}

bool CuptiTranslator::hasTimestamps(std::uint64_t start, std::uint64_t end)
{
    // start == end == 0: CUPTI could not time it (e.g. no device memory for timestamps).
    if ((start == 0 && end == 0) || end < start || start > static_cast<std::uint64_t>(INT64_MAX)
        || end > static_cast<std::uint64_t>(INT64_MAX)) {
        ++m_counters.skippedRecords;
        return false;
    }
    return true;
}

void CuptiTranslator::addEvent(std::int64_t start, std::int64_t end, std::uint64_t bytes, std::int64_t lane,
    std::uint32_t name, std::uint32_t correlation, std::uint32_t args, std::int32_t device, native::EventCode code,
    std::uint8_t copy)
{
    m_sink.addEvent(native::EventRecord { start, end, bytes, lane, name, correlation, args,
        static_cast<std::int16_t>(device), static_cast<std::uint8_t>(code), copy });
    ++m_eventsAdded;
    m_lastStart = start;
}

std::int64_t CuptiTranslator::streamLane(std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId)
{
    const std::uint32_t primary = m_primaryContext.try_emplace(deviceId, contextId).first->second;
    if (primary == contextId)
        return streamId;
    const std::int64_t lane = (static_cast<std::int64_t>(contextId) << 32) | streamId;
    if (m_namedStreams.emplace(lane, deviceId).second) {
        m_sink.addMetadata(native::MetadataRecord { static_cast<std::uint32_t>(native::MetadataKey::StreamName),
            static_cast<std::int32_t>(deviceId), lane, 0,
            m_sink.internString("stream " + std::to_string(streamId) + " (context " + std::to_string(contextId) + ")"),
            0 });
    }
    return lane;
}

std::uint32_t CuptiTranslator::cached(
    std::map<std::uint64_t, std::uint32_t>& cache, std::uint64_t key, const std::string& text)
{
    auto [it, inserted] = cache.try_emplace(key, 0);
    if (inserted)
        it->second = m_sink.internString(text);
    return it->second;
}

std::uint32_t CuptiTranslator::kernelName(const char* name)
{
    if (!name)
        return m_sink.internString("(unnamed kernel)");
    auto it = m_kernelNames.find(std::string_view(name));
    if (it == m_kernelNames.end())
        it = m_kernelNames.emplace(name, m_sink.internString(demangle(name))).first;
    return it->second;
}

void CuptiTranslator::addKernel(const CUpti_ActivityKernel10& k)
{
    m_lastDevice = static_cast<std::int32_t>(k.deviceId);
    m_contextDevice.try_emplace(k.contextId, static_cast<std::int32_t>(k.deviceId));
    if (!hasTimestamps(k.start, k.end))
        return;
    const int sharedMemory = k.staticSharedMemory + k.dynamicSharedMemory;
    const std::array<int, 8> key { k.gridX, k.gridY, k.gridZ, k.blockX, k.blockY, k.blockZ, k.registersPerThread,
        sharedMemory };
    auto [argsIt, inserted] = m_launchArgs.try_emplace(key, 0);
    if (inserted) {
        // Kineto's argument names, so imported and recorded kernels read alike.
        const std::string json = "{\"grid\":[" + std::to_string(k.gridX) + "," + std::to_string(k.gridY) + ","
            + std::to_string(k.gridZ) + "],\"block\":[" + std::to_string(k.blockX) + "," + std::to_string(k.blockY)
            + "," + std::to_string(k.blockZ) + "],\"registers per thread\":" + std::to_string(k.registersPerThread)
            + ",\"shared memory\":" + std::to_string(sharedMemory) + "}";
        argsIt->second = m_sink.internString(json);
    }
    addEvent(static_cast<std::int64_t>(k.start), static_cast<std::int64_t>(k.end), 0,
        streamLane(k.deviceId, k.contextId, k.streamId), kernelName(k.name), k.correlationId, argsIt->second,
        static_cast<std::int32_t>(k.deviceId), native::EventCode::Kernel, 0);
}

void CuptiTranslator::addMemcpy(const CUpti_ActivityMemcpy6& m)
{
    m_lastDevice = static_cast<std::int32_t>(m.deviceId);
    m_contextDevice.try_emplace(m.contextId, static_cast<std::int32_t>(m.deviceId));
    if (!hasTimestamps(m.start, m.end))
        return;
    const std::uint64_t key
        = (1ull << 48) | (std::uint64_t(m.copyKind) << 16) | (std::uint64_t(m.srcKind) << 8) | m.dstKind;
    const std::uint32_t name = cached(m_fixedNames, key,
        std::string("Memcpy ") + copyName(m.copyKind) + " (" + memoryName(m.srcKind) + " -> " + memoryName(m.dstKind)
            + ")");
    // Link to the runtime call (cudaMemcpy*) when there is one: that is the call users wrote and the
    // one the gap analysis reasons about; correlationId names the driver call underneath.
    const std::uint32_t correlation = m.runtimeCorrelationId != 0 ? m.runtimeCorrelationId : m.correlationId;
    const std::uint8_t copy = m.copyKind <= CUPTI_ACTIVITY_MEMCPY_KIND_PTOP ? m.copyKind : 0;
    addEvent(static_cast<std::int64_t>(m.start), static_cast<std::int64_t>(m.end), m.bytes,
        streamLane(m.deviceId, m.contextId, m.streamId), name, correlation, 0, static_cast<std::int32_t>(m.deviceId),
        native::EventCode::Memcpy, copy);
}

void CuptiTranslator::addPeerMemcpy(const CUpti_ActivityMemcpyPtoP4& m)
{
    m_lastDevice = static_cast<std::int32_t>(m.deviceId);
    m_contextDevice.try_emplace(m.contextId, static_cast<std::int32_t>(m.deviceId));
    if (!hasTimestamps(m.start, m.end))
        return;
    const std::uint64_t key
        = (2ull << 48) | (std::uint64_t(m.copyKind) << 16) | (std::uint64_t(m.srcKind) << 8) | m.dstKind;
    const std::uint32_t name = cached(m_fixedNames, key,
        std::string("Memcpy ") + copyName(m.copyKind) + " (" + memoryName(m.srcKind) + " -> " + memoryName(m.dstKind)
            + ")");
    const std::uint64_t argsKey = (3ull << 48) | (std::uint64_t(m.srcDeviceId) << 16) | m.dstDeviceId;
    const std::uint32_t args = cached(m_fixedNames, argsKey,
        "{\"src device\":" + std::to_string(m.srcDeviceId) + ",\"dst device\":" + std::to_string(m.dstDeviceId) + "}");
    const std::uint8_t copy = m.copyKind <= CUPTI_ACTIVITY_MEMCPY_KIND_PTOP ? m.copyKind : 0;
    addEvent(static_cast<std::int64_t>(m.start), static_cast<std::int64_t>(m.end), m.bytes,
        streamLane(m.deviceId, m.contextId, m.streamId), name, m.correlationId, args,
        static_cast<std::int32_t>(m.deviceId), native::EventCode::Memcpy, copy);
}

void CuptiTranslator::addMemset(const CUpti_ActivityMemset4& m)
{
    m_lastDevice = static_cast<std::int32_t>(m.deviceId);
    m_contextDevice.try_emplace(m.contextId, static_cast<std::int32_t>(m.deviceId));
    if (!hasTimestamps(m.start, m.end))
        return;
    const std::uint32_t name
        = cached(m_fixedNames, (4ull << 48) | m.memoryKind, std::string("Memset (") + memoryName(m.memoryKind) + ")");
    std::uint32_t correlation = m.correlationId;
    {
        std::lock_guard lock(m_linkMutex);
        if (auto it = m_runtimeOfDriverCall.find(m.correlationId); it != m_runtimeOfDriverCall.end()) {
            correlation = it->second;
            m_runtimeOfDriverCall.erase(it);
        }
    }
    addEvent(static_cast<std::int64_t>(m.start), static_cast<std::int64_t>(m.end), m.bytes,
        streamLane(m.deviceId, m.contextId, m.streamId), name, correlation, 0, static_cast<std::int32_t>(m.deviceId),
        native::EventCode::Memset, 0);
}

void CuptiTranslator::addApiCall(const CUpti_ActivityAPI& a, bool runtime)
{
    const auto tid = static_cast<std::int64_t>(a.threadId);
    if (tid != m_lastApiThread) {
        m_lastApiThread = tid;
        std::lock_guard lock(m_threadsMutex);
        if (std::find(m_apiThreads.begin(), m_apiThreads.end(), tid) == m_apiThreads.end())
            m_apiThreads.push_back(tid);
    }
    if (!hasTimestamps(a.start, a.end))
        return;
    const CUpti_CallbackDomain domain = runtime ? CUPTI_CB_DOMAIN_RUNTIME_API : CUPTI_CB_DOMAIN_DRIVER_API;
    const std::uint32_t name = cached(runtime ? m_runtimeNames : m_driverNames, a.cbid, apiName(domain, a.cbid));
    std::uint32_t args = 0;
    if (a.returnValue != 0) // failed calls are rare and worth seeing
        args = cached(
            m_fixedNames, (5ull << 48) | a.returnValue, "{\"return value\":" + std::to_string(a.returnValue) + "}");
    addEvent(static_cast<std::int64_t>(a.start), static_cast<std::int64_t>(a.end), 0, a.threadId, name, a.correlationId,
        args, -1, runtime ? native::EventCode::RuntimeApi : native::EventCode::DriverApi, 0);
}

std::int32_t CuptiTranslator::deviceOfContext(std::uint32_t contextId) const
{
    if (auto it = m_contextDevice.find(contextId); it != m_contextDevice.end())
        return it->second;
    return m_lastDevice; // unknown context: the device most recently seen is the best guess
}

void CuptiTranslator::addSynchronization(const CUpti_ActivitySynchronization2& s)
{
    if (!hasTimestamps(s.start, s.end))
        return;
    const std::uint32_t name
        = cached(m_fixedNames, (6ull << 48) | static_cast<std::uint32_t>(s.type), synchronizationName(s.type));
    const std::int32_t device = deviceOfContext(s.contextId);
    const std::int64_t stream = s.streamId == CUPTI_SYNCHRONIZATION_INVALID_VALUE
        ? native::kNoStream
        : streamLane(static_cast<std::uint32_t>(device), s.contextId, s.streamId);
    addEvent(static_cast<std::int64_t>(s.start), static_cast<std::int64_t>(s.end), 0, stream, name, s.correlationId, 0,
        device, native::EventCode::Sync, 0);
}

void CuptiTranslator::addOverhead(const CUpti_ActivityOverhead3& o)
{
    std::free(o.overheadData); // the client's to free (cupti_activity.h); nothing in it is recorded
    if (!hasTimestamps(o.start, o.end))
        return;
    // A PROCESS object sets pt.processId only; its threadId is undefined.
    const bool onThread = o.objectKind == CUPTI_ACTIVITY_OBJECT_THREAD;
    const bool onProcess = o.objectKind == CUPTI_ACTIVITY_OBJECT_PROCESS;
    if (isProgramOverhead(o.overheadKind)) {
        // The program's own cost (it would pay it without GapScope): on its thread, as program work.
        const std::uint32_t name = cached(
            m_fixedNames, (7ull << 48) | static_cast<std::uint32_t>(o.overheadKind), overheadName(o.overheadKind));
        // The process's, or not tied to a thread (a device or context object): the process lane, its main
        // thread's (whose tid is the pid).
        const std::int64_t lane = onThread              ? static_cast<std::int64_t>(o.objectId.pt.threadId)
            : onProcess && o.objectId.pt.processId != 0 ? static_cast<std::int64_t>(o.objectId.pt.processId)
                                                        : ::getpid();
        addEvent(static_cast<std::int64_t>(o.start), static_cast<std::int64_t>(o.end), 0, lane, name, o.correlationId,
            0, -1, native::EventCode::Other, 0);
        return;
    }
    const std::uint32_t name
        = cached(m_fixedNames, (7ull << 48) | static_cast<std::uint32_t>(o.overheadKind), overheadName(o.overheadKind));
    std::uint32_t args = 0;
    if (onThread) {
        args = cached(m_fixedNames, (8ull << 48) | o.objectId.pt.threadId,
            "{\"thread\":" + std::to_string(o.objectId.pt.threadId) + "}");
    } else if (onProcess) {
        args = cached(m_fixedNames, (10ull << 48) | o.objectId.pt.processId,
            "{\"process\":" + std::to_string(o.objectId.pt.processId) + "}");
    } else if (o.objectKind == CUPTI_ACTIVITY_OBJECT_DEVICE || o.objectKind == CUPTI_ACTIVITY_OBJECT_CONTEXT
        || o.objectKind == CUPTI_ACTIVITY_OBJECT_STREAM) {
        args = cached(m_fixedNames, (9ull << 48) | o.objectId.dcs.deviceId,
            "{\"device\":" + std::to_string(o.objectId.dcs.deviceId) + "}");
    }
    addEvent(static_cast<std::int64_t>(o.start), static_cast<std::int64_t>(o.end), 0, native::kCollectorLane, name, 0,
        args, -1, native::EventCode::Overhead, 0);
}

void CuptiTranslator::addDevice(const CUpti_ActivityDevice5& d)
{
    const std::string name = d.name ? d.name : "";
    std::free(const_cast<char*>(d.name)); // the client's to free (cupti_activity.h)
    // Kineto's deviceProperties keys.
    std::string json = "{\"id\":" + std::to_string(d.id) + ",\"name\":";
    appendJsonString(json, name);
    json += ",\"totalGlobalMem\":" + std::to_string(d.globalMemorySize) + ",\"computeMajor\":"
        + std::to_string(d.computeCapabilityMajor) + ",\"computeMinor\":" + std::to_string(d.computeCapabilityMinor)
        + ",\"maxThreadsPerBlock\":" + std::to_string(d.maxThreadsPerBlock)
        + ",\"regsPerBlock\":" + std::to_string(d.maxRegistersPerBlock) + ",\"regsPerMultiprocessor\":"
        + std::to_string(d.maxRegistersPerMultiprocessor) + ",\"warpSize\":" + std::to_string(d.numThreadsPerWarp)
        + ",\"sharedMemPerBlock\":" + std::to_string(d.maxSharedMemoryPerBlock)
        + ",\"sharedMemPerMultiprocessor\":" + std::to_string(d.maxSharedMemoryPerMultiprocessor)
        + ",\"numSms\":" + std::to_string(d.numMultiprocessors) + "}";
    const auto id = static_cast<std::int32_t>(d.id);
    m_sink.addMetadata(native::MetadataRecord {
        static_cast<std::uint32_t>(native::MetadataKey::DeviceName), id, 0, 0, m_sink.internString(name), 0 });
    m_sink.addMetadata(native::MetadataRecord {
        static_cast<std::uint32_t>(native::MetadataKey::DeviceProperties), id, 0, 0, m_sink.internString(json), 0 });
}

} // namespace gapscope::capture
