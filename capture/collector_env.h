// SPDX-License-Identifier: MIT
#pragma once

// The contract between the launcher (gapscope_capture) and the injected collector (gapscope_inject):
// the environment variables the launcher sets and the bits of the kinds mask. Constants only, so
// that the collector can include it without linking anything.

#include <cstdint>

namespace gapscope::capture {

/// Folder the collector writes its per-process files into (created by the launcher). Unset: the
/// current folder, for a user who sets CUDA_INJECTION64_PATH by hand.
inline constexpr const char* kEnvOutputDir = "GAPSCOPE_OUTPUT_DIR";
/// Decimal mask of RecordKind bits; unset: everything.
inline constexpr const char* kEnvKinds = "GAPSCOPE_KINDS";
/// Recording window in ns on the collector's clock (CLOCK_REALTIME): events that end before FROM or
/// start at or after UNTIL are dropped. Unset: no bound.
inline constexpr const char* kEnvRecordFromNs = "GAPSCOPE_RECORD_FROM_NS";
inline constexpr const char* kEnvRecordUntilNs = "GAPSCOPE_RECORD_UNTIL_NS";
/// Milliseconds between background flushes (default kDefaultFlushIntervalMs).
inline constexpr const char* kEnvFlushIntervalMs = "GAPSCOPE_FLUSH_INTERVAL_MS";
inline constexpr int kDefaultFlushIntervalMs = 150;

/// The variables the CUDA driver and NVTX read to load the collector.
inline constexpr const char* kEnvCudaInjection = "CUDA_INJECTION64_PATH";
inline constexpr const char* kEnvNvtxInjection = "NVTX_INJECTION64_PATH";

/// Environment variables that name a process's rank, in the order they are consulted.
inline constexpr const char* kRankVariables[] = { "RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK" };

/// What to record; `--kinds` names map to these bits.
enum RecordKind : std::uint32_t {
    RecordKernels = 1u << 0, // CONCURRENT_KERNEL
    RecordMemcpy = 1u << 1, // MEMCPY, MEMCPY2 (peer to peer)
    RecordMemset = 1u << 2, // MEMSET
    RecordSync = 1u << 3, // SYNCHRONIZATION
    RecordRuntime = 1u << 4, // RUNTIME API
    RecordDriver = 1u << 5, // DRIVER API
    RecordNvtx = 1u << 6, // NVTX ranges, marks, thread names
    RecordOverhead = 1u << 7, // CUPTI OVERHEAD records (the collector's own flush time is always kept)
};
inline constexpr std::uint32_t kAllRecordKinds = 0xffu;
inline constexpr std::uint32_t kCudaRecordKinds
    = RecordKernels | RecordMemcpy | RecordMemset | RecordSync | RecordRuntime | RecordDriver | RecordOverhead;

/// Per-process file name: "gapscope-<pid>.gapscope", or "gapscope-rank<R>-<pid>.gapscope" with a rank.
inline constexpr const char* kPartFilePrefix = "gapscope-";

} // namespace gapscope::capture
