// SPDX-License-Identifier: MIT
// CUDA injection (CUDA_INJECTION64_PATH): the driver calls the exported InitializeInjection while it
// initialises. The collector then sets up CUPTI activity tracing (docs/collector.md).
// Any CUPTI failure (no usable driver, another CUPTI client already attached) is said on stderr and
// in the file, and the program runs on: it is never taken down by its profiler.

#include "capture/collector_env.h"
#include "capture/cupti/activity_buffer_pool.h"
#include "capture/cupti/completed_buffer_reader.h"
#include "capture/cupti/cupti_client_watch.h"
#include "capture/cupti/cupti_detach.h"
#include "capture/cupti/cupti_translator.h"
#include "capture/inject/collector.h"

#include <cupti.h>

#include <sys/prctl.h>
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
using gapscope::capture::CompletedBufferReader;
using gapscope::capture::CudaHooks;
using gapscope::capture::CuptiClientWatch;
using gapscope::capture::CuptiDetach;
using gapscope::capture::CuptiTranslator;
using gapscope::capture::NativeStreamWriter;

namespace {

/// 2 MB: a SIGINT or a crash loses at most what the buffers hold; a thread fills one with ~10,000
/// kernel records between two flushes.
constexpr std::size_t kBufferSize = 2u << 20;
/// Spares follow the last flush interval's demand between these (64 MB at most).
constexpr std::size_t kSpareBuffers = 4;
constexpr std::size_t kMaxSpareBuffers = 32;
/// How long launches may go on with no buffer of GapScope's requested or completed before another
/// CUPTI client is taken to hold CUPTI's activity API.
constexpr std::int64_t kForeignClientWindowNs = 2'000'000'000;
/// The structs this build reads are CUPTI 13.0's; 13.0 Update 1 (130001) is the first to emit
/// SYNCHRONIZATION records for cudaDeviceSynchronize.
constexpr std::uint32_t kOldestCupti = 130000;
constexpr std::uint32_t kFirstCuptiWithDeviceSyncRecords = 130001;
/// 13.0 and 13.1 crash at unload unless cuptiFinalize ran; 13.2 fixed it.
constexpr std::uint32_t kFirstCuptiWithoutUnloadCrash = 130200;
/// How long the exit handler waits for a CUDA call's exit callback to finalize CUPTI from, when other
/// threads that called CUDA are alive.
constexpr auto kFinalizeWait = std::chrono::milliseconds(200);

// Leaked on purpose: CUPTI may complete a buffer late, threads may call in during exit.
CuptiTranslator* g_translator = nullptr;
ActivityBufferPool* g_pool = nullptr;
CompletedBufferReader* g_reader = nullptr;
CuptiClientWatch* g_watch = nullptr;
CUpti_SubscriberHandle g_subscriber = nullptr;
bool g_subscribed = false;
std::uint32_t g_cuptiVersion = 0;
std::atomic<pid_t> g_startedIn { 0 };
std::vector<CUpti_ActivityKind>* g_enabledKinds = new std::vector<CUpti_ActivityKind>();

void finalizeNow()
{
    cuptiFinalize();
}

void armApiExitCallbacks()
{
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API);
    cuptiEnableDomain(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API);
}

/// Whether CUPTI may still be called, and the exit's cuptiFinalize (capture/cupti/cupti_detach.h).
CuptiDetach* g_detach = new CuptiDetach({ &finalizeNow, &armApiExitCallbacks });
std::mutex* g_notesMutex = new std::mutex();
std::set<std::string>* g_notesGiven = new std::set<std::string>();
std::atomic<std::uint64_t> g_farFromClock { 0 };
/// When CUPTI was set up, on the collector's clock: no record can be much older.
std::int64_t g_startedNs = 0;
/// Callback ids of cudaMemset* (runtime) and cuMemset* (driver) calls, whose callbacks link a
/// memset's driver call to the runtime call around it (CuptiTranslator::linkDriverCall).
std::vector<bool>* g_memsetRuntimeCbid = new std::vector<bool>();
std::vector<bool>* g_memsetDriverCbid = new std::vector<bool>();
/// Callback ids of kernel launches (cudaLaunch*, cudaGraphLaunch*, cuLaunch*, cuGraphLaunch*; not
/// the host-function ones): counted, so that a stop of CUDA activity while the program launches on
/// can be told from a quiet program (CuptiClientWatch).
std::vector<bool>* g_launchRuntimeCbid = new std::vector<bool>();
std::vector<bool>* g_launchDriverCbid = new std::vector<bool>();
/// Launches counted on 16 cache lines, by thread: no contention between launching threads.
struct alignas(64) LaunchSlot {
    std::atomic<std::uint64_t> count { 0 };
};
LaunchSlot* g_launchSlots = new LaunchSlot[16];
std::atomic<unsigned> g_nextLaunchSlot { 0 };
/// Threads that launched kernels: at exit, whether one other than the exiting thread is alive.
std::mutex* g_cudaThreadsMutex = new std::mutex();
std::vector<std::int64_t>* g_cudaThreads = new std::vector<std::int64_t>();
/// The cudaMemset* call this thread is inside, 0 when none.
thread_local std::uint32_t t_memsetRuntimeCorrelation = 0;
/// Inside a runtime launch: its driver launch underneath is not counted again.
thread_local bool t_inRuntimeLaunch = false;
thread_local int t_launchSlot = -1;
thread_local bool t_nameNoted = false;

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

void noteLaunch()
{
    if (t_launchSlot < 0) {
        t_launchSlot = static_cast<int>(g_nextLaunchSlot.fetch_add(1, std::memory_order_relaxed) % 16);
        std::lock_guard lock(*g_cudaThreadsMutex);
        g_cudaThreads->push_back(::gettid());
    }
    g_launchSlots[t_launchSlot].count.fetch_add(1, std::memory_order_relaxed);
}

std::uint64_t launchesSoFar()
{
    std::uint64_t total = 0;
    for (int i = 0; i < 16; ++i)
        total += g_launchSlots[i].count.load(std::memory_order_relaxed);
    return total;
}

/// Whether a live thread other than this one has called CUDA (API records, launch callbacks).
bool otherCudaThreadsAlive()
{
    if ((Collector::instance().kinds() & (gapscope::capture::RecordRuntime | gapscope::capture::RecordDriver)) == 0
        && g_launchRuntimeCbid->empty())
        return true; // nothing tells which threads called CUDA
    std::vector<std::int64_t> threads = g_translator ? g_translator->apiThreads() : std::vector<std::int64_t>();
    {
        std::lock_guard lock(*g_cudaThreadsMutex);
        threads.insert(threads.end(), g_cudaThreads->begin(), g_cudaThreads->end());
    }
    const std::int64_t self = ::gettid();
    for (const std::int64_t tid : threads) {
        if (tid != self && ::access(("/proc/self/task/" + std::to_string(tid)).c_str(), F_OK) == 0)
            return true;
    }
    return false;
}

void CUPTIAPI bufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* maxNumRecords)
{
    // CUPTI asks on the thread that records: a thread that calls CUDA but never NVTX is named here.
    if (!t_nameNoted) {
        t_nameNoted = true;
        try {
            char name[17] = {};
            if (::prctl(PR_GET_NAME, name, 0, 0, 0) == 0)
                Collector::instance().noteThreadName(::gettid(), name, false);
        } catch (...) { }
    }
    // nullptr: CUPTI drops records and counts them; cuptiActivityGetNumDroppedRecords says so.
    std::uint8_t* memory = g_pool ? g_pool->take() : nullptr;
    *buffer = memory;
    *size = memory ? g_pool->bufferSize() : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    if (!g_reader)
        return;
    try {
        // Walked before it goes back to the pool; only buffers GapScope handed out (another client's are
        // theirs); after the file closed, freed and counted.
        const bool reading = Collector::instance().writer() != nullptr;
        const CompletedBufferReader::Completion completion
            = g_reader->complete(buffer, validSize, reading, g_startedNs, reading ? Collector::now() : 0);
        if (completion.outcome != CompletedBufferReader::Outcome::Read)
            return;
        const CuptiTranslator::BufferResult& result = completion.walk;
        if (const std::string note = CuptiTranslator::walkEndNote(result.status); validSize > 0 && !note.empty())
            noteOnce(note);
        if (result.farFromClock > 0 && g_farFromClock.fetch_add(result.farFromClock) == 0) {
            noteOnce("CUDA activity records carry timestamps more than an hour outside the recording: "
                     "another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) switched "
                     "CUPTI's clock, so GPU and CPU events do not line up in this recording");
        }
    } catch (...) {
        // A buffer lost to an allocation failure: nothing may escape into CUPTI.
    }
}

/// Once per flush interval, on the flush thread: has another CUPTI client taken CUPTI over?
void watchForAnotherClient()
{
    if (!g_watch || !g_pool)
        return;
    CuptiClientWatch::Sample sample;
    sample.nowNs = Collector::now();
    sample.launches = launchesSoFar();
    sample.buffersRequested = g_pool->requested();
    sample.buffersCompleted = g_pool->completed();
    sample.records = g_translator->recordCounts();
    const std::optional<CuptiClientWatch::Finding> finding = g_watch->observe(sample);
    if (!finding)
        return;
    std::string note = CuptiClientWatch::describe(*finding, g_startedNs);
    if (finding->takeover) {
        g_detach->markForeign();
        if (const std::size_t out = g_pool->outstanding(); out > 0)
            note += "; " + std::to_string(out) + " of the buffers GapScope handed out did not come back";
        Collector::instance().reportError(note);
        Collector::instance().setCuptiStatus(false, "another CUPTI client took over");
    } else {
        noteOnce(note);
    }
}

void flushCupti(bool forced)
{
    if (!g_detach->usable())
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
    if (!forced) {
        watchForAnotherClient();
        return;
    }
    // The exit's flush: buffers still out now are CUPTI's empty per-thread ones, not a sign of another
    // client (the watch above tells that from launches that go unrecorded).
    if (g_pool && g_pool->zeroedOnCaller() > 0) {
        noteOnce(std::to_string(g_pool->zeroedOnCaller()) + " of the " + std::to_string(g_pool->requested())
            + " CUPTI activity buffers were allocated and zeroed (2 MB each) on the program's thread that needed "
              "one, because no spare was ready; the spares follow each flush interval's demand, up to "
            + std::to_string(kMaxSpareBuffers));
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
    if (!g_detach->usable())
        return;
    for (const CUpti_ActivityKind kind : *g_enabledKinds)
        cuptiActivityDisable(kind);
}

/// cuptiFinalize where 13.0-13.1 need it (capture/cupti/cupti_detach.h): at once when no other live
/// thread called CUDA, else from the exit site of a CUDA call within kFinalizeWait, else not at all.
/// The file was flushed before: a crash or hang in cuptiFinalize loses no record.
void finalizeCupti()
{
    if (g_cuptiVersion >= kFirstCuptiWithoutUnloadCrash || !g_subscribed)
        return;
    const CuptiDetach::Result result = g_detach->finalizeAtExit(otherCudaThreadsAlive(), kFinalizeWait);
    if (result != CuptiDetach::Result::FinalizedHere && result != CuptiDetach::Result::FinalizedByCallback)
        noteOnce(CuptiDetach::describe(result));
}

void onStateCallback(CUpti_CallbackId cbid, const CUpti_StateData& state)
{
    const std::string detail = resultText(state.notification.result)
        + (state.notification.message ? std::string(": ") + state.notification.message : std::string());
    Collector& collector = Collector::instance();
    if (cbid == CUPTI_CBID_STATE_FATAL_ERROR) {
        // CUPTI detaches itself after a fatal error: no CUPTI call from here on.
        g_detach->markFatal();
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
            && g_detach->finalizeRequested()) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
                g_detach->onApiExit();
            return;
        }
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid < g_launchRuntimeCbid->size()
            && (*g_launchRuntimeCbid)[cbid]) {
            const bool enter = static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER;
            t_inRuntimeLaunch = enter;
            if (enter)
                noteLaunch();
            return;
        }
        if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid < g_launchDriverCbid->size() && (*g_launchDriverCbid)[cbid]) {
            if (!t_inRuntimeLaunch && static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER)
                noteLaunch();
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
        // records still being written, without timestamps. They run on the flush thread, not in this
        // callback: cuptiActivityFlushAll and file writes inside a CUPTI callback risk a deadlock with
        // CUPTI's own locks, and fork() counts on every flush holding the flush lock.
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER)
                Collector::instance().requestFlush();
        } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
                Collector::instance().requestFlush();
        } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
            const auto* resource = static_cast<const CUpti_ResourceData*>(data);
            if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
                std::uint32_t contextId = 0;
                std::uint32_t deviceId = 0;
                if (cuptiGetContextId(resource->context, &contextId) == CUPTI_SUCCESS
                    && cuptiGetDeviceId(resource->context, &deviceId) == CUPTI_SUCCESS)
                    g_translator->learnContextDevice(contextId, deviceId);
            } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
                Collector::instance().requestFlush();
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

/// Marks and enables the callbacks of every API function whose name starts with `prefix` (and does
/// not contain `except`).
void enableCallbacksNamed(CUpti_CallbackDomain domain, CUpti_CallbackId size, const std::string& prefix,
    std::vector<bool>& marks, std::string_view except = {})
{
    marks.resize(size, false);
    for (CUpti_CallbackId cbid = 1; cbid < size; ++cbid) {
        const char* name = nullptr;
        if (cuptiGetCallbackName(domain, cbid, &name) != CUPTI_SUCCESS || !name
            || std::string_view(name).substr(0, prefix.size()) != prefix
            || (!except.empty() && std::string_view(name).find(except) != std::string_view::npos))
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
        g_pool = new ActivityBufferPool(kBufferSize, kSpareBuffers, kMaxSpareBuffers);
        g_pool->refill();
    }
    if (!g_reader)
        g_reader = new CompletedBufferReader(*g_pool, *g_translator);
    if (!g_watch)
        g_watch = new CuptiClientWatch(kForeignClientWindowNs);
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
    if (kinds & gapscope::capture::RecordKernels) {
        for (const char* prefix : { "cudaLaunch", "cudaGraphLaunch" })
            enableCallbacksNamed(
                CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_SIZE, prefix, *g_launchRuntimeCbid, "HostFunc");
        for (const char* prefix : { "cuLaunch", "cuGraphLaunch" })
            enableCallbacksNamed(
                CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_SIZE, prefix, *g_launchDriverCbid, "HostFunc");
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
        // NVTX started the collector, whose clock lookup (cuptiGetTimestamp) initialised the driver,
        // which called this on the same thread: CUPTI is set up once the collector exists.
        if (Collector::startingOnThisThread()) {
            Collector::runWhenStarted(&startCupti);
            return 1;
        }
        startCupti();
    } catch (...) {
        std::fprintf(stderr, "gapscope collector: CUDA injection failed; CUDA activity is not recorded\n");
    }
    return 1;
}
