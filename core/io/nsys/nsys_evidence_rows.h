// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/counter_tracks.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::nsys {

/// The rows of an export's evidence tables (CPU samples, memory usage, GPU metrics) as read, before they are
/// given the trace's processes, devices and names. Reading them needs nothing the event tables give, so they are
/// read on a connection of their own while the event tables are (the SQLite scan of a row is most of its cost);
/// what needs the trace (its processes, devices and interned names) is done after, once per thread, chain, device
/// or metric rather than once per row.
struct NsysEvidenceRows {
    struct Sample {
        std::int64_t id = 0; // COMPOSITE_EVENTS.id, which SAMPLING_CALLCHAINS.id refers to
        std::int64_t time = 0;
        std::int64_t globalTid = 0;
        std::uint32_t cpu = 0;
    };
    /// A frame as the export names it: StringIds ids of the function and the module.
    struct RawFrame {
        std::int64_t symbol = 0;
        std::int64_t module = 0;
        friend bool operator==(const RawFrame&, const RawFrame&) = default;
    };
    bool hasSamples = false;
    std::vector<Sample> samples;
    /// The distinct callchains: chain c is frames[chainStart[c], chainStart[c + 1]), innermost first.
    std::vector<RawFrame> frames;
    std::vector<std::uint32_t> chainStart { 0 };
    /// (sample id, distinct chain), by sample id ascending.
    std::vector<std::pair<std::int64_t, std::uint32_t>> chainOfSample;

    /// CUDA_GPU_MEMORY_USAGE_EVENTS per (globalPid, deviceId): the running sum of the bytes allocated, by time.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<CounterPoint>> memory;
    std::uint64_t memoryRowsOfOtherOperations = 0;

    /// GPU_METRICS per (typeId, metricId), in row order, and the names TARGET_INFO_GPU_METRICS gives them.
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<CounterPoint>> metrics;
    std::vector<std::pair<std::int64_t, std::int64_t>> metricOrder; // the keys by their first row
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> metricNames;
    /// TARGET_INFO_CUDA_DEVICE: the CUDA device id and the pid of the first process listed for each GPU.
    std::map<std::int64_t, std::int64_t> cudaIdOfGpu;
    std::map<std::int64_t, std::int64_t> pidOfGpu;
};

} // namespace gapscope::nsys
