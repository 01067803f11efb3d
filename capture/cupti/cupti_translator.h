// SPDX-License-Identifier: MIT
#pragma once

#include "capture/stream/native_stream_writer.h"

#include <cupti.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace gapscope::capture {

/// Turns CUPTI activity records into native events and metadata (DESIGN.md §6):
/// CONCURRENT_KERNEL (CUpti_ActivityKernel10), MEMCPY (Memcpy6), MEMCPY2 (MemcpyPtoP4),
/// MEMSET (Memset4), RUNTIME and DRIVER (API), SYNCHRONIZATION (Synchronization2) and
/// OVERHEAD (Overhead3) become events; DEVICE (Device5) and CONTEXT (Context3) become metadata
/// and the context -> device map that synchronization records need.
///
/// Records are read through the CUPTI 13.0 structs this is compiled against; newer CUPTI versions
/// only append fields, so the prefix read here stays valid (the collector refuses an older CUPTI).
/// Records without timestamps (start == end == 0) or that end before they start are skipped and
/// counted; records of other kinds are counted as unknown. Kernel names are copied (CUPTI reuses
/// the memory) and demangled. Thread-safe: CUPTI may complete buffers on several threads.
class CuptiTranslator {
public:
    explicit CuptiTranslator(NativeSink& sink);

    /// Translates one record. Returns true when it became an event or metadata.
    bool translate(const CUpti_Activity* record);

    struct BufferResult {
        std::size_t records = 0; // records cuptiActivityGetNextRecord returned
        std::size_t translated = 0; // of which became an event or metadata
        /// Bytes after the last complete record (a buffer cut short); 0 when the last record's kind
        /// has an unknown size.
        std::size_t truncatedBytes = 0;
        /// How the walk ended: CUPTI_ERROR_MAX_LIMIT_REACHED at the end of a well-formed buffer.
        CUptiResult status = CUPTI_SUCCESS;
    };
    /// Walks a completed buffer with cuptiActivityGetNextRecord, translating each record.
    BufferResult translateBuffer(std::uint8_t* buffer, std::size_t validSize);

    /// Counts since the previous call (skipped, unknown, truncated bytes; dropped stays 0: the
    /// collector reads it from CUPTI).
    native::CountersRecord takeCounters();

    /// Teaches the context -> device map (the collector's resource callback knows it first).
    void learnContextDevice(std::uint32_t contextId, std::uint32_t deviceId);

    /// "cudaLaunchKernel" for a runtime or driver callback id (CUPTI's name without its "_v7000" suffix).
    static std::string apiName(CUpti_CallbackDomain domain, CUpti_CallbackId cbid);
    /// Demangles an Itanium C++ ABI name; returns it unchanged when it is not one.
    static std::string demangle(const char* name);
    /// Size of the CUPTI 13.0 struct of a record kind this translator reads; 0 for other kinds.
    static std::size_t recordSize(CUpti_ActivityKind kind);

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
    std::int32_t m_lastDevice = 0;
};

} // namespace gapscope::capture
