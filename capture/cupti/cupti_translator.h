// SPDX-License-Identifier: MIT
#pragma once

#include "capture/stream/native_stream_writer.h"

#include <cupti.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gapscope::capture {

/// Turns CUPTI activity records into native events and metadata (docs/collector.md):
/// CONCURRENT_KERNEL (CUpti_ActivityKernel10), MEMCPY (Memcpy6), MEMCPY2 (MemcpyPtoP4),
/// MEMSET (Memset4), RUNTIME and DRIVER (API), SYNCHRONIZATION (Synchronization2) and
/// OVERHEAD (Overhead3) become events; DEVICE (Device5) and CONTEXT (Context3) become metadata
/// and the context -> device map that synchronization records need.
///
/// Records are read through the CUPTI 13.0 structs this is compiled against; newer CUPTI versions
/// only append fields, so the prefix read here stays valid (the collector refuses an older CUPTI).
/// Records without timestamps (start == end == 0) or that end before they start are skipped and
/// counted; records of other kinds are counted as unknown. Kernel names are copied (CUPTI reuses
/// the memory) and demangled; Device5.name and Overhead3.overheadData, which the client must free,
/// are freed once read. Thread-safe: CUPTI may complete buffers on several threads; linkDriverCall()
/// takes a lock of its own, never held for a walk.
///
/// GPU lanes are keyed by (device, context, stream): stream ids are unique within a context only.
/// The first context seen on a device keeps CUPTI's stream ids as lane ids; streams of any other
/// context on that device get (context << 32 | stream) and a stream name saying both.
///
/// OVERHEAD records are split by whose cost they are: CUPTI's own (instrumentation, resources,
/// buffer requests and flushes) go on the collector lane; the program's (JIT compilation, module
/// and function loading, a full command buffer) go on the thread they happened on as Other events.
class CuptiTranslator {
public:
    explicit CuptiTranslator(NativeSink& sink);

    /// Translates one record. Returns true when it became an event or metadata.
    bool translate(const CUpti_Activity* record);

    struct BufferResult {
        std::size_t records = 0; // records cuptiActivityGetNextRecord returned
        std::size_t translated = 0; // of which became an event or metadata
        /// How the walk ended: CUPTI_ERROR_MAX_LIMIT_REACHED at the end of a well-formed buffer.
        CUptiResult status = CUPTI_SUCCESS;
        /// Records that start more than an hour before `startedNs` or after `nowNs`.
        std::size_t farFromClock = 0;
    };
    /// Walks a completed buffer with cuptiActivityGetNextRecord, translating each record.
    /// `startedNs` (when CUPTI was set up) and `nowNs`, on the collector's clock, bound when a record
    /// can have happened (0: not checked); a record far outside means somebody switched CUPTI's
    /// clock (cuptiActivityRegisterTimestampCallback). A record that waited hours in a buffer of a
    /// quiet thread is still inside.
    BufferResult translateBuffer(
        std::uint8_t* buffer, std::size_t validSize, std::int64_t startedNs = 0, std::int64_t nowNs = 0);
    /// What a walk that did not end with CUPTI_ERROR_MAX_LIMIT_REACHED means, for a collector note;
    /// empty when it did.
    static std::string walkEndNote(CUptiResult status);

    /// Counts since the previous call (skipped, unknown; dropped stays 0: the collector reads it
    /// from CUPTI; truncated bytes stay 0: record sizes differ between CUPTI versions, so no
    /// estimate is made).
    native::CountersRecord takeCounters();

    /// Records translated so far per kind, in CuptiClientWatch::Kind order (kernels, runtime, driver,
    /// memcpy, memset, synchronization). Lock-free: the flush thread reads it during a walk.
    std::array<std::uint64_t, 6> recordCounts() const;
    /// OS thread ids seen making runtime or driver API calls (RUNTIME/DRIVER records).
    std::vector<std::int64_t> apiThreads() const;

    /// Teaches the context -> device map (the collector's resource callback knows it first).
    void learnContextDevice(std::uint32_t contextId, std::uint32_t deviceId);
    /// A memset record carries the correlation id of the driver call that launched it (cuMemsetD*),
    /// not the runtime call the program made (cudaMemset*), and MEMSET records have no
    /// runtimeCorrelationId: the collector's API callbacks tell which runtime call a driver call was
    /// made in, so that the memset links to cudaMemsetAsync even without driver records.
    void linkDriverCall(std::uint32_t driverCorrelation, std::uint32_t runtimeCorrelation);

    /// "cudaLaunchKernel" for a runtime or driver callback id (CUPTI's name without its "_v7000" suffix).
    static std::string apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    /// Demangles an Itanium C++ ABI name; returns it unchanged when it is not one.
    static std::string demangle(const char* name);
    /// True for OVERHEAD kinds that are the program's cost, not CUPTI's.
    static bool isProgramOverhead(CUpti_ActivityOverheadKind kind);

private:
    bool translateLocked(const CUpti_Activity* record);
    bool hasTimestamps(std::uint64_t start, std::uint64_t end);
    void addEvent(std::int64_t start, std::int64_t end, std::uint64_t bytes, std::int64_t lane, std::uint32_t name,
        std::uint32_t correlation, std::uint32_t args, std::int32_t device, native::EventCode code, std::uint8_t copy);
    void addKernel(const CUpti_ActivityKernel10& k);
    void addMemcpy(const CUpti_ActivityMemcpy6& m);
    void addPeerMemcpy(const CUpti_ActivityMemcpyPtoP4& m);
    void addMemset(const CUpti_ActivityMemset4& m);
    void addApiCall(const CUpti_ActivityAPI& a, bool runtime);
    void addSynchronization(const CUpti_ActivitySynchronization2& s);
    void addOverhead(const CUpti_ActivityOverhead3& o);
    void addDevice(const CUpti_ActivityDevice5& d);
    std::int32_t deviceOfContext(std::uint32_t contextId) const;
    /// The lane id of a stream of a context on a device (see the class comment).
    std::int64_t streamLane(std::uint32_t deviceId, std::uint32_t contextId, std::uint32_t streamId);
    std::uint32_t kernelName(const char* name);
    std::uint32_t cached(std::map<std::uint64_t, std::uint32_t>& cache, std::uint64_t key, const std::string& text);

    NativeSink& m_sink;
    std::mutex m_mutex;
    native::CountersRecord m_counters {};
    struct StringHash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view> {}(s); }
    };
    /// Mangled name -> id of the demangled name.
    std::unordered_map<std::string, std::uint32_t, StringHash, std::equal_to<>> m_kernelNames;
    std::map<std::uint64_t, std::uint32_t> m_runtimeNames;
    std::map<std::uint64_t, std::uint32_t> m_driverNames;
    std::map<std::uint64_t, std::uint32_t> m_fixedNames; // memcpy/memset/sync/overhead names by key
    std::map<std::array<int, 8>, std::uint32_t> m_launchArgs; // grid, block, registers, shared memory -> args id
    std::unordered_map<std::uint32_t, std::int32_t> m_contextDevice;
    /// Guards m_runtimeOfDriverCall only: the memset callbacks on the program's threads must not wait
    /// for a buffer walk, which holds m_mutex for the whole buffer.
    std::mutex m_linkMutex;
    std::unordered_map<std::uint32_t, std::uint32_t> m_runtimeOfDriverCall;
    /// Device -> the first context seen on it, whose streams keep their CUPTI ids.
    std::unordered_map<std::uint32_t, std::uint32_t> m_primaryContext;
    /// Lanes of other contexts already named.
    std::unordered_map<std::int64_t, std::uint32_t> m_namedStreams;
    std::array<std::atomic<std::uint64_t>, 6> m_kindRecords {};
    mutable std::mutex m_threadsMutex;
    std::vector<std::int64_t> m_apiThreads;
    std::int64_t m_lastApiThread = -1;
    std::int32_t m_lastDevice = 0;
    std::size_t m_eventsAdded = 0;
    std::int64_t m_lastStart = 0;
};

} // namespace gapscope::capture
