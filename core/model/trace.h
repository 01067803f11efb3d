// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"
#include "core/model/string_table.h"

#include <cstdint>
#include <optional>
#include <string>
#include <map>
#include <vector>

namespace gapscope {

struct ProcessIndex {
    std::uint32_t value = 0;
    friend bool operator==(ProcessIndex, ProcessIndex) = default;
};
struct DeviceIndex {
    std::uint32_t value = 0;
    friend bool operator==(DeviceIndex, DeviceIndex) = default;
};
struct LaneIndex {
    std::uint32_t value = 0;
    friend bool operator==(LaneIndex, LaneIndex) = default;
};

/// A host process. For a Kineto file this is the profiled process (the one that issued the CUDA calls).
struct Process {
    std::int64_t pid = 0;
    std::string name;
    std::optional<int> rank;
    /// The file this process was loaded from (empty when built by hand).
    std::string sourceFile;
    /// Chrome `process_sort_index`, kept for the writer.
    std::optional<int> sortIndex;
    /// Raw JSON object of the top-level keys (other than `traceEvents`) of the file this process came
    /// from (`schemaVersion`, `distributedInfo`, `deviceProperties`, ...), kept for the writer; empty if none.
    std::string fileMetadataJson;
};

/// A GPU, owned by the process that drove it.
struct Device {
    ProcessIndex process;
    /// CUDA device ordinal as the trace names it.
    int id = 0;
    std::string name;
    /// Raw JSON object of the device's properties (Kineto `deviceProperties` entry), empty if unknown.
    std::string propertiesJson;
};

enum class LaneKind : std::uint8_t {
    CpuThread, // a host thread: API calls, CPU ops, NVTX ranges
    GpuStream, // one CUDA stream of one device
};

/// One lane of the timeline. Events are sorted by (start asc, end desc) after Trace::finalize(),
/// and `maxEndPrefix[i]` is the largest end among events[0..i]; together they let
/// visibleRange() find the events overlapping a time range with two binary searches.
struct Lane {
    LaneKind kind = LaneKind::CpuThread;
    ProcessIndex process;
    /// Thread id for CpuThread lanes (as the trace names it).
    std::int64_t tid = 0;
    /// Device and stream for GpuStream lanes.
    DeviceIndex device;
    std::int64_t stream = 0;
    std::string name;
    /// Chrome `thread_sort_index`, kept for the writer.
    std::optional<int> sortIndex;
    std::vector<Event> events;
    std::vector<TimeNs> maxEndPrefix;

    /// Index range [first, last) that holds every event overlapping [t0, t1): start < t1 and end > t0,
    /// or zero-length with t0 <= start < t1. Events inside the range that a longer earlier event
    /// shadows in maxEndPrefix may not overlap; callers that need exactness check each event.
    /// Precondition: the trace is finalized.
    std::pair<std::size_t, std::size_t> visibleRange(TimeNs t0, TimeNs t1) const;
};

/// Refers to one event: lane and index within the lane.
struct EventRef {
    LaneIndex lane;
    std::uint32_t index = 0;
    friend bool operator==(EventRef, EventRef) = default;
};

/// A problem found while loading; the load went on. `byteOffset` is into the (decompressed) input.
struct ImportWarning {
    std::string file;
    std::uint64_t byteOffset = 0;
    std::string message;
};

/// The whole model of one or more loaded trace files.
class Trace {
public:
    StringTable strings;
    std::vector<Process> processes;
    std::vector<Device> devices;
    std::vector<Lane> lanes;
    /// Raw JSON text of event args, indexed by ArgsId.
    std::vector<std::string> args;
    /// Warnings from import (malformed events skipped, etc.).
    std::vector<ImportWarning> warnings;
    /// Number of events skipped as malformed during import.
    std::uint64_t skippedEvents = 0;
    /// Records the collector reported as dropped (0 for imports).
    std::uint64_t droppedRecords = 0;

    ProcessIndex addProcess(Process process);
    /// Finds or creates the lane of a host thread.
    LaneIndex threadLane(ProcessIndex process, std::int64_t tid);
    /// Finds or creates a device of a process.
    DeviceIndex device(ProcessIndex process, int deviceId);
    /// Finds or creates the lane of a stream of a device.
    LaneIndex streamLane(DeviceIndex device, std::int64_t stream);
    ArgsId addArgs(std::string json);

    /// Sorts every lane, computes depth and maxEndPrefix, and builds the correlation index.
    /// Must be called after events are added and before queries.
    void finalize();

    const Event& event(EventRef ref) const { return lanes[ref.lane.value].events[ref.index]; }
    std::string_view name(const Event& e) const { return strings.view(e.name); }
    std::string_view argsJson(const Event& e) const
    {
        return e.args == kNoArgs ? std::string_view {} : std::string_view(args[e.args.value]);
    }

    /// The API call (runtime/driver) that launched a GPU op, by correlation id within the same process.
    std::optional<EventRef> launchOf(EventRef gpuOp) const;
    /// The GPU ops launched by an API call (usually one; a graph launch or a collective can make several).
    std::vector<EventRef> gpuOpsOf(EventRef apiCall) const;

    /// [first start, last end) over all events, or nullopt when the trace is empty.
    std::optional<std::pair<TimeNs, TimeNs>> timeSpan() const;
    std::size_t eventCount() const;

    /// Appends another trace's processes, devices, lanes and args (ids remapped). Call finalize() after.
    void append(Trace&& other);

private:
    /// Correlation index: sorted by (process of lane, correlation). 12 bytes per correlated event.
    struct CorrelationEntry {
        std::uint32_t correlation;
        std::uint32_t lane;
        std::uint32_t index;
    };
    std::vector<CorrelationEntry> m_launches; // API calls with a correlation id
    std::vector<CorrelationEntry> m_gpuOps; // GPU-lane events with a correlation id
    std::pair<std::size_t, std::size_t> correlationRange(const std::vector<CorrelationEntry>& entries,
                                                         ProcessIndex process, std::uint32_t correlation) const;
    std::map<std::pair<std::uint32_t, std::int64_t>, LaneIndex> m_threadLaneIndex; // (process, tid)
    std::map<std::pair<std::uint32_t, std::int64_t>, LaneIndex> m_streamLaneIndex; // (device, stream)
    std::map<std::pair<std::uint32_t, int>, DeviceIndex> m_deviceIndex; // (process, device id)
};

} // namespace gapscope
