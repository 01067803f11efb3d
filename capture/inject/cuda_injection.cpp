// SPDX-License-Identifier: MIT
// CUDA injection (CUDA_INJECTION64_PATH): the driver calls the exported InitializeInjection while it
// initialises. The collector then sets up CUPTI activity tracing (docs/collector.md).
// Any CUPTI failure (no usable driver, another CUPTI client already attached) is said on stderr and
// in the file, and the program runs on: it is never taken down by its profiler.

#include "capture/collector_env.h"
#include "capture/cupti/activity_buffer_pool.h"
#include "capture/cupti/cupti_translator.h"
#include "capture/inject/collector.h"

#include <cupti.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using gapscope::capture::ActivityBufferPool;
using gapscope::capture::Collector;
using gapscope::capture::CudaHooks;
using gapscope::capture::CuptiTranslator;
using gapscope::capture::NativeStreamWriter;

namespace {

/// 2 MB: a SIGINT or a crash loses at most what the buffers hold; a thread fills one with ~10,000
/// kernel records between two flushes.
constexpr std::size_t kBufferSize = 2u << 20;
constexpr std::size_t kSpareBuffers = 4;
/// The structs this build reads are CUPTI 13.0's; 13.0 Update 1 (130001) is the first to emit
/// SYNCHRONIZATION records for cudaDeviceSynchronize.
constexpr std::uint32_t kOldestCupti = 130000;
constexpr std::uint32_t kFirstCuptiWithDeviceSyncRecords = 130001;
/// 13.0 and 13.1 crash at unload unless cuptiFinalize ran; 13.2 fixed it.
constexpr std::uint32_t kFirstCuptiWithoutUnloadCrash = 130200;
/// How long the exit handler waits for a CUDA call's exit callback to finalize CUPTI from.
constexpr auto kFinalizeWait = std::chrono::milliseconds(200);

// Leaked on purpose: CUPTI may complete a buffer late, threads may call in during exit.
CuptiTranslator* g_translator = nullptr;
ActivityBufferPool* g_pool = nullptr;
CUpti_SubscriberHandle g_subscriber = nullptr;
bool g_subscribed = false;
std::uint32_t g_cuptiVersion = 0;
std::atomic<pid_t> g_startedIn { 0 };
std::vector<CUpti_ActivityKind>* g_enabledKinds = new std::vector<CUpti_ActivityKind>();
std::atomic<bool> g_finalizeRequested { false };
/// Set once CUPTI is detached (by us or by CUPTI after a fatal error): no CUPTI call after it.
std::atomic<bool> g_detached { false };
std::mutex* g_finalizeMutex = new std::mutex();
std::condition_variable* g_finalizeDone = new std::condition_variable();
std::mutex* g_notesMutex = new std::mutex();
std::set<std::string>* g_notesGiven = new std::set<std::string>();
std::atomic<std::uint64_t> g_farFromClock { 0 };
/// When CUPTI was set up, on the collector's clock: no record can be much older.
std::int64_t g_startedNs = 0;
/// Callback ids of cudaMemset* (runtime) and cuMemset* (driver) calls, whose callbacks link a
/// memset's driver call to the runtime call around it (CuptiTranslator::linkDriverCall).
std::vector<bool>* g_memsetRuntimeCbid = new std::vector<bool>();
std::vector<bool>* g_memsetDriverCbid = new std::vector<bool>();
/// The cudaMemset* call this thread is inside, 0 when none.
thread_local std::uint32_t t_memsetRuntimeCorrelation = 0;

/// A collector note, once per text.
void noteOnce(const std::string& text)
{
    {
        std::lock_guard lock(*g_notesMutex);
        if (!g_notesGiven->insert(text).second)
            return;
    }
    Collector::instance().addNote(text);
}

std::string resultText(CUptiResult result)
{
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        return "CUPTI error " + std::to_string(static_cast<int>(result));
    return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

/// What a failure means for the user, not just its code.
std::string explain(const std::string& what, CUptiResult result, const std::string& otherTool = {})
{
    std::string message = what + " failed: " + resultText(result);
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        message += ". Another CUPTI client is already attached to this process ("
            + (otherTool.empty() ? std::string("Nsight Systems, Nsight Compute, cuda-gdb, or a profiler inside the "
                                               "program such as torch.profiler")
                                 : "CUPTI names it: \"" + otherTool + "\"")
            + "): GapScope enabled nothing and records no CUDA activity here; NVTX ranges are still recorded";
    } else if (result == CUPTI_ERROR_UNKNOWN || result == CUPTI_ERROR_NOT_INITIALIZED
        || result == CUPTI_ERROR_INVALID_DEVICE) {
        message += ". No usable CUDA driver or GPU: only NVTX and CPU ranges were recorded";
    } else if (result == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
        message += ". CUPTI refused for lack of privileges";
    }
    return message;
}

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    // nullptr: CUPTI drops records and counts them; cuptiActivityGetNumDroppedRecords says so.
    std::uint8_t* memory = g_pool ? g_pool->take() : nullptr;
    *buffer = memory;
    *size = memory ? g_pool->bufferSize() : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    // Only buffers GapScope handed out: with another client in the process, the others are theirs.
    if (!g_pool || !g_pool->giveBack(buffer))
        return;
    try {
        if (g_translator && validSize > 0 && Collector::instance().writer()) {
            const CuptiTranslator::BufferResult result
                = g_translator->translateBuffer(buffer, validSize, g_startedNs, Collector::now());
            if (const std::string note = CuptiTranslator::walkEndNote(result.status); !note.empty())
                noteOnce(note);
            if (result.farFromClock > 0 && g_farFromClock.fetch_add(result.farFromClock) == 0) {
                noteOnce("CUDA activity records carry timestamps more than an hour outside the recording: "
                         "another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) switched "
                         "CUPTI's clock, so GPU and CPU events do not line up in this recording");
            }
        }
    } catch (...) {
        // A buffer lost to an allocation failure: nothing may escape into CUPTI.
    }
}

void flushCupti(bool forced)
{
    if (g_detached.load())
        return;
    cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    gapscope::native::CountersRecord counters = g_translator->takeCounters();
    counters.droppedRecords += dropped;
    if (counters.droppedRecords || counters.skippedRecords || counters.unknownRecords) {
        if (NativeStreamWriter* writer = Collector::instance().writer())
            writer->addCounters(counters);
    }
    // After a forced flush CUPTI has handed back every buffer it had: one still out was taken
    // over by whoever registered buffer callbacks after GapScope.
    if (forced && g_pool && g_pool->outstanding() > 0) {
        noteOnce(std::to_string(g_pool->outstanding()) + " of the " + std::to_string(g_pool->requested())
            + " CUPTI activity buffers GapScope handed out never came back: another CUPTI client in the program "
              "(torch.profiler/Kineto, the JAX profiler) replaced GapScope's buffer callbacks, and CUDA activity "
              "after that point is missing from this recording");
    }
}

void refillBuffers()
{
    if (g_pool)
        g_pool->refill();
}

/// Kinds off before the last forced flush, so that it hands back complete records only.
void stopCupti()
{
    if (g_detached.load())
        return;
    for (const CUpti_ActivityKind kind : *g_enabledKinds)
        cuptiActivityDisable(kind);
}

void detachNow()
{
    if (g_detached.exchange(true))
        return;
    cuptiFinalize();
    std::lock_guard lock(*g_finalizeMutex);
    g_finalizeDone->notify_all();
}

/// cuptiFinalize where 13.0-13.1 need it, from the exit site of a CUDA call (cupti_activity.h: a
/// thread inside CUDA must not see CUPTI detach; Kineto crashed so, pytorch/kineto#686). Waits
/// kFinalizeWait for such a call; a process where no thread calls CUDA for that long has no
/// thread inside CUDA to disturb, and is detached from here.
void finalizeCupti()
{
    if (g_detached.load() || g_cuptiVersion >= kFirstCuptiWithoutUnloadCrash || !g_subscribed)
        return;
    g_finalizeRequested.store(true);
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
    {
        std::unique_lock lock(*g_finalizeMutex);
        if (g_finalizeDone->wait_for(lock, kFinalizeWait, [] { return g_detached.load(); }))
            return;
    }
    detachNow();
}

void onStateCallback(CUpti_CallbackId cbid, const CUpti_StateData& state)
{
    const std::string detail = resultText(state.notification.result)
        + (state.notification.message ? std::string(": ") + state.notification.message : std::string());
    Collector& collector = Collector::instance();
    if (cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
        // CUPTI detaches itself after a fatal error: no CUPTI call from here on.
        g_detached.store(true);
        collector.reportError("CUPTI reported a fatal error and detached itself: " + detail
            + "; CUDA activity after this point is not recorded");
        collector.setCuptiStatus(false, "CUPTI stopped after a fatal error: " + detail);
    } else if (cbid == CUPTI_CBID_STATE_ERROR) {
        collector.reportError("CUPTI reported an error: " + detail);
    } else if (cbid == CUPTI_CBID_STATE_WARNING) {
        noteOnce("CUPTI warning: " + detail);
    }
}

void CUPTIAPI onCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    try {
        if (domain == CUPTI_CB_DOMAIN_STATE) {
            onStateCallback(cbid, *static_cast<const CUpti_StateData*>(data));
            return;
        }
        if ((domain == CUPTI_CB_DOMAIN_RUNTIME_API || domain == CUPTI_CB_DOMAIN_DRIVER_API)
            && g_finalizeRequested.load(std::memory_order_relaxed)) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
                detachNow();
            return;
        }
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < g_memsetRuntimeCbid->size()
            && (*g_memsetRuntimeCbid)[cbid]) {
            const auto* call = static_cast<const CUpti_CallbackData*>(data);
            t_memsetRuntimeCorrelation = call->callbackSite == CUPTI_API_ENTER ? call->correlationId : 0;
            return;
        }
        if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < g_memsetDriverCbid->size() && (*g_memsetDriverCbid)[cbid]) {
            const auto* call = static_cast<const CUpti_CallbackData*>(data);
            if (call->callbackSite == CUPTI_API_ENTER && t_memsetRuntimeCorrelation != 0 && g_translator)
                g_translator->linkDriverCall(call->correlationId, t_memsetRuntimeCorrelation);
            return;
        }
        // Flushes before a reset or a context's end are not forced: a forced flush there hands back
        // records still being written, without timestamps.
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER)
                Collector::instance().flushNow(false);
        } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
                Collector::instance().flushNow(false);
        } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
            const auto* resource = static_cast<const CUpti_ResourceData*>(data);
            if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
                std::uint32_t contextId = 0;
                std::uint32_t deviceId = 0;
                if (cuptiGetContextId(resource->context, &contextId) == CUPTI_SUCCESS
                    && cuptiGetDeviceId(resource->context, &deviceId) == CUPTI_SUCCESS)
                    g_translator->learnContextDevice(contextId, deviceId);
            } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
                Collector::instance().flushNow(false);
            }
        }
    } catch (...) { }
}

struct ActivityKind {
    CUpti_ActivityKind kind;
    std::uint32_t bit; // 0: always, as the metadata other records need
    const char* name;
};

constexpr ActivityKind kActivityKinds[] = {
    { CUPTI_ACTIVITY_KIND_DEVICE, 0, "DEVICE" },
    { CUPTI_ACTIVITY_KIND_CONTEXT, 0, "CONTEXT" },
    // CONCURRENT_KERNEL, not KERNEL: KERNEL serializes the program's kernels.
    { CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, gapscope::capture::RecordKernels, "CONCURRENT_KERNEL" },
    { CUPTI_ACTIVITY_KIND_MEMCPY, gapscope::capture::RecordMemcpy, "MEMCPY" },
    { CUPTI_ACTIVITY_KIND_MEMCPY2, gapscope::capture::RecordMemcpy, "MEMCPY2" },
    { CUPTI_ACTIVITY_KIND_MEMSET, gapscope::capture::RecordMemset, "MEMSET" },
    { CUPTI_ACTIVITY_KIND_RUNTIME, gapscope::capture::RecordRuntime, "RUNTIME" },
    { CUPTI_ACTIVITY_KIND_DRIVER, gapscope::capture::RecordDriver, "DRIVER" },
    { CUPTI_ACTIVITY_KIND_SYNCHRONIZATION, gapscope::capture::RecordSync, "SYNCHRONIZATION" },
    { CUPTI_ACTIVITY_KIND_OVERHEAD, gapscope::capture::RecordOverhead, "OVERHEAD" },
};

/// The subscriber first, before anything else is registered or enabled (CUPTI allows one subscriber): when
/// another client holds CUPTI, GapScope must neither replace its buffer callbacks nor enable kinds.
bool subscribe(Collector& collector)
{
    char otherTool[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN > 256 ? CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN : 256] = {};
    CUpti_SubscriberParams params {};
    params.structSize = CUpti_SubscriberParams_STRUCT_SIZE;
    params.subscriberName = "GapScope";
    params.oldSubscriberName = otherTool;
    params.oldSubscriberSize = sizeof(otherTool);
    const CUptiResult subscribed = cuptiSubscribe_v2(&g_subscriber, &onCallback, nullptr, &params);
    if (subscribed != CUPTI_SUCCESS) {
        const std::string message = explain("cuptiSubscribe_v2", subscribed, otherTool);
        collector.reportError(message);
        collector.setCuptiStatus(false, message);
        return false;
    }
    g_subscribed = true;
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    // Fatal errors, errors and warnings: a CUPTI that stops says why.
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_STATE);
    return true;
}

/// Marks and enables the callbacks of every API function whose name starts with `prefix`.
void enableCallbacksNamed(
    CUpti_CallbackDomain domain, CUpti_CallbackId size, const std::string& prefix, std::vector<bool>& marks)
{
    marks.assign(size, false);
    for (CUpti_CallbackId cbid = 1; cbid < size; ++cbid) {
        const char* name = nullptr;
        if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name
            || std::string_view(name).substr(0, prefix.size()) != prefix)
            continue;
        if (cuptiEnableCallback(1, g_subscriber, domain, cbid) == CUPTI_SUCCESS)
            marks[cbid] = true;
    }
}

void startCupti()
{
    Collector& collector = Collector::instance();
    NativeStreamWriter* writer = collector.writer();
    if (!writer)
        return;
    collector.registerExitHandler(); // now, so that it runs before the CUDA runtime's own teardown
    const std::uint32_t kinds = collector.kinds() & gapscope::capture::kCudaRecordKinds;
    if (kinds == 0) {
        collector.setCuptiStatus(false, "no CUDA activity kind was asked for");
        return;
    }
    cuptiGetVersion(&g_cuptiVersion);
    // Records are read through CUPTI 13.0's structs; an older CUPTI writes other ones.
    if (g_cuptiVersion != 0 && g_cuptiVersion < kOldestCupti) {
        const std::string message = "the CUPTI library loaded (API version " + std::to_string(g_cuptiVersion)
            + ") is older than CUPTI 13.0 (" + std::to_string(kOldestCupti)
            + "), whose records GapScope reads: CUDA activity is not recorded";
        collector.reportError(message);
        collector.setCuptiStatus(false, message);
        return;
    }
    if (!subscribe(collector))
        return;
    if (g_cuptiVersion < kFirstCuptiWithDeviceSyncRecords) {
        collector.addNote("CUPTI " + std::to_string(g_cuptiVersion)
            + " (CUDA 13.0 GA) emits no synchronization records for cudaDeviceSynchronize; 13.0 Update 1 "
              "(130001) does: `sync` gaps after it may show as `host`");
    }
    g_startedNs = Collector::now();
    if (!g_translator)
        g_translator = new CuptiTranslator(*writer);
    if (!g_pool) {
        g_pool = new ActivityBufferPool(kBufferSize, kSpareBuffers);
        g_pool->refill();
    }
    // Our buffers come zeroed from the flush thread: CUPTI need not zero them on the program's.
    std::uint8_t zeroed = 1;
    std::size_t attributeSize = sizeof(zeroed);
    const CUptiResult zeroedResult
        = cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &attributeSize, &zeroed);
    if (zeroedResult != CUPTI_SUCCESS)
        collector.addNote(explain("cuptiActivitySetAttribute(ZEROED_OUT_ACTIVITY_BUFFER)", zeroedResult));
    const CUptiResult idType = cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM);
    if (idType != CUPTI_SUCCESS)
        collector.reportError(explain("cuptiSetThreadIdType(SYSTEM)", idType) + "; API calls may land on wrong lanes");
    const CUptiResult registered = cuptiActivityRegisterCallbacks(&bufferRequested, &bufferCompleted);
    if (registered != CUPTI_SUCCESS) {
        const std::string message = explain("cuptiActivityRegisterCallbacks", registered);
        collector.reportError(message);
        collector.setCuptiStatus(false, message);
        return;
    }
    int enabled = 0;
    std::string firstFailure;
    for (const ActivityKind& kind : kActivityKinds) {
        if (kind.bit != 0 && (kinds & kind.bit) == 0)
            continue;
        const CUptiResult result = cuptiActivityEnable(kind.kind);
        if (result == CUPTI_SUCCESS) {
            g_enabledKinds->push_back(kind.kind);
            enabled += kind.bit != 0 ? 1 : 0;
        } else if (kind.bit != 0) {
            const std::string message = explain(std::string("cuptiActivityEnable(") + kind.name + ")", result);
            collector.reportError(message);
            if (firstFailure.empty())
                firstFailure = message;
        }
    }
    if ((kinds & gapscope::capture::RecordMemset) && (kinds & gapscope::capture::RecordRuntime)) {
        enableCallbacksNamed(
            CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, "cudaMemset", *g_memsetRuntimeCbid);
        enableCallbacksNamed(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, "cuMemset", *g_memsetDriverCbid);
    }
    // Flushing and the exit work are hooked up even when nothing could be enabled: CUPTI is
    // subscribed and must be let go of at exit.
    collector.setCudaHooks(CudaHooks { &flushCupti, &stopCupti, &finalizeCupti, &refillBuffers });
    if (enabled == 0) {
        collector.setCuptiStatus(false, firstFailure);
        return;
    }
    collector.setCuptiStatus(true,
        "CUPTI API version " + std::to_string(g_cuptiVersion) + ", " + std::to_string(enabled)
            + " activity kinds enabled");
}

} // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void)
{
    try {
        // Once per process; a child forked before CUDA was initialised may come here again, and must.
        const pid_t self = ::getpid();
        if (g_startedIn.exchange(self) == self)
            return 1;
        startCupti();
    } catch (...) {
        std::fprintf(stderr, "gapscope collector: CUDA injection failed; CUDA activity is not recorded\n");
    }
    return 1;
}
