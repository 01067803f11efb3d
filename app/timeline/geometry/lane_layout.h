// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/labels.h"

// The vertical arrangement of the timeline: process groups with their thread lanes, then each device
// with its utilization lane and stream lanes. Pure data, built from a trace and the collapse state.

#include "core/model/trace.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::timeline {

enum class RowKind : std::uint8_t {
    ProcessHeader, // collapsible group: one process (one rank)
    DeviceHeader, // collapsible group: one GPU of a process
    ThreadLane, // CPU thread: API calls, CPU ops, NVTX ranges, nested by depth
    UtilizationLane, // busy fraction of a device per pixel
    StreamLane, // one CUDA stream: kernels, memcpys, memsets
    CounterLane, // counter tracks as stepped lines: a device's memory (allocated and reserved), a metric, a counter
};

struct LayoutRow {
    RowKind kind = RowKind::ThreadLane;
    /// Top and height in content pixels (before vertical scrolling).
    int y = 0;
    int height = 0;
    /// Nesting of the label: 0 for processes, 1 for devices and threads, 2 for device lanes.
    int indent = 0;
    ProcessIndex process;
    std::optional<DeviceIndex> device;
    std::optional<LaneIndex> lane;
    /// Nesting rows shown in a lane (ThreadLane/StreamLane); 1 otherwise.
    int depthRows = 1;
    /// Nesting depths the lane has (TimelineIndex::depthCount); more than depthRows when it is folded.
    int depthCount = 1;
    std::string label;
    /// For headers: whether the group is folded away. For a thread lane: whether it shows only its first
    /// LayoutMetrics::foldedDepthRows nesting rows (it can be expanded to show them all).
    bool collapsed = false;
    /// A thread lane deeper than LayoutMetrics::foldedDepthRows: its label has a fold/expand triangle.
    bool foldable = false;
    /// A thread lane whose thread was sampled: its samples (an index of CpuSamples::threads()), drawn as ticks in
    /// a strip of LayoutMetrics::sampleRowHeight under its nesting rows.
    std::optional<std::uint32_t> samples;
    /// A counter lane's tracks (indices of CounterTracks::tracks()): a device's `memory allocated` then `memory
    /// reserved`, or one counter.
    std::vector<std::uint32_t> counterTracks;
};

struct LayoutMetrics {
    int headerHeight = 22;
    int depthRowHeight = 18;
    int utilizationHeight = 22;
    int laneSpacing = 3;
    int sampleRowHeight = 5;
    int counterHeight = 32;
    /// No lane shows more nesting rows than this (the exported picture chooses it to fit its height).
    int maxDepthRows = 1 << 20;
    /// A thread lane deeper than this shows its first rows until it is expanded (CollapseState::expandedLanes),
    /// so that deep Python stacks do not push the GPU lanes out of view.
    int foldedDepthRows = 4;
};

/// Which groups are folded away; keys are process and device indices. A collapsed process hides its
/// threads only: its GPUs are groups of their own.
struct CollapseState {
    std::set<std::uint32_t> processes;
    std::set<std::uint32_t> devices;
    /// Thread lanes shown at every depth (keys are lane indices).
    std::set<std::uint32_t> expandedLanes;
};

/// A run of processes [firstProcess, endProcess) shown together under a title: the BASE and NEW blocks of a
/// comparison (File › Compare With…), which lie in one trace with NEW's times shifted (docs/architecture.md).
struct ProcessBlock {
    std::string title; // "Base: run.json.gz"
    std::uint32_t firstProcess = 0;
    std::uint32_t endProcess = 0;
};

class LaneLayout {
public:
    /// `depthCounts[lane]` is the lane's number of nesting depths (TimelineIndex::depthCount). With `blocks`, the
    /// processes are laid out block by block (each in rank order) and each process header starts with its block's
    /// title; without, all processes in rank order.
    static LaneLayout build(const Trace& trace, const std::vector<int>& depthCounts, const CollapseState& collapse,
        const LayoutMetrics& metrics = {}, const std::vector<ProcessBlock>& blocks = {});

    const std::vector<LayoutRow>& rows() const { return m_rows; }
    const LayoutMetrics& metrics() const { return m_metrics; }
    int totalHeight() const { return m_totalHeight; }
    /// The row containing content y, if any.
    std::optional<std::size_t> rowAt(int y) const;
    /// Rows overlapping content [y0, y1), as an index range.
    std::pair<std::size_t, std::size_t> rowsIn(int y0, int y1) const;
    /// The nesting depth under content y within a lane row, if y is on one.
    std::optional<int> depthAt(const LayoutRow& row, int y) const;
    /// Content y of the top of nesting row `depth` of a lane, if the lane is shown.
    std::optional<int> laneDepthTop(LaneIndex lane, int depth) const;
    std::optional<std::size_t> rowOfLane(LaneIndex lane) const;
    /// Content y of the top of a thread lane row's sample strip (below its nesting rows), if it has one.
    std::optional<int> sampleStripTop(const LayoutRow& row) const;
    /// The content y range [top, bottom) that a device's gap bands cover (its utilization, counter and stream
    /// lanes), or nullopt when the device is collapsed or hidden.
    std::optional<std::pair<int, int>> deviceBand(DeviceIndex device) const;

private:
    std::vector<LayoutRow> m_rows;
    std::vector<std::optional<std::size_t>> m_rowOfLane;
    std::vector<std::optional<std::pair<int, int>>> m_deviceBands;
    LayoutMetrics m_metrics;
    int m_totalHeight = 0;
};

// The labels of processes, threads, streams and devices: core/model/labels.h, one source for every output.
using gapscope::deviceLabel;
using gapscope::processLabel;
using gapscope::streamLabel;
using gapscope::threadLabel;

} // namespace gapscope::timeline
