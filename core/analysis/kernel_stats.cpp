// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"
#include "core/analysis/nearest_rank.h"

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

std::vector<KernelStats> kernelStatistics(
    const Trace& trace, const std::vector<Window>& windows, std::optional<ProcessIndex> only)
{
    // A kernel counts, whole, when its start lies in its process's window: a kernel is one unit of work,
    // so clipping it would make a count and a mean that describe no real kernel.
    constexpr std::uint32_t kNoSlot = std::numeric_limits<std::uint32_t>::max();
    std::vector<std::uint32_t> slotOfName(trace.strings().size(), kNoSlot);
    std::vector<StringId> names;
    std::vector<std::vector<TimeNs>> durations;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::GpuStream || (only && lane.process != *only) || lane.process.value >= windows.size())
            continue;
        for (const Interval& range : windows[lane.process.value].ranges.intervals()) {
            auto it = std::partition_point(
                lane.events.begin(), lane.events.end(), [&](const Event& e) { return e.start < range.start; });
            for (; it != lane.events.end() && it->start < range.end; ++it) {
                if (it->kind != EventKind::Kernel)
                    continue;
                std::uint32_t& slot = slotOfName[it->name.value];
                if (slot == kNoSlot) {
                    slot = static_cast<std::uint32_t>(names.size());
                    names.push_back(it->name);
                    durations.emplace_back();
                }
                durations[slot].push_back(it->duration());
            }
        }
    }
    std::vector<KernelStats> stats;
    stats.reserve(names.size());
    for (std::size_t s = 0; s < names.size(); ++s) {
        std::vector<TimeNs>& values = durations[s];
        KernelStats k;
        k.name = std::string(trace.strings().view(names[s]));
        k.count = values.size();
        for (TimeNs v : values) {
            k.totalNs += v;
            k.maxNs = std::max(k.maxNs, v);
        }
        k.meanNs = k.totalNs / static_cast<TimeNs>(k.count);
        k.p50Ns = nearestRankPercentile(values, 0.50);
        k.p95Ns = nearestRankPercentile(values, 0.95);
        stats.push_back(std::move(k));
    }
    std::sort(stats.begin(), stats.end(), [](const KernelStats& a, const KernelStats& b) {
        return a.totalNs != b.totalNs ? a.totalNs > b.totalNs : a.name < b.name;
    });
    return stats;
}

} // namespace gapscope
