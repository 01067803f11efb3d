// SPDX-License-Identifier: MIT
// CUDA injection (CUDA_INJECTION64_PATH): the driver calls the exported InitializeInjection while it
// initialises. The collector then sets up CUPTI activity tracing (DESIGN.md §6). Any CUPTI failure
// (no usable driver, another CUPTI client already attached) is said on stderr and in the file, and
// the program runs on: it is never taken down by its profiler.

#include "capture/collector_env.h"
#include "capture/cupti/cupti_translator.h"
#include "capture/inject/collector.h"

#include <cupti.h>

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>

using gapscope::capture::Collector;
using gapscope::capture::CudaHooks;
using gapscope::capture::CuptiTranslator;
using gapscope::capture::NativeStreamWriter;

namespace {

/// 8 MB, as DESIGN.md §6 says: large enough that a busy program rarely waits for one.
constexpr std::size_t kBufferSize = 8u << 20;

CuptiTranslator* g_translator = nullptr; // leaked on purpose: CUPTI may complete a buffer late
CUpti_SubscriberHandle g_subscriber = nullptr;
bool g_subscribed = false;
std::atomic<pid_t> g_startedIn { 0 };

std::string resultText(CUptiResult result)
{
    const char* text = nullptr;
    if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || !text)
        return "CUPTI error " + std::to_string(static_cast<int>(result));
    return std::string(text) + " (" + std::to_string(static_cast<int>(result)) + ")";
}

/// What a failure means for the user, not just its code.
std::string explain(const std::string& what, CUptiResult result)
{
    std::string message = what + " failed: " + resultText(result);
    if (result == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED) {
        message += ". Another CUPTI client is already attached to this process (Nsight Systems, Nsight Compute, "
                   "or a profiler inside the program such as torch.profiler): GapScope records no CUDA activity "
                   "here; NVTX ranges are still recorded";
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
    void* memory = nullptr;
    if (posix_memalign(&memory, 8, kBufferSize) != 0)
        memory = nullptr; // CUPTI drops records and counts them; cuptiActivityGetNumDroppedRecords says so
    *buffer = static_cast<std::uint8_t*>(memory);
    *size = memory ? kBufferSize : 0;
    *maxNumRecords = 0;
}

void CUPTIAPI bufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t validSize)
{
    try {
        if (g_translator && validSize > 0 && Collector::instance().writer())
            g_translator->translateBuffer(buffer, validSize);
    } catch (...) {
        // A buffer lost to an allocation failure: nothing may escape into CUPTI.
    }
    std::free(buffer);
}

void flushCupti(bool forced)
{
    cuptiActivityFlushAll(forced ? CUPTI_ACTIVITY_FLAG_FLUSH_FORCED : 0);
    std::size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) != CUPTI_SUCCESS)
        dropped = 0;
    gapscope::native::CountersRecord counters = g_translator->takeCounters();
    counters.droppedRecords += dropped;
    if (counters.droppedRecords || counters.skippedRecords || counters.unknownRecords || counters.truncatedBytes) {
        if (NativeStreamWriter* writer = Collector::instance().writer())
            writer->addCounters(counters);
    }
}

void finalizeCupti()
{
    if (g_subscribed) {
        cuptiUnsubscribe(g_subscriber);
        g_subscribed = false;
    }
    cuptiFinalize();
}

void CUPTIAPI onCallback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data)
{
    try {
        if (domain == CUPTI_CB_DOMAIN_RUNTIME_API && cbid == CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020) {
            // Before the reset tears the context down: its records would be lost otherwise.
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_ENTER)
                Collector::instance().flushNow(true);
        } else if (domain == CUPTI_CB_DOMAIN_DRIVER_API && cbid == CUPTI_DRIVER_TRACE_CBID_cuProfilerStop) {
            if (static_cast<const CUpti_CallbackData*>(data)->callbackSite == CUPTI_API_EXIT)
                Collector::instance().flushNow(true);
        } else if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
            const auto* resource = static_cast<const CUpti_ResourceData*>(data);
            if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
                std::uint32_t contextId = 0;
                std::uint32_t deviceId = 0;
                if (cuptiGetContextId(resource->context, &contextId) == CUPTI_SUCCESS
                    && cuptiGetDeviceId(resource->context, &deviceId) == CUPTI_SUCCESS)
                    g_translator->learnContextDevice(contextId, deviceId);
            } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
                Collector::instance().flushNow(true);
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

void subscribeCallbacks(Collector& collector)
{
    const CUptiResult subscribed = cuptiSubscribe(&g_subscriber, &onCallback, nullptr);
    if (subscribed != CUPTI_SUCCESS) {
        // Activity tracing may still work; flushing at cudaDeviceReset/cuProfilerStop will not.
        collector.reportError(explain("cuptiSubscribe", subscribed));
        return;
    }
    g_subscribed = true;
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, CUPTI_RUNTIME_TRACE_CBID_cudaDeviceReset_v3020);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuProfilerStop);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
    cuptiEnableCallback(1, g_subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
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
    std::uint32_t version = 0;
    cuptiGetVersion(&version);
    // Records are read through this build's structs; an older CUPTI may write shorter ones.
    if (version != 0 && version < CUPTI_API_VERSION) {
        const std::string message = "the CUPTI library loaded (API version " + std::to_string(version)
            + ") is older than the one GapScope was built with (" + std::to_string(CUPTI_API_VERSION)
            + "): CUDA activity is not recorded";
        collector.reportError(message);
        collector.setCuptiStatus(false, message);
        return;
    }
    if (!g_translator)
        g_translator = new CuptiTranslator(*writer);
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
    subscribeCallbacks(collector);
    int enabled = 0;
    std::string firstFailure;
    for (const ActivityKind& kind : kActivityKinds) {
        if (kind.bit != 0 && (kinds & kind.bit) == 0)
            continue;
        const CUptiResult result = cuptiActivityEnable(kind.kind);
        if (result == CUPTI_SUCCESS) {
            enabled += kind.bit != 0 ? 1 : 0;
        } else if (kind.bit != 0) {
            const std::string message = explain(std::string("cuptiActivityEnable(") + kind.name + ")", result);
            collector.reportError(message);
            if (firstFailure.empty())
                firstFailure = message;
        }
    }
    if (enabled == 0) {
        collector.setCuptiStatus(false, firstFailure);
        return;
    }
    collector.setCudaHooks(CudaHooks { &flushCupti, &finalizeCupti });
    collector.setCuptiStatus(true,
        "CUPTI API version " + std::to_string(version) + ", " + std::to_string(enabled) + " activity kinds enabled");
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
