// SPDX-License-Identifier: MIT
// The counters of an nsys export: CUDA_GPU_MEMORY_USAGE_EVENTS (`--cuda-memory-usage=true`: each allocation and
// free of device memory) and GPU_METRICS (`--gpu-metrics-devices`: SM active, DRAM bandwidth, ... sampled per GPU,
// named in TARGET_INFO_GPU_METRICS), as counter tracks of the trace.
#include "core/io/nsys/nsys_import.h"

#include <algorithm>
#include <array>
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

void NsysImport::readGpuMemoryUsageRows()
{
    constexpr std::string_view kTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";
    if (!has(kTable))
        return;
    auto& byDevice = m_evidence.memory; // (globalPid, deviceId): each row's + or - bytes, then their running sum
    scanRows(kTable,
        { { "start", true }, { "globalPid", true }, { "deviceId", true }, { "bytes", true },
            { "memoryOperationType", true } },
        {}, [&](const SqliteRow& s, std::uint64_t) {
            const std::int64_t operation = s.integer(4);
            if (operation != kMemoryAllocation && operation != kMemoryDeallocation) {
                ++m_evidence.memoryRowsOfOtherOperations;
                return;
            }
            const std::int64_t bytes = std::max<std::int64_t>(s.integer(3), 0);
            byDevice[{ globalPidOf(s.integer(1)), s.integer(2) }].push_back(
                CounterPoint { s.integer(0), static_cast<double>(operation == kMemoryAllocation ? bytes : -bytes) });
        });
    for (auto& [key, points] : byDevice) {
        std::stable_sort(
            points.begin(), points.end(), [](const CounterPoint& a, const CounterPoint& b) { return a.time < b.time; });
        double sum = 0;
        for (CounterPoint& p : points) {
            sum += p.value;
            p.value = sum;
        }
    }
}

void NsysImport::applyGpuMemoryUsageRows()
{
    CounterTracks& counters = m_trace.counters();
    for (auto& [key, points] : m_evidence.memory) {
        const auto [globalPid, deviceId] = key;
        const std::optional<DeviceIndex> device = existingDevice(globalPid, deviceId);
        const std::string name
            = std::string(kMemoryAllocatedTrack) + (device ? std::string() : " (GPU " + std::to_string(deviceId) + ")");
        CounterTrack& track = counters.tracks()[counters.track(name, process(globalPid), device)];
        track.unit = "bytes";
        track.note = "the running sum of CUDA_GPU_MEMORY_USAGE_EVENTS (+ an allocation, - a free) from 0 at the "
                     "first: memory allocated before the capture began is not in it";
        track.points.insert(track.points.end(), points.begin(), points.end());
    }
    m_evidence.memory.clear();
    if (m_evidence.memoryRowsOfOtherOperations > 0) {
        warn(std::to_string(m_evidence.memoryRowsOfOtherOperations)
                + " rows are neither an allocation nor a free (memoryOperationType not 0 or 1): "
                  "not counted",
            "table CUDA_GPU_MEMORY_USAGE_EVENTS");
    }
}

void NsysImport::readGpuMetricRows()
{
    constexpr std::string_view kTable = "GPU_METRICS";
    if (!has(kTable) || !has("TARGET_INFO_GPU_METRICS"))
        return;
    NsysEvidenceRows& rows = m_evidence;
    if (auto s
        = select("TARGET_INFO_GPU_METRICS", { { "typeId", true }, { "metricId", true }, { "metricName", true } })) {
        forEachRow("TARGET_INFO_GPU_METRICS", *s, [&](std::uint64_t) {
            rows.metricNames[{ s->integer(0), s->integer(1) }] = std::string(s->text(2));
        });
    }
    if (has("TARGET_INFO_CUDA_DEVICE")) {
        if (auto s = select("TARGET_INFO_CUDA_DEVICE", { { "gpuId", true }, { "cudaId", true }, { "pid", true } })) {
            forEachRow("TARGET_INFO_CUDA_DEVICE", *s, [&](std::uint64_t) {
                rows.cudaIdOfGpu.try_emplace(s->integer(0), s->integer(1));
                rows.pidOfGpu.try_emplace(s->integer(0), s->integer(2));
            });
        }
    }
    // nsys writes a sample of every metric of a GPU together: the same few keys in turn, looked up by a compare.
    constexpr std::size_t kRecent = 16;
    std::array<std::pair<std::int64_t, std::int64_t>, kRecent> recentKeys;
    std::array<std::vector<CounterPoint>*, kRecent> recentPoints {};
    std::size_t next = 0;
    scanRows(kTable, { { "timestamp", true }, { "typeId", true }, { "metricId", true }, { "value", true } }, {},
        [&](const SqliteRow& s, std::uint64_t) {
            const std::pair<std::int64_t, std::int64_t> key { s.integer(1), s.integer(2) };
            std::vector<CounterPoint>* points = nullptr;
            for (std::size_t i = 0; i < std::min(next, kRecent) && !points; ++i) {
                if (recentKeys[i] == key)
                    points = recentPoints[i];
            }
            if (!points) {
                const auto [it, made] = rows.metrics.try_emplace(key);
                if (made)
                    rows.metricOrder.push_back(key);
                points = &it->second; // std::map: the vector stays where it is as others are added
                recentKeys[next % kRecent] = key;
                recentPoints[next % kRecent] = points;
                ++next;
            }
            points->push_back(CounterPoint { s.integer(0), s.real(3) });
        });
}

void NsysImport::applyGpuMetricRows()
{
    NsysEvidenceRows& rows = m_evidence;
    // The GPU of a metric type: the low byte of its typeId, the id of TARGET_INFO_GPU, as nsys's own gpu-metrics
    // reports read it. A process's device of that GPU, through TARGET_INFO_CUDA_DEVICE (else the CUDA device of
    // that number), gets the tracks; a GPU no process used has tracks of no device, named for it.
    const auto deviceOf = [&](std::int64_t gpu) -> std::optional<DeviceIndex> {
        const auto cuda = rows.cudaIdOfGpu.find(gpu);
        const std::int64_t cudaId = cuda != rows.cudaIdOfGpu.end() ? cuda->second : gpu;
        const auto pid = rows.pidOfGpu.find(gpu);
        for (std::uint32_t d = 0; d < m_trace.devices().size(); ++d) {
            const Device& device = m_trace.devices()[d];
            const bool samePid
                = pid == rows.pidOfGpu.end() || m_trace.processes()[device.process.value].pid == pid->second;
            if (device.id == cudaId && samePid)
                return DeviceIndex { d };
        }
        return std::nullopt;
    };
    CounterTracks& counters = m_trace.counters();
    for (const auto& key : rows.metricOrder) {
        std::vector<CounterPoint>& points = rows.metrics[key];
        const std::int64_t gpu = key.first & 0xff;
        const std::optional<DeviceIndex> device = deviceOf(gpu);
        const auto named = rows.metricNames.find(key);
        std::string name = named != rows.metricNames.end() ? named->second : "metric " + std::to_string(key.second);
        const std::string unit = unitOfMetric(name);
        if (!device)
            name += " (GPU " + std::to_string(gpu) + ")";
        const ProcessIndex owner = device ? m_trace.devices()[device->value].process
            : m_trace.processes().empty() ? process(0)
                                          : ProcessIndex { 0 };
        CounterTrack& track = counters.tracks()[counters.track(name, owner, device)];
        track.unit = unit;
        if (track.points.empty())
            track.points = std::move(points);
        else
            track.points.insert(track.points.end(), points.begin(), points.end());
    }
    rows.metrics.clear();
    rows.metricOrder.clear();
}

} // namespace gapscope::nsys
