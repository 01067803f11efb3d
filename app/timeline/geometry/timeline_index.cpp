// SPDX-License-Identifier: MIT
#include "app/timeline/geometry/timeline_index.h"

#include <algorithm>
#include <array>

namespace gapscope::timeline {

namespace {

// The first candidate merge gap; each next candidate is 4x longer.
constexpr TimeNs kFirstMergeGap = 64;
// Summaries are not worth keeping for rows this small: drawing the events is as cheap.
constexpr std::size_t kMinEventsForSummary = 256;

// Candidate merge gaps are kFirstMergeGap * 4^k.
constexpr int kMaxCandidates = 28;

int candidateOf(TimeNs gap)
{
    // The largest k with kFirstMergeGap * 4^k <= gap, or -1 below the first candidate.
    int k = -1;
    for (TimeNs r = kFirstMergeGap; r <= gap && k + 1 < kMaxCandidates; r *= 4)
        ++k;
    return k;
}

// Walks a row's events (given as lane indices, or all of a single-depth lane) in start order.
template <typename Visit> void forEachEvent(const Lane& lane, const std::vector<std::uint32_t>* ids, Visit&& visit)
{
    if (ids) {
        for (const std::uint32_t i : *ids)
            visit(i, lane.events[i]);
    } else {
        for (std::uint32_t i = 0; i < lane.events.size(); ++i)
            visit(i, lane.events[i]);
    }
}

// Merges a sorted sequence of spans, filling gaps shorter than mergeGap.
void appendMerged(std::vector<SummarySpan>& out, const SummarySpan& span, TimeNs mergeGap, const Lane& lane)
{
    if (!out.empty() && span.start - out.back().end < mergeGap) {
        SummarySpan& last = out.back();
        last.end = std::max(last.end, span.end);
        last.count += span.count;
        if (lane.events[span.longest].duration() > lane.events[last.longest].duration())
            last.longest = span.longest;
    } else {
        out.push_back(span);
    }
}

void buildLevels(RowSummary& row, const Lane& lane, const std::vector<std::uint32_t>* ids)
{
    if (row.eventCount < kMinEventsForSummary)
        return;
    // Merging with gap r splits the row exactly at its gaps of length >= r, so a level's size is
    // 1 + (number of such gaps): one pass counting gaps by candidate tells which levels are worth
    // keeping (each at most half the size of the last kept, the first at most a quarter of the events)
    // before any is built.
    std::array<std::size_t, kMaxCandidates> gapsAtLeast {};
    TimeNs first = 0;
    TimeNs maxEnd = 0;
    bool started = false;
    forEachEvent(lane, ids, [&](std::uint32_t, const Event& e) {
        if (!started) {
            first = e.start;
            started = true;
        } else if (e.start > maxEnd) {
            const int k = candidateOf(e.start - maxEnd);
            if (k >= 0)
                ++gapsAtLeast[static_cast<std::size_t>(k)];
        }
        maxEnd = std::max(maxEnd, e.end);
    });
    for (int k = kMaxCandidates - 2; k >= 0; --k)
        gapsAtLeast[static_cast<std::size_t>(k)] += gapsAtLeast[static_cast<std::size_t>(k + 1)];
    const TimeNs rowSpan = maxEnd - first;
    std::size_t kept = row.eventCount / 4;
    std::vector<TimeNs> chosen;
    TimeNs gap = kFirstMergeGap;
    for (int k = 0; k < kMaxCandidates && gap / 4 <= rowSpan; ++k, gap *= 4) {
        const std::size_t size = 1 + gapsAtLeast[static_cast<std::size_t>(k)];
        if (size <= kept) {
            chosen.push_back(gap);
            kept = size / 2;
        }
        if (size == 1)
            break;
    }
    // The first kept level from the events, each next one from the previous (smaller) level.
    for (const TimeNs mergeGap : chosen) {
        SummaryLevel level;
        level.mergeGap = mergeGap;
        if (row.levels.empty()) {
            forEachEvent(lane, ids, [&](std::uint32_t i, const Event& e) {
                appendMerged(level.spans, SummarySpan { e.start, e.end, 1, i }, mergeGap, lane);
            });
        } else {
            for (const SummarySpan& span : row.levels.back().spans)
                appendMerged(level.spans, span, mergeGap, lane);
        }
        level.spans.shrink_to_fit();
        row.levels.push_back(std::move(level));
    }
}

} // namespace

const SummaryLevel* RowSummary::levelFor(double nsPerPixel) const
{
    const SummaryLevel* best = nullptr;
    for (const SummaryLevel& level : levels) {
        if (static_cast<double>(level.mergeGap) <= nsPerPixel)
            best = &level;
    }
    return best;
}

BusyProfile BusyProfile::fromIntervals(std::vector<std::pair<TimeNs, TimeNs>> intervals)
{
    std::sort(intervals.begin(), intervals.end());
    BusyProfile profile;
    for (const auto& [start, end] : intervals) {
        if (end <= start)
            continue;
        if (!profile.m_ends.empty() && start <= profile.m_ends.back()) {
            profile.m_ends.back() = std::max(profile.m_ends.back(), end);
        } else {
            profile.m_starts.push_back(start);
            profile.m_ends.push_back(end);
        }
    }
    profile.m_prefix.resize(profile.m_starts.size() + 1, 0);
    for (std::size_t i = 0; i < profile.m_starts.size(); ++i)
        profile.m_prefix[i + 1] = profile.m_prefix[i] + (profile.m_ends[i] - profile.m_starts[i]);
    return profile;
}

TimeNs BusyProfile::busyWithin(TimeNs t0, TimeNs t1) const
{
    if (t1 <= t0 || m_starts.empty())
        return 0;
    // Intervals [first, last) overlap [t0, t1): the first ending after t0 up to the last starting before t1.
    const auto first = static_cast<std::size_t>(std::upper_bound(m_ends.begin(), m_ends.end(), t0) - m_ends.begin());
    const auto last
        = static_cast<std::size_t>(std::lower_bound(m_starts.begin(), m_starts.end(), t1) - m_starts.begin());
    if (first >= last)
        return 0;
    TimeNs busy = m_prefix[last] - m_prefix[first];
    busy -= std::max<TimeNs>(0, t0 - m_starts[first]);
    busy -= std::max<TimeNs>(0, m_ends[last - 1] - t1);
    return busy;
}

TimelineIndex TimelineIndex::build(const Trace& trace)
{
    TimelineIndex index;
    index.m_rows.resize(trace.lanes().size());
    std::vector<std::vector<std::pair<TimeNs, TimeNs>>> busy(trace.devices().size());
    for (std::size_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        int depths = 1;
        for (const Event& e : lane.events)
            depths = std::max(depths, e.depth + 1);
        auto& rows = index.m_rows[l];
        rows.resize(static_cast<std::size_t>(depths));
        if (depths == 1) {
            // Single-depth lanes (most GPU streams) need no index list: the row is the lane.
            RowSummary& row = rows[0];
            row.eventCount = static_cast<std::uint32_t>(lane.events.size());
            for (std::size_t k = 1; k < lane.events.size() && row.endsSorted; ++k)
                row.endsSorted = lane.events[k - 1].end <= lane.events[k].end;
            buildLevels(row, lane, nullptr);
        } else {
            std::vector<std::size_t> counts(static_cast<std::size_t>(depths), 0);
            for (const Event& e : lane.events)
                ++counts[e.depth];
            for (int d = 0; d < depths; ++d)
                rows[static_cast<std::size_t>(d)].indices.reserve(counts[static_cast<std::size_t>(d)]);
            for (std::uint32_t i = 0; i < lane.events.size(); ++i)
                rows[lane.events[i].depth].indices.push_back(i);
            for (RowSummary& row : rows) {
                const auto& ids = row.indices;
                row.eventCount = static_cast<std::uint32_t>(ids.size());
                for (std::size_t k = 1; k < ids.size() && row.endsSorted; ++k)
                    row.endsSorted = lane.events[ids[k - 1]].end <= lane.events[ids[k]].end;
                buildLevels(row, lane, &ids);
            }
        }
        if (lane.kind == LaneKind::GpuStream && lane.device.value < busy.size()) {
            for (const Event& e : lane.events) {
                if (isGpuActivity(e.kind))
                    busy[lane.device.value].emplace_back(e.start, e.end);
            }
        }
    }
    index.m_deviceBusy.reserve(busy.size());
    for (auto& intervals : busy)
        index.m_deviceBusy.push_back(BusyProfile::fromIntervals(std::move(intervals)));
    index.m_counters.reserve(trace.counters().tracks().size());
    for (const CounterTrack& track : trace.counters().tracks())
        index.m_counters.push_back(CounterSummary::build(track));
    return index;
}

std::size_t TimelineIndex::memoryBytes() const
{
    std::size_t bytes = 0;
    for (const auto& rows : m_rows) {
        for (const RowSummary& row : rows) {
            bytes += row.indices.capacity() * sizeof(std::uint32_t);
            for (const SummaryLevel& level : row.levels)
                bytes += level.spans.capacity() * sizeof(SummarySpan);
        }
    }
    for (const BusyProfile& profile : m_deviceBusy)
        bytes += profile.size() * 3 * sizeof(TimeNs);
    for (const CounterSummary& summary : m_counters)
        bytes += summary.blocks.capacity() * sizeof(summary.blocks.front());
    return bytes;
}

} // namespace gapscope::timeline
