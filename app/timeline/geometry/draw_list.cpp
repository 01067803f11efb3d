// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/draw_list.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscope::timeline {

namespace {

// Float conversions that never shrink an item: a float has ~7 digits, so x1 = 400.000001 would become
// 400 and lose the column it touches.
float floatDown(double x)
{
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) > x ? std::nextafter(f, -std::numeric_limits<float>::infinity()) : f;
}
float floatUp(double x)
{
    const auto f = static_cast<float>(x);
    return static_cast<double>(f) < x ? std::nextafter(f, std::numeric_limits<float>::infinity()) : f;
}

// Folds consecutive narrow items of one row into one; keeps wide items as they are.
class RowFolder {
public:
    RowFolder(std::vector<DrawItem>& out, std::uint16_t depth, double width, double foldWidthPx)
        : m_out(out)
        , m_depth(depth)
        , m_min(-2.0)
        , m_max(width + 2.0)
        , m_foldWidth(foldWidthPx)
    { }
    ~RowFolder() { flush(); }
    RowFolder(const RowFolder&) = delete;
    RowFolder& operator=(const RowFolder&) = delete;

    void add(double x0, double x1, std::uint32_t count, std::uint32_t event, TimeNs longestDuration)
    {
        x0 = std::clamp(x0, m_min, m_max);
        x1 = std::clamp(x1, m_min, m_max);
        const bool narrow = x1 - x0 < m_foldWidth;
        // Items of one row never overlap in the model, but rounding can make them touch: a gap under
        // one pixel between two narrow items is invisible, so they become one item.
        if (m_hasPending && narrow && m_pendingFoldable && x0 - m_pending.x1 < 1.0) {
            m_pending.x1 = std::max(m_pending.x1, floatUp(x1));
            m_pending.count += count;
            if (longestDuration > m_pendingLongest) {
                m_pending.event = event;
                m_pendingLongest = longestDuration;
            }
            return;
        }
        flush();
        m_pending = DrawItem { floatDown(x0), floatUp(x1), count, event, m_depth };
        m_pendingLongest = longestDuration;
        m_pendingFoldable = narrow;
        m_hasPending = true;
    }

    void flush()
    {
        if (m_hasPending)
            m_out.push_back(m_pending);
        m_hasPending = false;
    }

private:
    std::vector<DrawItem>& m_out;
    std::uint16_t m_depth;
    double m_min;
    double m_max;
    double m_foldWidth;
    DrawItem m_pending;
    TimeNs m_pendingLongest = 0;
    bool m_pendingFoldable = false;
    bool m_hasPending = false;
};

bool overlaps(const Event& e, TimeNs t0, TimeNs t1)
{
    return e.start < t1 && (e.end > t0 || (e.start == e.end && e.start >= t0));
}

// timeToX without a division per call: the walk below does this for every event in view.
struct XMapper {
    explicit XMapper(const TimeAxis& axis)
        : start(axis.start)
        , pixelsPerNs(axis.width / static_cast<double>(axis.span()))
    { }
    double operator()(TimeNs t) const { return static_cast<double>(t - start) * pixelsPerNs; }
    TimeNs start;
    double pixelsPerNs;
};

void addEvent(RowFolder& folder, const Lane& lane, std::uint32_t i, const XMapper& toX)
{
    const Event& e = lane.events[i];
    folder.add(toX(e.start), toX(e.end), 1, i, e.duration());
}

void addSummary(
    RowFolder& folder, const Lane& lane, const SummaryLevel& level, const TimeAxis& axis, std::size_t& visited)
{
    const XMapper toX(axis);
    const auto& spans = level.spans;
    // Spans of a level are disjoint and sorted, so both their starts and their ends are sorted.
    const auto first
        = std::partition_point(spans.begin(), spans.end(), [&](const SummarySpan& s) { return s.end < axis.start; });
    for (auto it = first; it != spans.end() && it->start < axis.end; ++it) {
        ++visited;
        if (it->end == axis.start && it->start != it->end)
            continue;
        folder.add(toX(it->start), toX(it->end), it->count, it->longest, lane.events[it->longest].duration());
    }
}

} // namespace

LaneDrawList buildLaneDrawList(const Trace& trace, const TimelineIndex& index, LaneIndex laneIndex,
    const TimeAxis& axis, const DrawListOptions& options)
{
    LaneDrawList list;
    const Lane& lane = trace.lanes()[laneIndex.value];
    const TimeNs t0 = axis.start;
    const TimeNs t1 = axis.end;
    const double rawLimit = options.rawEventsPerPixel * axis.width;
    const int depths = std::min(index.depthCount(laneIndex), options.maxDepth + 1);
    const XMapper toX(axis);

    if (index.depthCount(laneIndex) == 1) {
        // Single-depth lanes (most GPU streams): the lane's own range query is exact enough.
        RowFolder folder(list.items, 0, axis.width, options.foldWidthPx);
        const auto [first, last] = lane.visibleRange(t0, t1);
        const SummaryLevel* level = index.row(laneIndex, 0).levelFor(axis.nsPerPixel());
        if (static_cast<double>(last - first) > rawLimit && level) {
            addSummary(folder, lane, *level, axis, list.visited);
        } else {
            for (std::size_t i = first; i < last; ++i) {
                ++list.visited;
                if (overlaps(lane.events[i], t0, t1))
                    addEvent(folder, lane, static_cast<std::uint32_t>(i), toX);
            }
        }
        return list;
    }

    for (int d = 0; d < depths; ++d) {
        const RowSummary& row = index.row(laneIndex, d);
        RowFolder folder(list.items, static_cast<std::uint16_t>(d), axis.width, options.foldWidthPx);
        if (!row.endsSorted) {
            // Rare (partially overlapping ranges): walk the lane's visible range and keep this depth.
            const auto [first, last] = lane.visibleRange(t0, t1);
            for (std::size_t i = first; i < last; ++i) {
                ++list.visited;
                const Event& e = lane.events[i];
                if (e.depth == d && overlaps(e, t0, t1))
                    addEvent(folder, lane, static_cast<std::uint32_t>(i), toX);
            }
            continue;
        }
        const auto& ids = row.indices;
        const auto first
            = std::partition_point(ids.begin(), ids.end(), [&](std::uint32_t i) { return lane.events[i].end < t0; });
        const auto last
            = std::partition_point(first, ids.end(), [&](std::uint32_t i) { return lane.events[i].start < t1; });
        const SummaryLevel* level = row.levelFor(axis.nsPerPixel());
        if (static_cast<double>(last - first) > rawLimit && level) {
            addSummary(folder, lane, *level, axis, list.visited);
            continue;
        }
        for (auto it = first; it != last; ++it) {
            ++list.visited;
            if (overlaps(lane.events[*it], t0, t1))
                addEvent(folder, lane, *it, toX);
        }
    }
    return list;
}

std::vector<float> buildUtilization(const BusyProfile& busy, const TimeAxis& axis, int columns)
{
    std::vector<float> fractions(static_cast<std::size_t>(std::max(0, columns)), 0.0f);
    for (int c = 0; c < columns; ++c) {
        const TimeNs c0 = axis.xToTime(c);
        const TimeNs c1 = std::max(c0 + 1, axis.xToTime(c + 1));
        fractions[static_cast<std::size_t>(c)]
            = static_cast<float>(static_cast<double>(busy.busyWithin(c0, c1)) / static_cast<double>(c1 - c0));
    }
    return fractions;
}

void DrawListCache::setAxis(const TimeAxis& axis)
{
    if (m_axis && *m_axis == axis)
        return;
    clear();
    m_axis = axis;
}

void DrawListCache::clear()
{
    m_axis.reset();
    m_lanes.clear();
    m_utilization.clear();
    m_counters.clear();
    m_samples.clear();
}

const LaneDrawList& DrawListCache::lane(
    const Trace& trace, const TimelineIndex& index, LaneIndex lane, const DrawListOptions& options)
{
    if (m_lanes.size() < trace.lanes().size())
        m_lanes.resize(trace.lanes().size());
    auto& slot = m_lanes[lane.value];
    if (!slot) {
        slot = buildLaneDrawList(trace, index, lane, *m_axis, options);
        ++m_builds;
    }
    return *slot;
}

const std::vector<float>& DrawListCache::utilization(const TimelineIndex& index, DeviceIndex device, int columns)
{
    if (m_utilization.size() <= device.value)
        m_utilization.resize(device.value + 1);
    auto& slot = m_utilization[device.value];
    if (!slot || static_cast<int>(slot->size()) != columns) {
        slot = buildUtilization(index.deviceBusy(device), *m_axis, columns);
        ++m_builds;
    }
    return *slot;
}

const CounterDrawList& DrawListCache::counter(
    const Trace& trace, const TimelineIndex& index, std::uint32_t track, int columns)
{
    if (m_counters.size() < trace.counters().tracks().size())
        m_counters.resize(trace.counters().tracks().size());
    auto& slot = m_counters[track];
    if (!slot || slot->first != columns) {
        slot.emplace(
            columns, buildCounterDrawList(trace.counters().tracks()[track], index.counter(track), *m_axis, columns));
        ++m_builds;
    }
    return slot->second;
}

const std::vector<std::uint32_t>& DrawListCache::samples(const Trace& trace, std::uint32_t thread, int columns)
{
    if (m_samples.size() < trace.samples().threads().size())
        m_samples.resize(trace.samples().threads().size());
    auto& slot = m_samples[thread];
    if (!slot || static_cast<int>(slot->size()) != columns) {
        slot = buildSampleColumns(trace.samples().threads()[thread], *m_axis, columns);
        ++m_builds;
    }
    return *slot;
}

} // namespace gapscope::timeline
