// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace gapscope::bench {

/// What a synthetic Kineto trace holds.
struct KinetoTraceSpec {
    /// GPU ops (kernels ~90 %, memcpys ~7 %, memsets ~3 %), each with its cpu_op, its launch call
    /// (cuda_runtime, with a correlation id) and an ac2g flow pair: 5 traceEvents entries per GPU op, of
    /// which 3 become model events (a 10 M-entry file: gpuEvents = 2,000,000, about 3.2 GB of JSON).
    std::size_t gpuEvents = 200000;
    /// CUDA streams of device 0 the ops are spread over.
    int streams = 4;
    /// Host threads issuing the ops.
    int threads = 2;
    std::uint32_t seed = 1;
};

/// What was written, for benchmark counters and tests.
struct KinetoTraceStats {
    std::size_t events = 0; // every entry of traceEvents, metadata and flows included
    std::size_t gpuEvents = 0; // kernels + memcpys + memsets
    std::size_t kernels = 0;
    std::size_t memcpys = 0;
    std::size_t memsets = 0;
    std::size_t runtimeCalls = 0;
    std::size_t cpuOps = 0;
    std::size_t userAnnotations = 0; // ProfilerStep#N ranges, one per 500 GPU ops
    std::size_t flowEvents = 0; // "s" + "f"
    std::size_t bytes = 0; // size of the JSON text
};

/// Writes a Kineto-style Chrome trace (the layout and whitespace of the PyTorch profiler's own writer, ts and
/// dur as µs floats with ns resolution, deviceProperties, distributedInfo, M events) in pieces of about 1 MB
/// to `sink`, so that traces larger than memory can be written to a file. Deterministic for a given spec.
KinetoTraceStats writeKinetoJson(const KinetoTraceSpec& spec, const std::function<void(std::string_view)>& sink);

/// The same trace as one string.
std::string generateKinetoJson(
    std::size_t gpuEvents, int streams, int threads, std::uint32_t seed, KinetoTraceStats* stats = nullptr);

/// Writes the trace to `path` (gzip-compressed at zlib level 1 when `gzip`). False if the file cannot be written.
bool writeKinetoJsonFile(
    const std::string& path, const KinetoTraceSpec& spec, bool gzip, KinetoTraceStats* stats = nullptr);

} // namespace gapscope::bench
