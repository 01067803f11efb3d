// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/args_table.h"
#include "core/model/correlation_index.h"
#include "core/model/counter_tracks.h"
#include "core/model/cpu_samples.h"
#include "core/model/event.h"
#include "core/model/string_table.h"
#include "core/model/trace_indices.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace gapscope {

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

/// One lane of the timeline. In a finished Trace, events are sorted by (start asc, end desc),
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
    EventVector events;
    HugePageVector<TimeNs> maxEndPrefix;
    /// CPU lanes: the largest end in each block of kEndBlockEvents events (block b: events [32 b, 32 b + 32)),
    /// which a gap's evidence searches for the host ranges open at a time; empty on GPU lanes.
    std::vector<TimeNs> blockMaxEnd;
    static constexpr std::size_t kEndBlockEvents = 32;

    /// Index range [first, last) that holds every event overlapping [t0, t1): start < t1 and end > t0,
    /// or zero-length with t0 <= start < t1. Events inside the range that a longer earlier event
    /// shadows in maxEndPrefix may not overlap; callers that need exactness check each event.
    /// Precondition: the lane belongs to a finished Trace.
    std::pair<std::size_t, std::size_t> visibleRange(TimeNs t0, TimeNs t1) const;
};

/// A problem found while loading; the load went on. `byteOffset` is into the (decompressed) input; a format
/// whose places are not bytes (an SQLite database) names the place in `place` instead.
struct ImportWarning {
    std::string file;
    std::uint64_t byteOffset = 0;
    std::string message;
    std::string place;
    /// "FILE: at byte N: MESSAGE", or "FILE: PLACE: MESSAGE": the one way every output writes a warning.
    std::string toString() const;
};

/// What a trace holds, the same for a trace being built and a finished one (TraceBuilder, Trace).
struct TraceContent {
    StringTable strings;
    std::vector<Process> processes;
    std::vector<Device> devices;
    std::vector<Lane> lanes;
    /// Raw JSON text of event args, indexed by ArgsId.
    ArgsTable args;
    /// Warnings from import (malformed events skipped, etc.).
    std::vector<ImportWarning> warnings;
    /// Number of events skipped as malformed during import.
    std::uint64_t skippedEvents = 0;
    /// Records the collector reported as dropped (0 for imports).
    std::uint64_t droppedRecords = 0;
    /// CPU samples per thread, beside the events (nsys `--sample`); empty when the trace has none.
    CpuSamples samples;
    /// Counters over time (memory in use per device, GPU metrics, Chrome `C` counters); empty when none.
    CounterTracks counters;
};

/// The whole model of one or more loaded trace files, finished: every lane sorted by laneOrder with depth and
/// maxEndPrefix, the correlation index built. Only a TraceBuilder makes one (TraceBuilder::finish()), so every
/// query may rely on that; nothing of its events changes afterwards. A default-constructed Trace is empty.
class Trace {
public:
    const StringTable& strings() const { return m_content.strings; }
    const std::vector<Process>& processes() const { return m_content.processes; }
    const std::vector<Device>& devices() const { return m_content.devices; }
    const std::vector<Lane>& lanes() const { return m_content.lanes; }
    const ArgsTable& args() const { return m_content.args; }
    const std::vector<ImportWarning>& warnings() const { return m_content.warnings; }
    std::uint64_t skippedEvents() const { return m_content.skippedEvents; }
    std::uint64_t droppedRecords() const { return m_content.droppedRecords; }
    /// Each thread's samples sorted by time.
    const CpuSamples& samples() const { return m_content.samples; }
    /// Each track's points sorted by time.
    const CounterTracks& counters() const { return m_content.counters; }

    /// The NameClass bits (core/model/call_names.h) of every string, by string id: sync call, profiler step,
    /// communication kernel, classified once when the trace was finished; what hot loops read instead of names.
    const std::vector<std::uint8_t>& nameClasses() const { return m_nameClasses; }

    const Event& event(EventRef ref) const { return m_content.lanes[ref.lane.value].events[ref.index]; }
    std::string_view name(const Event& e) const { return m_content.strings.view(e.name); }
    std::string_view argsJson(const Event& e) const
    {
        return e.args == kNoArgs ? std::string_view {} : m_content.args[e.args.value];
    }

    /// The API call (runtime/driver) that launched a GPU op, by correlation id within the same process.
    std::optional<EventRef> launchOf(EventRef gpuOp) const
    {
        const Event& e = event(gpuOp);
        if (e.correlation == 0)
            return std::nullopt;
        return m_launches.first(m_content.lanes[gpuOp.lane.value].process, e.correlation);
    }
    /// The start of the API call that launched a GPU op (launchOf's), nullopt without one: what the gap
    /// analysis asks of every gap, one load from a table by correlation id where ids are dense.
    std::optional<TimeNs> launchStartOf(EventRef gpuOp) const
    {
        return launchStartOf(m_content.lanes[gpuOp.lane.value].process, event(gpuOp).correlation);
    }
    /// The same, from the GPU op's process and correlation id (0: none).
    std::optional<TimeNs> launchStartOf(ProcessIndex process, std::uint32_t correlation) const
    {
        if (correlation == 0)
            return std::nullopt;
        if (process.value < m_launches.parts.size() && m_launches.parts[process.value].slotCount > 0) {
            const TimeNs* start = launchStartEntry(process, correlation);
            return start && *start != kNoLaunchStart ? std::optional<TimeNs>(*start) : std::nullopt;
        }
        const auto launch = m_launches.first(process, correlation);
        return launch ? std::optional<TimeNs>(event(*launch).start) : std::nullopt;
    }
    /// A process's launch starts by correlation id, for reading many without launchStartOf()'s checks.
    struct LaunchStartTable {
        static constexpr TimeNs kNone = kNoLaunchStart; // an id without a launch call
        /// starts[id - base] for ids in [base, base + size); an id outside has no launch call.
        const TimeNs* starts = nullptr;
        std::uint32_t base = 0;
        std::uint32_t size = 0;
        /// false: the process's ids are too sparse for a table; ask launchStartOf().
        bool present = false;
    };
    LaunchStartTable launchStartTable(ProcessIndex process) const
    {
        if (process.value >= m_launches.parts.size() || m_launches.parts[process.value].slotCount == 0)
            return {};
        const CorrelationIndex::Part& part = m_launches.parts[process.value];
        return { m_launchStarts.data() + part.firstSlot, part.base, part.slotCount, true };
    }
    /// The GPU ops launched by an API call (usually one; a graph launch or a collective can make several).
    std::vector<EventRef> gpuOpsOf(EventRef apiCall) const;

    /// Bytes the correlation index holds: (launch calls' side, GPU ops' side).
    std::pair<std::size_t, std::size_t> correlationIndexBytes() const
    {
        return { m_launches.bytes() + m_launchStarts.capacity() * sizeof(TimeNs), m_gpuOps.bytes() };
    }

    /// [first start, last end) over all events, or nullopt when the trace is empty.
    std::optional<std::pair<TimeNs, TimeNs>> timeSpan() const;
    std::size_t eventCount() const;

private:
    friend class TraceBuilder;
    TraceContent m_content;
    std::vector<std::uint8_t> m_nameClasses;
    CorrelationIndex m_launches; // API calls (runtime/driver) with a correlation id
    /// Beside m_launches.slotTable, the start of the call in each slot (kNoLaunchStart for an empty one): the
    /// gap analysis reads these 8 bytes per gap instead of the launch call itself.
    HugePageVector<TimeNs> m_launchStarts;
    /// The m_launchStarts entry of a correlation id of a process with a table, nullptr outside the table.
    const TimeNs* launchStartEntry(ProcessIndex process, std::uint32_t correlation) const
    {
        if (process.value >= m_launches.parts.size())
            return nullptr;
        const CorrelationIndex::Part& part = m_launches.parts[process.value];
        const std::uint32_t offset = correlation - part.base; // ids below the table wrap to a large offset
        return offset < part.slotCount ? m_launchStarts.data() + part.firstSlot + offset : nullptr;
    }
    CorrelationIndex m_gpuOps; // GPU-lane events with a correlation id
};

} // namespace gapscope
