// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/nearest_rank.h"
#include "core/model/huge_pages.h"

#include <algorithm>
#include <limits>
#include <span>

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

/// Fills in the p50 and p95 of each name's kernels (`slotOfName`: a name's slot in `stats`; `offsets[s]`: where
/// slot s's durations begin in one buffer of them all, offsets.back() their number), the durations held as
/// `Duration`, which holds every one of them.
template <typename Duration>
void fillPercentiles(const std::vector<KernelStretch>& stretches, const std::vector<std::uint32_t>& slotOfName,
    const std::vector<std::size_t>& offsets, std::vector<KernelStats>& stats)
{
    std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
    HugePageVector<Duration> durations(offsets.back());
    for (const KernelStretch& s : stretches) {
        for (const Event* e = s.first; e != s.last; ++e) {
            if (e->kind == EventKind::Kernel)
                durations[next[slotOfName[e->name.value]]++] = static_cast<Duration>(e->duration());
        }
    }
    for (std::size_t s = 0; s < stats.size(); ++s) {
        const std::span<Duration> values(durations.data() + offsets[s], offsets[s + 1] - offsets[s]);
        stats[s].p50Ns = static_cast<TimeNs>(nearestRankPercentile(values, 0.50));
        stats[s].p95Ns = static_cast<TimeNs>(nearestRankPercentile(values, 0.95));
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
    // Counted before anything is stored: the durations then go to one buffer of the exact size, each name's in a
    // stretch of its own, as 32-bit numbers when every kernel is shorter than 4.29 s. (A vector per name, grown
    // by doubling, touched twice the memory and copied it as it grew: on 10 M kernels that cost more than the
    // statistics themselves, fresh pages being what this analysis waits for most.)
    constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slotOfName(trace.strings().size(), kNoSlot);
    std::vector<StringId> names;
    std::vector<KernelStats> stats;
    bool fitIn32Bits = true;
    for (const KernelStretch& s : stretches) {
        for (const Event* e = s.first; e != s.last; ++e) {
            if (e->kind != EventKind::Kernel)
                continue;
            std::uint32_t& slot = slotOfName[e->name.value];
            if (slot == kNoSlot) {
                slot = static_cast<std::uint32_t>(names.size());
                names.push_back(e->name);
                stats.emplace_back();
            }
            KernelStats& k = stats[slot];
            const TimeNs duration = e->duration();
            ++k.count;
            k.totalNs += duration;
            k.maxNs = std::max(k.maxNs, duration);
            fitIn32Bits = fitIn32Bits && duration >= 0 && duration <= std::numeric_limits<std::uint32_t>::max();
        }
    }
    std::vector<std::size_t> offsets(stats.size() + 1, 0);
    for (std::size_t s = 0; s < stats.size(); ++s) {
        KernelStats& k = stats[s];
        k.name = std::string(trace.strings().view(names[s]));
        k.meanNs = k.totalNs / static_cast<TimeNs>(k.count);
        offsets[s + 1] = offsets[s] + k.count;
    }
    if (fitIn32Bits)
        fillPercentiles<std::uint32_t>(stretches, slotOfName, offsets, stats);
    else
        fillPercentiles<TimeNs>(stretches, slotOfName, offsets, stats);
    std::sort(stats.begin(), stats.end(), [](const KernelStats& a, const KernelStats& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return stats;
}

} // namespace gapscope
