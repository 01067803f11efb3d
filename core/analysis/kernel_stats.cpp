// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/nearest_rank.h"
#include "core/model/huge_pages.h"

#include <algorithm>
#include <limits>

namespace gapscope {

std::optional<TimeNs> launchDelay(const Trace& trace, EventRef gpuOp)
{
    const auto launch = trace.launchOf(gpuOp);
    if (!launch)
        return std::nullopt;
    return trace.event(gpuOp).start - trace.event(*launch).start;
}

namespace {

/// The kernels of one lane whose start lies in one range of the window.
struct KernelStretch {
    const Event* first;
    const Event* last;
};

/// Where one name's durations go for its percentiles: counts of each duration from `shortest` on, when there are
/// no more of those than kernels (durations of one kernel cluster: then no duration is stored, nor selected), or
/// the durations themselves; `at`: its first place in the one buffer of counts or of durations.
struct DurationPlace {
    TimeNs shortest = 0;
    bool counted = false;
    std::size_t at = 0;
};

/// Fills in the p50 and p95 of each name's kernels (`slotOfName`: a name's slot in `stats` and `places`), the
/// stored durations held as `Duration`, which holds every one of them.
template <typename Duration>
void fillPercentiles(const std::vector<KernelStretch>& stretches, const std::vector<std::uint32_t>& slotOfName,
    const std::vector<DurationPlace>& places, std::size_t countSlots, std::size_t storedDurations,
    std::vector<KernelStats>& stats)
{
    HugePageVector<std::uint32_t> counts(countSlots);
    HugePageVector<Duration> durations(storedDurations);
    std::vector<std::size_t> next(places.size());
    for (std::size_t s = 0; s < places.size(); ++s)
        next[s] = places[s].at;
    for (const KernelStretch& stretch : stretches) {
        for (const Event* e = stretch.first; e != stretch.last; ++e) {
            if (e->kind != EventKind::Kernel)
                continue;
            const std::uint32_t slot = slotOfName[e->name.value];
            const DurationPlace& place = places[slot];
            if (place.counted)
                ++counts[place.at + static_cast<std::size_t>(e->duration() - place.shortest)];
            else
                durations[next[slot]++] = static_cast<Duration>(e->duration());
        }
    }
    for (std::size_t s = 0; s < stats.size(); ++s) {
        KernelStats& k = stats[s];
        const std::size_t p50 = nearestRank(k.count, 0.50);
        const std::size_t p95 = nearestRank(k.count, 0.95);
        const DurationPlace& place = places[s];
        if (place.counted) {
            // The smallest durations with at least p50 and p95 kernels at or below them.
            std::size_t below = 0;
            bool p50Found = false;
            for (std::size_t d = place.at;; ++d) {
                below += counts[d];
                const TimeNs duration = place.shortest + static_cast<TimeNs>(d - place.at);
                if (!p50Found && below >= p50) {
                    k.p50Ns = duration;
                    p50Found = true;
                }
                if (below >= p95) {
                    k.p95Ns = duration;
                    break;
                }
            }
            continue;
        }
        Duration* const values = durations.data() + place.at;
        std::nth_element(values, values + (p50 - 1), values + k.count);
        k.p50Ns = static_cast<TimeNs>(values[p50 - 1]);
        // p95 comes at or after p50: its selection needs only what the first left after p50.
        if (p95 > p50)
            std::nth_element(values + p50, values + (p95 - 1), values + k.count);
        k.p95Ns = static_cast<TimeNs>(values[p95 - 1]);
    }
}

} // namespace

std::vector<KernelStats> kernelStatistics(
    const Trace& trace, const std::vector<Window>& windows, std::optional<ProcessIndex> only)
{
    // A kernel counts, whole, when its start lies in its process's window: a kernel is one unit of work,
    // so clipping it would make a count and a mean that describe no real kernel.
    std::vector<KernelStretch> stretches;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::GpuStream || (only && lane.process != *only) || lane.process.value >= windows.size())
            continue;
        const Event* const begin = lane.events.data();
        const Event* const end = begin + lane.events.size();
        for (const Interval& range : windows[lane.process.value].ranges.intervals()) {
            const Event* first
                = std::partition_point(begin, end, [&](const Event& e) { return e.start < range.start; });
            const Event* last = std::partition_point(first, end, [&](const Event& e) { return e.start < range.end; });
            if (first != last)
                stretches.push_back({ first, last });
        }
    }
    // Counted before anything is stored: the percentiles then need one buffer of the exact size, each name's part
    // of it a count per duration or its durations (32-bit when every kernel is shorter than 4.29 s). A vector of
    // durations per name, grown by doubling, touched twice the memory and copied it as it grew: on 10 M kernels
    // that cost more than the statistics themselves, fresh pages being what this analysis waits for most.
    constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slotOfName(trace.strings().size(), kNoSlot);
    std::vector<StringId> names;
    std::vector<KernelStats> stats;
    std::vector<TimeNs> shortest;
    std::vector<TimeNs> longest;
    bool fitIn32Bits = true;
    for (const KernelStretch& stretch : stretches) {
        for (const Event* e = stretch.first; e != stretch.last; ++e) {
            if (e->kind != EventKind::Kernel)
                continue;
            std::uint32_t& slot = slotOfName[e->name.value];
            const TimeNs duration = e->duration();
            if (slot == kNoSlot) {
                slot = static_cast<std::uint32_t>(names.size());
                names.push_back(e->name);
                stats.emplace_back();
                shortest.push_back(duration);
                longest.push_back(duration);
            }
            KernelStats& k = stats[slot];
            ++k.count;
            k.totalNs += duration;
            k.maxNs = std::max(k.maxNs, duration);
            shortest[slot] = std::min(shortest[slot], duration);
            longest[slot] = std::max(longest[slot], duration);
            fitIn32Bits = fitIn32Bits && duration >= 0 && duration <= std::numeric_limits<std::uint32_t>::max();
        }
    }
    std::vector<DurationPlace> places(stats.size());
    std::size_t countSlots = 0;
    std::size_t storedDurations = 0;
    for (std::size_t s = 0; s < stats.size(); ++s) {
        KernelStats& k = stats[s];
        k.name = std::string(trace.strings().view(names[s]));
        k.meanNs = k.totalNs / static_cast<TimeNs>(k.count);
        // Unsigned: a file can hold durations far enough apart to overflow a difference of int64.
        const std::uint64_t spread = static_cast<std::uint64_t>(longest[s]) - static_cast<std::uint64_t>(shortest[s]);
        DurationPlace& place = places[s];
        place.shortest = shortest[s];
        place.counted = spread < k.count && k.count <= std::numeric_limits<std::uint32_t>::max();
        place.at = place.counted ? countSlots : storedDurations;
        (place.counted ? countSlots : storedDurations) += place.counted ? spread + 1 : k.count;
    }
    if (fitIn32Bits)
        fillPercentiles<std::uint32_t>(stretches, slotOfName, places, countSlots, storedDurations, stats);
    else
        fillPercentiles<TimeNs>(stretches, slotOfName, places, countSlots, storedDurations, stats);
    std::sort(stats.begin(), stats.end(), [](const KernelStats& a, const KernelStats& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return stats;
}

} // namespace gapscope
