// SPDX-License-Identifier: MIT
#include "core/model/correlation_index.h"

#include "core/model/huge_pages.h"
#include "core/model/trace.h"

#include <algorithm>

namespace gapscope {

void buildCorrelationIndex(CorrelationIndex& index, const std::vector<Lane>& lanes, std::size_t processCount,
    const std::vector<LaneIds>& laneIds, bool gpuSide, HugePageVector<TimeNs>* starts)
{
    const LaneKind side = gpuSide ? LaneKind::GpuStream : LaneKind::CpuThread;
    std::vector<LaneIds> perProcess(processCount);
    for (std::size_t l = 0; l < lanes.size(); ++l) {
        if (lanes[l].kind != side || laneIds[l].count == 0)
            continue;
        LaneIds& p = perProcess[lanes[l].process.value];
        p.min = std::min(p.min, laneIds[l].min);
        p.max = std::max(p.max, laneIds[l].max);
        p.count += laneIds[l].count;
    }
    // A table where it costs at most about what the sorted list would (12 bytes per event against 8 per slot),
    // so that huge or scattered ids (a merged or hand-made trace) fall back to the list instead of using memory.
    index.parts.assign(processCount, {});
    std::size_t slotCount = 0;
    for (std::size_t p = 0; p < processCount; ++p) {
        const LaneIds& ids = perProcess[p];
        if (ids.count == 0)
            continue;
        const std::uint64_t span = std::uint64_t(ids.max) - ids.min + 1;
        if (span > ids.count + ids.count / 2 + 4096)
            continue;
        CorrelationIndex::Part& part = index.parts[p];
        part.base = ids.min;
        part.slotCount = static_cast<std::uint32_t>(span);
        part.firstSlot = slotCount;
        slotCount += span;
    }
    // Fresh buffers of the exact size (huge pages from 2 MiB up: HugePageVector), not grown ones.
    if (index.slotTable.capacity() != slotCount)
        HugePageVector<CorrelationIndex::Slot>().swap(index.slotTable);
    index.slotTable.assign(slotCount, { CorrelationIndex::kEmptySlot, 0 });
    if (starts) {
        if (starts->capacity() != slotCount)
            HugePageVector<TimeNs>().swap(*starts);
        starts->assign(slotCount, kNoLaunchStart);
    }

    // Events whose id already has a slot (or whose process has no table), sorted into the list afterwards.
    struct Keyed {
        std::uint64_t key; // process << 32 | correlation
        TimeNs start;
        std::uint32_t lane;
        std::uint32_t index;
        bool operator<(const Keyed& o) const
        {
            return key != o.key    ? key < o.key
                : start != o.start ? start < o.start
                : lane != o.lane   ? lane < o.lane
                                   : index < o.index;
        }
    };
    std::vector<Keyed> rest;
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const Lane& lane = lanes[l];
        if (lane.kind != side || laneIds[l].count == 0)
            continue;
        const CorrelationIndex::Part& part = index.parts[lane.process.value];
        const std::uint64_t process = std::uint64_t(lane.process.value) << 32;
        CorrelationIndex::Slot* const table = index.slotTable.data() + part.firstSlot;
        TimeNs* const startTable = starts ? starts->data() + part.firstSlot : nullptr;
        const Event* const events = lane.events.data();
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = events[i];
            if (!takesCorrelation(e, gpuSide))
                continue;
            if (part.slotCount == 0) {
                rest.push_back({ process | e.correlation, e.start, l, i });
                continue;
            }
            const std::uint32_t offset = e.correlation - part.base;
            CorrelationIndex::Slot& slot = table[offset];
            if (slot.lane == CorrelationIndex::kEmptySlot) [[likely]] {
                slot = { l, i };
                if (startTable)
                    startTable[offset] = e.start;
                continue;
            }
            // A second event with this id (a graph launch or collective with several ops, a duplicated call):
            // the slot keeps the earliest start, ties to the first seen, as the list orders them.
            const Event& held = lanes[slot.lane].events[slot.index];
            if (e.start < held.start) {
                rest.push_back({ process | e.correlation, held.start, slot.lane, slot.index });
                slot = { l, i };
                if (startTable)
                    startTable[offset] = e.start;
            } else {
                rest.push_back({ process | e.correlation, e.start, l, i });
            }
        }
    }
    std::sort(rest.begin(), rest.end());
    index.listed.clear();
    index.listed.reserve(rest.size());
    for (std::size_t k = 0; k < rest.size(); ++k) {
        const auto process = static_cast<std::uint32_t>(rest[k].key >> 32);
        CorrelationIndex::Part& part = index.parts[process];
        if (k == 0 || static_cast<std::uint32_t>(rest[k - 1].key >> 32) != process)
            part.listedBegin = k;
        part.listedEnd = k + 1;
        index.listed.push_back({ static_cast<std::uint32_t>(rest[k].key), rest[k].lane, rest[k].index });
    }
}

std::pair<std::size_t, std::size_t> CorrelationIndex::listedRange(const Part& part, std::uint32_t correlation) const
{
    const auto begin = listed.begin() + static_cast<std::ptrdiff_t>(part.listedBegin);
    const auto end = listed.begin() + static_cast<std::ptrdiff_t>(part.listedEnd);
    const auto lo
        = std::partition_point(begin, end, [correlation](const Listed& e) { return e.correlation < correlation; });
    const auto hi
        = std::partition_point(lo, end, [correlation](const Listed& e) { return e.correlation == correlation; });
    return { static_cast<std::size_t>(lo - listed.begin()), static_cast<std::size_t>(hi - listed.begin()) };
}

std::optional<EventRef> CorrelationIndex::firstListed(const Part& part, std::uint32_t correlation) const
{
    const auto [lo, hi] = listedRange(part, correlation);
    if (lo == hi)
        return std::nullopt;
    return EventRef { LaneIndex { listed[lo].lane }, listed[lo].index };
}

void CorrelationIndex::all(ProcessIndex process, std::uint32_t correlation, std::vector<EventRef>& out) const
{
    if (process.value >= parts.size())
        return;
    const Part& part = parts[process.value];
    if (part.slotCount > 0) {
        // The slot holds the earliest; the list only what came after it.
        const auto held = first(process, correlation);
        if (!held)
            return;
        out.push_back(*held);
    }
    const auto [lo, hi] = listedRange(part, correlation);
    for (std::size_t i = lo; i < hi; ++i)
        out.push_back({ LaneIndex { listed[i].lane }, listed[i].index });
}

} // namespace gapscope
