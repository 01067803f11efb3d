// SPDX-License-Identifier: MIT
// The counters of an nsys export: CUDA_GPU_MEMORY_USAGE_EVENTS (`--cuda-memory-usage=true`: each allocation and
// free of device memory) and GPU_METRICS (`--gpu-metrics-devices`: SM active, DRAM bandwidth, ... sampled per GPU,
// named in TARGET_INFO_GPU_METRICS), as counter tracks of the trace.
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <map>

namespace gapscope::nsys {

namespace {

// ENUM_CUDA_DEV_MEM_EVENT_OPER: what a CUDA_GPU_MEMORY_USAGE_EVENTS row did.
constexpr std::int64_t kMemoryAllocation = 0;
constexpr std::int64_t kMemoryDeallocation = 1;

/// "SM Active [Throughput %]" -> "%", "PCIe Read Throughput [Bytes/s]" -> "Bytes/s": nsys puts a metric's unit
/// in its name's last brackets.
std::string unitOfMetric(std::string_view name)
{
    const std::size_t open = name.rfind('[');
    const std::size_t close = name.rfind(']');
    if (open == std::string_view::npos || close == std::string_view::npos || close < open)
        return {};
    std::string_view unit = name.substr(open + 1, close - open - 1);
    if (const std::size_t space = unit.rfind(' '); space != std::string_view::npos)
        unit = unit.substr(space + 1);
    return std::string(unit);
}

} // namespace

std::optional<DeviceIndex> NsysImport::existingDevice(std::int64_t globalPid, std::int64_t deviceId) const
{
    const auto process = m_processes.find(globalPidOf(globalPid));
    if (process == m_processes.end())
        return std::nullopt;
    for (std::uint32_t d = 0; d < m_trace.devices().size(); ++d) {
        const Device& device = m_trace.devices()[d];
        if (device.process == process->second && device.id == deviceId)
            return DeviceIndex { d };
    }
    return std::nullopt;
}

void NsysImport::readGpuMemoryUsage()
{
    constexpr std::string_view kTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";
    if (!has(kTable))
        return;
    struct Row {
        TimeNs time;
        std::int64_t bytes;
    };
    std::map<std::pair<std::int64_t, std::int64_t>, std::vector<Row>> byDevice; // (globalPid, deviceId)
    std::uint64_t other = 0;
    scanRows(kTable,
        { { "start", true }, { "globalPid", true }, { "deviceId", true }, { "bytes", true },
            { "memoryOperationType", true } },
        {}, [&](const SqliteRow& s, std::uint64_t) {
            const std::int64_t operation = s.integer(4);
            if (operation != kMemoryAllocation && operation != kMemoryDeallocation) {
                ++other;
                return;
            }
            const std::int64_t bytes = std::max<std::int64_t>(s.integer(3), 0);
            byDevice[{ globalPidOf(s.integer(1)), s.integer(2) }].push_back(
                Row { s.integer(0), operation == kMemoryAllocation ? bytes : -bytes });
        });
    CounterTracks& counters = m_trace.counters();
    for (auto& [key, rows] : byDevice) {
        const auto [globalPid, deviceId] = key;
        const std::optional<DeviceIndex> device = existingDevice(globalPid, deviceId);
        const std::string name
            = std::string(kMemoryAllocatedTrack) + (device ? std::string() : " (GPU " + std::to_string(deviceId) + ")");
        CounterTrack& track = counters.tracks()[counters.track(name, process(globalPid), device)];
        track.unit = "bytes";
        track.note = "the running sum of CUDA_GPU_MEMORY_USAGE_EVENTS (+ an allocation, - a free) from 0 at the "
                     "first: memory allocated before the capture began is not in it";
        std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
        std::int64_t sum = 0;
        for (const Row& r : rows) {
            sum += r.bytes;
            track.points.push_back(CounterPoint { r.time, static_cast<double>(sum) });
        }
    }
    if (other > 0) {
        warn(std::to_string(other)
                + " rows are neither an allocation nor a free (memoryOperationType not 0 or 1): "
                  "not counted",
            "table " + std::string(kTable));
    }
}

void NsysImport::readGpuMetrics()
{
    constexpr std::string_view kTable = "GPU_METRICS";
    if (!has(kTable) || !has("TARGET_INFO_GPU_METRICS"))
        return;
    std::map<std::pair<std::int64_t, std::int64_t>, std::string> names; // (typeId, metricId)
    if (auto s
        = select("TARGET_INFO_GPU_METRICS", { { "typeId", true }, { "metricId", true }, { "metricName", true } })) {
        forEachRow("TARGET_INFO_GPU_METRICS", *s, [&](std::uint64_t) {
            names[{ s->integer(0), s->integer(1) }] = std::string(s->text(2));
        });
    }
    // The GPU of a metric type: the low byte of its typeId, the id of TARGET_INFO_GPU, as nsys's own gpu-metrics
    // reports read it. A process's device of that GPU, through TARGET_INFO_CUDA_DEVICE (else the CUDA device of
    // that number), gets the tracks; a GPU no process used has tracks of no device, named for it.
    std::map<std::int64_t, std::optional<DeviceIndex>> deviceOfGpu;
    std::map<std::int64_t, std::int64_t> cudaIdOfGpu; // the first process's
    std::map<std::int64_t, std::int64_t> pidOfGpu;
    if (has("TARGET_INFO_CUDA_DEVICE")) {
        if (auto s = select("TARGET_INFO_CUDA_DEVICE", { { "gpuId", true }, { "cudaId", true }, { "pid", true } })) {
            forEachRow("TARGET_INFO_CUDA_DEVICE", *s, [&](std::uint64_t) {
                cudaIdOfGpu.try_emplace(s->integer(0), s->integer(1));
                pidOfGpu.try_emplace(s->integer(0), s->integer(2));
            });
        }
    }
    const auto deviceOf = [&](std::int64_t gpu) -> std::optional<DeviceIndex> {
        const auto known = deviceOfGpu.find(gpu);
        if (known != deviceOfGpu.end())
            return known->second;
        std::optional<DeviceIndex> found;
        const auto cuda = cudaIdOfGpu.find(gpu);
        const std::int64_t cudaId = cuda != cudaIdOfGpu.end() ? cuda->second : gpu;
        const auto pid = pidOfGpu.find(gpu);
        for (std::uint32_t d = 0; d < m_trace.devices().size() && !found; ++d) {
            const Device& device = m_trace.devices()[d];
            const bool samePid = pid == pidOfGpu.end() || m_trace.processes()[device.process.value].pid == pid->second;
            if (device.id == cudaId && samePid)
                found = DeviceIndex { d };
        }
        deviceOfGpu.emplace(gpu, found);
        return found;
    };
    CounterTracks& counters = m_trace.counters();
    std::map<std::pair<std::int64_t, std::int64_t>, std::size_t> trackOf; // (typeId, metricId)
    std::pair<std::int64_t, std::int64_t> lastKey { -1, -1 };
    std::size_t lastTrack = 0;
    scanRows(kTable, { { "timestamp", true }, { "typeId", true }, { "metricId", true }, { "value", true } }, {},
        [&](const SqliteRow& s, std::uint64_t) {
            const std::pair<std::int64_t, std::int64_t> key { s.integer(1), s.integer(2) };
            if (key != lastKey) {
                auto it = trackOf.find(key);
                if (it == trackOf.end()) {
                    const std::int64_t gpu = key.first & 0xff;
                    const std::optional<DeviceIndex> device = deviceOf(gpu);
                    const auto named = names.find(key);
                    std::string name = named != names.end() ? named->second : "metric " + std::to_string(key.second);
                    const std::string unit = unitOfMetric(name);
                    if (!device)
                        name += " (GPU " + std::to_string(gpu) + ")";
                    const ProcessIndex owner = device ? m_trace.devices()[device->value].process
                        : m_trace.processes().empty() ? process(0)
                                                      : ProcessIndex { 0 };
                    const std::size_t t = counters.track(name, owner, device);
                    counters.tracks()[t].unit = unit;
                    it = trackOf.emplace(key, t).first;
                }
                lastKey = key;
                lastTrack = it->second;
            }
            counters.tracks()[lastTrack].points.push_back(CounterPoint { s.integer(0), s.real(3) });
        });
}

} // namespace gapscope::nsys
