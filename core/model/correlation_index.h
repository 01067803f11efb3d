// SPDX-License-Identifier: MIT
#pragma once

// The links between GPU ops and the API calls that launched them, by correlation id within a process: what
// Trace::launchOf(), launchStartOf() and gpuOpsOf() answer from. Built when a trace is finished.

#include "core/model/event.h"
#include "core/model/trace_indices.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace gapscope {

struct Lane;

/// One side of the correlation links (API calls, or GPU ops), per process. Dense ids (the usual case: CUPTI
/// and Kineto count calls up from a small number) go to a direct table, one slot per id from the
/// process's smallest to its largest, holding the earliest-starting event with that id: a lookup is one
/// load, and the table is built in one pass without sorting. Further events with an id already taken, and
/// all events of a process whose ids are too sparse for a table, go to a list sorted by (id, start).
struct CorrelationIndex {
    struct Slot {
        std::uint32_t lane; // kEmptySlot: no event with this id
        std::uint32_t index;
    };
    struct Listed {
        std::uint32_t correlation;
        std::uint32_t lane;
        std::uint32_t index;
    };
    struct Part {
        std::uint32_t base = 0; // smallest id (dense parts)
        std::uint32_t slotCount = 0; // ids base .. base + slotCount - 1 have a slot; 0 without table
        std::size_t firstSlot = 0; // into `slotTable`
        std::size_t listedBegin = 0; // this process's run of `listed`
        std::size_t listedEnd = 0;
    };
    static constexpr std::uint32_t kEmptySlot = 0xffffffffu;
    std::vector<Part> parts; // by process
    HugePageVector<Slot> slotTable;
    std::vector<Listed> listed; // by (process, correlation, start)

    /// The earliest-starting event with this id in the process (inline: the analysis asks once per gap).
    std::optional<EventRef> first(ProcessIndex process, std::uint32_t correlation) const
    {
        if (process.value >= parts.size())
            return std::nullopt;
        const Part& part = parts[process.value];
        if (part.slotCount == 0)
            return firstListed(part, correlation);
        // Ids below the table's range wrap to a large offset and miss too.
        const std::uint32_t offset = correlation - part.base;
        if (offset >= part.slotCount || slotTable[part.firstSlot + offset].lane == kEmptySlot)
            return std::nullopt;
        const Slot& slot = slotTable[part.firstSlot + offset];
        return EventRef { LaneIndex { slot.lane }, slot.index };
    }
    std::optional<EventRef> firstListed(const Part& part, std::uint32_t correlation) const;
    /// Every event with this id in the process, earliest start first.
    void all(ProcessIndex process, std::uint32_t correlation, std::vector<EventRef>& out) const;
    /// The run of `listed` with this id.
    std::pair<std::size_t, std::size_t> listedRange(const Part& part, std::uint32_t correlation) const;
    /// Bytes held.
    std::size_t bytes() const
    {
        return parts.capacity() * sizeof(Part) + slotTable.capacity() * sizeof(Slot)
            + listed.capacity() * sizeof(Listed);
    }
};

/// The start a launch-start table holds for an id without a launch call.
inline constexpr TimeNs kNoLaunchStart = std::numeric_limits<TimeNs>::min();

/// What finishing a lane saw of its correlated events (API calls on thread lanes, any on GPU lanes).
struct LaneIds {
    std::uint32_t min = 0xffffffffu;
    std::uint32_t max = 0;
    std::size_t count = 0;
};

/// Whether the correlation index takes this event: GPU-lane events and API calls with an id.
inline bool takesCorrelation(const Event& e, bool gpuLane)
{
    return e.correlation != 0 && (gpuLane || e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi);
}

/// Builds the index of one side (`gpuSide`: GPU lanes, else thread lanes) of `lanes` (sorted) from their id
/// extents (`laneIds`, one per lane). With `starts`, also fills it beside the slot table with the start of each
/// slot's event (kNoLaunchStart for an empty slot).
void buildCorrelationIndex(CorrelationIndex& index, const std::vector<Lane>& lanes, std::size_t processCount,
    const std::vector<LaneIds>& laneIds, bool gpuSide, HugePageVector<TimeNs>* starts);

} // namespace gapscope
