// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/lane_layout.h"

#include "core/model/process_order.h"

#include <algorithm>
#include <numeric>

namespace gapscope::timeline {

namespace {

/// The counter tracks of a process that measure `device` (none: those of no device), by track index.
std::vector<std::uint32_t> counterTracksOf(const Trace& trace, ProcessIndex process, std::optional<DeviceIndex> device)
{
    std::vector<std::uint32_t> tracks;
    const auto& all = trace.counters().tracks();
    for (std::uint32_t t = 0; t < all.size(); ++t) {
        if (all[t].process == process && all[t].device == device && !all[t].points.empty())
            tracks.push_back(t);
    }
    return tracks;
}

LayoutRow counterRow(const Trace& trace, const LayoutMetrics& metrics, ProcessIndex process,
    std::optional<DeviceIndex> device, std::vector<std::uint32_t> tracks)
{
    LayoutRow row;
    row.kind = RowKind::CounterLane;
    row.indent = device ? 2 : 1;
    row.height = metrics.counterHeight;
    row.process = process;
    row.device = device;
    const CounterTrack& first = trace.counters().tracks()[tracks.front()];
    row.label = first.name == kMemoryAllocatedTrack
        ? std::string(tracks.size() > 1 ? "memory (allocated, reserved)" : "memory allocated")
        : first.name;
    row.counterTracks = std::move(tracks);
    return row;
}

} // namespace

LaneLayout LaneLayout::build(const Trace& trace, const std::vector<int>& depthCounts, const CollapseState& collapse,
    const LayoutMetrics& metrics, const std::vector<ProcessBlock>& blocks)
{
    LaneLayout layout;
    layout.m_metrics = metrics;
    layout.m_rowOfLane.resize(trace.lanes().size());
    layout.m_deviceBands.resize(trace.devices().size());

    int y = 0;
    const auto addRow = [&](LayoutRow row) {
        row.y = y;
        y += row.height;
        if (row.lane)
            layout.m_rowOfLane[row.lane->value] = layout.m_rows.size();
        layout.m_rows.push_back(std::move(row));
    };
    const auto laneDepths
        = [&](LaneIndex lane) { return std::max(1, lane.value < depthCounts.size() ? depthCounts[lane.value] : 1); };

    // Block by block (BASE above NEW), each in rank order; the title goes before each process's own label.
    std::vector<std::pair<ProcessIndex, const ProcessBlock*>> order;
    const std::vector<ProcessIndex> ranked = processesInRankOrder(trace);
    if (blocks.empty()) {
        for (const ProcessIndex process : ranked)
            order.emplace_back(process, nullptr);
    }
    for (const ProcessBlock& block : blocks) {
        for (const ProcessIndex process : ranked) {
            if (process.value >= block.firstProcess && process.value < block.endProcess)
                order.emplace_back(process, &block);
        }
    }
    for (const auto& [process, block] : order) {
        const std::uint32_t p = process.value;
        const bool processCollapsed = collapse.processes.count(p) > 0;
        LayoutRow header;
        header.kind = RowKind::ProcessHeader;
        header.height = metrics.headerHeight;
        header.process = ProcessIndex { p };
        header.label = (block ? block->title + " \u00b7 " : std::string()) + processLabel(trace.processes()[p]);
        header.collapsed = processCollapsed;
        addRow(std::move(header));

        // Threads in the order the trace asks for (sort index), then by tid.
        std::vector<std::uint32_t> threads;
        for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
            const Lane& lane = trace.lanes()[l];
            if (lane.kind == LaneKind::CpuThread && lane.process.value == p)
                threads.push_back(l);
        }
        std::stable_sort(threads.begin(), threads.end(), [&](std::uint32_t a, std::uint32_t b) {
            const Lane& la = trace.lanes()[a];
            const Lane& lb = trace.lanes()[b];
            if (la.sortIndex.value_or(0) != lb.sortIndex.value_or(0))
                return la.sortIndex.value_or(0) < lb.sortIndex.value_or(0);
            return la.tid < lb.tid;
        });
        for (const std::uint32_t l : threads) {
            if (processCollapsed)
                break;
            LayoutRow row;
            row.kind = RowKind::ThreadLane;
            row.indent = 1;
            row.process = ProcessIndex { p };
            row.lane = LaneIndex { l };
            row.depthCount = laneDepths(LaneIndex { l });
            row.foldable = row.depthCount > metrics.foldedDepthRows;
            row.collapsed = row.foldable && collapse.expandedLanes.count(l) == 0;
            row.depthRows = std::min(
                { row.depthCount, metrics.maxDepthRows, row.collapsed ? metrics.foldedDepthRows : row.depthCount });
            row.height = row.depthRows * metrics.depthRowHeight + metrics.laneSpacing;
            if (const ThreadSamples* sampled = trace.samples().find(ProcessIndex { p }, trace.lanes()[l].tid);
                sampled && !sampled->samples.empty()) {
                row.samples = static_cast<std::uint32_t>(sampled - trace.samples().threads().data());
                row.height += metrics.sampleRowHeight;
            }
            row.label = threadLabel(trace.lanes()[l]);
            addRow(std::move(row));
        }
        if (!processCollapsed) {
            for (const std::uint32_t t : counterTracksOf(trace, ProcessIndex { p }, std::nullopt))
                addRow(counterRow(trace, metrics, ProcessIndex { p }, std::nullopt, { t }));
        }

        std::vector<std::uint32_t> devices;
        for (std::uint32_t d = 0; d < trace.devices().size(); ++d) {
            if (trace.devices()[d].process.value == p)
                devices.push_back(d);
        }
        std::stable_sort(devices.begin(), devices.end(),
            [&](std::uint32_t a, std::uint32_t b) { return trace.devices()[a].id < trace.devices()[b].id; });
        for (const std::uint32_t d : devices) {
            const bool deviceCollapsed = collapse.devices.count(d) > 0;
            LayoutRow deviceHeader;
            deviceHeader.kind = RowKind::DeviceHeader;
            deviceHeader.indent = 1;
            deviceHeader.height = metrics.headerHeight;
            deviceHeader.process = ProcessIndex { p };
            deviceHeader.device = DeviceIndex { d };
            deviceHeader.label = deviceLabel(trace.devices()[d]);
            deviceHeader.collapsed = deviceCollapsed;
            addRow(std::move(deviceHeader));
            if (deviceCollapsed)
                continue;
            const int bandTop = y;
            LayoutRow utilization;
            utilization.kind = RowKind::UtilizationLane;
            utilization.indent = 2;
            utilization.height = metrics.utilizationHeight;
            utilization.process = ProcessIndex { p };
            utilization.device = DeviceIndex { d };
            utilization.label = "utilization";
            addRow(std::move(utilization));
            // The device's memory in one lane (allocated, and reserved where the trace has it), then a lane per
            // other counter of the device (GPU metrics).
            std::vector<std::uint32_t> memory;
            std::vector<std::uint32_t> others;
            for (const std::uint32_t t : counterTracksOf(trace, ProcessIndex { p }, DeviceIndex { d })) {
                const std::string& name = trace.counters().tracks()[t].name;
                if (name == kMemoryAllocatedTrack)
                    memory.insert(memory.begin(), t);
                else if (name == kMemoryReservedTrack)
                    memory.push_back(t);
                else
                    others.push_back(t);
            }
            if (!memory.empty())
                addRow(counterRow(trace, metrics, ProcessIndex { p }, DeviceIndex { d }, memory));
            for (const std::uint32_t t : others)
                addRow(counterRow(trace, metrics, ProcessIndex { p }, DeviceIndex { d }, { t }));

            std::vector<std::uint32_t> streams;
            for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
                const Lane& lane = trace.lanes()[l];
                if (lane.kind == LaneKind::GpuStream && lane.device.value == d)
                    streams.push_back(l);
            }
            std::stable_sort(streams.begin(), streams.end(),
                [&](std::uint32_t a, std::uint32_t b) { return trace.lanes()[a].stream < trace.lanes()[b].stream; });
            for (const std::uint32_t l : streams) {
                LayoutRow row;
                row.kind = RowKind::StreamLane;
                row.indent = 2;
                row.process = ProcessIndex { p };
                row.device = DeviceIndex { d };
                row.lane = LaneIndex { l };
                row.depthCount = laneDepths(LaneIndex { l });
                row.depthRows = std::min(row.depthCount, metrics.maxDepthRows);
                row.height = row.depthRows * metrics.depthRowHeight + metrics.laneSpacing;
                row.label = streamLabel(trace.lanes()[l]);
                addRow(std::move(row));
            }
            layout.m_deviceBands[d] = std::make_pair(bandTop, y);
        }
    }
    layout.m_totalHeight = y;
    return layout;
}

std::optional<std::size_t> LaneLayout::rowAt(int y) const
{
    const auto it = std::partition_point(
        m_rows.begin(), m_rows.end(), [y](const LayoutRow& row) { return row.y + row.height <= y; });
    if (it == m_rows.end() || y < it->y)
        return std::nullopt;
    return static_cast<std::size_t>(it - m_rows.begin());
}

std::pair<std::size_t, std::size_t> LaneLayout::rowsIn(int y0, int y1) const
{
    const auto first = std::partition_point(
        m_rows.begin(), m_rows.end(), [y0](const LayoutRow& row) { return row.y + row.height <= y0; });
    const auto last = std::partition_point(first, m_rows.end(), [y1](const LayoutRow& row) { return row.y < y1; });
    return { static_cast<std::size_t>(first - m_rows.begin()), static_cast<std::size_t>(last - m_rows.begin()) };
}

std::optional<int> LaneLayout::depthAt(const LayoutRow& row, int y) const
{
    if (!row.lane || y < row.y)
        return std::nullopt;
    const int depth = (y - row.y) / m_metrics.depthRowHeight;
    if (depth >= row.depthRows)
        return std::nullopt;
    return depth;
}

std::optional<int> LaneLayout::sampleStripTop(const LayoutRow& row) const
{
    if (!row.samples)
        return std::nullopt;
    return row.y + row.depthRows * m_metrics.depthRowHeight;
}

std::optional<int> LaneLayout::laneDepthTop(LaneIndex lane, int depth) const
{
    const auto row = rowOfLane(lane);
    if (!row || depth >= m_rows[*row].depthRows)
        return std::nullopt;
    return m_rows[*row].y + depth * m_metrics.depthRowHeight;
}

std::optional<std::size_t> LaneLayout::rowOfLane(LaneIndex lane) const
{
    return lane.value < m_rowOfLane.size() ? m_rowOfLane[lane.value] : std::nullopt;
}

std::optional<std::pair<int, int>> LaneLayout::deviceBand(DeviceIndex device) const
{
    return device.value < m_deviceBands.size() ? m_deviceBands[device.value] : std::nullopt;
}

} // namespace gapscope::timeline
