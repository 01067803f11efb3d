// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/trace.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <utility>

namespace gapscope {

/// A trace being built: what every reader fills (processes, lanes, events, args, warnings), appended from
/// several files, then finished once into an immutable Trace. Its events may be in any order until finish().
class TraceBuilder {
public:
    TraceBuilder() = default;
    /// Reopens a finished trace to derive another from it (times shifted, more traces appended); its lanes
    /// stay sorted, so the next finish() only checks them.
    explicit TraceBuilder(Trace&& finished);

    StringTable& strings() { return m_content.strings; }
    std::vector<Process>& processes() { return m_content.processes; }
    std::vector<Device>& devices() { return m_content.devices; }
    std::vector<Lane>& lanes() { return m_content.lanes; }
    ArgsTable& args() { return m_content.args; }
    std::vector<ImportWarning>& warnings() { return m_content.warnings; }
    std::uint64_t& skippedEvents() { return m_content.skippedEvents; }
    std::uint64_t& droppedRecords() { return m_content.droppedRecords; }
    CpuSamples& samples() { return m_content.samples; }
    const CpuSamples& samples() const { return m_content.samples; }
    CounterTracks& counters() { return m_content.counters; }
    const CounterTracks& counters() const { return m_content.counters; }
    const StringTable& strings() const { return m_content.strings; }
    const std::vector<Process>& processes() const { return m_content.processes; }
    const std::vector<Device>& devices() const { return m_content.devices; }
    const std::vector<Lane>& lanes() const { return m_content.lanes; }
    const ArgsTable& args() const { return m_content.args; }
    const std::vector<ImportWarning>& warnings() const { return m_content.warnings; }
    std::uint64_t skippedEvents() const { return m_content.skippedEvents; }
    std::uint64_t droppedRecords() const { return m_content.droppedRecords; }

    ProcessIndex addProcess(Process process);
    /// Finds or creates the lane of a host thread.
    LaneIndex threadLane(ProcessIndex process, std::int64_t tid);
    /// Finds or creates a device of a process.
    DeviceIndex device(ProcessIndex process, int deviceId);
    /// Finds or creates the lane of a stream of a device.
    LaneIndex streamLane(DeviceIndex device, std::int64_t stream);
    ArgsId addArgs(std::string_view json);

    /// Appends another builder's processes, devices, lanes and args (ids remapped, names re-interned).
    void append(TraceBuilder&& other);

    /// Sorts every lane (a pass that only checks where it already is), computes depth, maxEndPrefix and blockMaxEnd,
    /// builds the correlation index and classifies the names: the one way to a Trace. The builder is empty afterwards.
    Trace finish() &&;

private:
    TraceContent m_content;
    std::map<std::pair<std::uint32_t, std::int64_t>, LaneIndex> m_threadLaneIndex; // (process, tid)
    std::map<std::pair<std::uint32_t, std::int64_t>, LaneIndex> m_streamLaneIndex; // (device, stream)
    std::map<std::pair<std::uint32_t, int>, DeviceIndex> m_deviceIndex; // (process, device id)
};

} // namespace gapscope
