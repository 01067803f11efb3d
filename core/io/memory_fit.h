// SPDX-License-Identifier: MIT
#pragma once

// Will a trace fit in memory? Estimated from the file's size before anything is parsed, so that a trace too
// large for the machine gets a clear message instead of a machine that swaps (or an OOM kill) minutes later.

#include "core/io/common/io_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// What loading a file is expected to take.
struct LoadEstimate {
    std::uint64_t fileBytes = 0;
    /// The content the reader parses: the file's size, or for gzip the inflated size (from the gzip trailer,
    /// which holds it modulo 4 GiB: the smallest such size at least kMinGzipRatio times the file).
    std::uint64_t contentBytes = 0;
    /// Peak resident memory of the load: contentBytes times the format's factor (below).
    std::uint64_t peakBytes = 0;
};

/// Peak memory of a load per content byte, rounded up from `gapscope report` under /usr/bin/time -v (args kept):
/// Kineto JSON 0.68 (generated 3.16 GB file: 2.14 GB peak; 314 MB: 214 MB), the native format 3.5 (a 152 MB
/// capture of the 314 MB file: 536 MB peak; the mapped file counts in it).
inline constexpr double kJsonPeakPerContentByte = 0.75;
inline constexpr double kNativePeakPerContentByte = 4.0;
/// Nsight Systems SQLite exports: 1.19 from the importer's benchmark (211 MB file, 4 M rows at 60-63 B each, peak
/// 1.0x the model). A .nsys-rep report is estimated as JSON would be: its export's size is not known yet.
inline constexpr double kSqlitePeakPerContentByte = 1.25;
/// Smallest compression ratio assumed for a gzip trace whose trailer's size wrapped around 4 GiB.
inline constexpr std::uint64_t kMinGzipRatio = 5;

/// How checkFitsInMemory's refusal begins: the viewer offers a partial load (ReadFilter) on it.
inline constexpr std::string_view kTooLargeForMemory = "too large for the memory available";

/// Estimates the load of one file from its size and first/last bytes; an IoError when it cannot be read.
IoResult<LoadEstimate> estimateLoad(const std::string& path);

/// MemAvailable from a meminfo file (bytes), nullopt when the file or the line is missing.
std::optional<std::uint64_t> availableMemoryBytes(const std::string& meminfoPath = "/proc/meminfo");

/// The memory a load may take: GAPSCOPE_AVAILABLE_MEMORY (bytes) when set, else MemAvailable from
/// /proc/meminfo; nullopt (no check) when neither is known or GAPSCOPE_SKIP_MEMORY_CHECK is set to 1.
std::optional<std::uint64_t> memoryBudgetBytes();

/// An error naming the file (the first of `paths`, when several are loaded together), the estimate and the
/// available memory when the files' estimated peak together exceeds `availableBytes`; nullopt when they fit
/// or a file cannot be read (its reader reports that).
std::optional<IoError> checkFitsInMemory(const std::vector<std::string>& paths, std::uint64_t availableBytes);

} // namespace gapscope
