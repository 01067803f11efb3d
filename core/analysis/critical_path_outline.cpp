// SPDX-License-Identifier: MIT
#include "core/analysis/critical_path_outline.h"

#include "core/analysis/analysis.h"
#include "core/analysis/nearest_rank.h"

namespace gapscope {

PathOutline criticalPathOutline(const Trace& trace, const PathWindow& window, const PathOptions& options)
{
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    const PathWeights weights = measuredWeights(graph);
    PathOutline outline;
    outline.path = criticalPathOf(graph, weights, scheduleNodes(graph, weights), options);
    for (const PathSegment& s : outline.path.segments) {
        if (s.op == DependencyGraph::kNone || s.op >= graph.ops.size() || s.end <= s.start)
            continue;
        const EventRef event = graph.ops[s.op].event;
        if (!outline.segments.empty()) {
            const PathOutlineSegment& last = outline.segments.back();
            if (last.event.lane != event.lane)
                outline.handOvers.push_back({ outline.segments.size() - 1, outline.segments.size() });
        }
        outline.segments.push_back({ event, s.start, s.end, s.category });
    }
    return outline;
}

std::optional<PathWindow> gpuPathWindow(const Trace& trace)
{
    const ProcessIndex process = defaultPathProcess(trace);
    const Window gpu = computeWindow(trace, process, WindowSpec {}, ActivitySet::All, {});
    if (gpu.ranges.empty())
        return std::nullopt;
    PathWindow w = explicitPathWindow(process, gpu.start(), gpu.end());
    w.kind = WindowKind::Gpu;
    return w;
}

std::optional<PathWindow> medianStepOrGpuWindow(
    const Trace& trace, const std::string& stepPattern, std::optional<int> warmupSteps)
{
    const std::vector<PathWindow> steps = countedStepWindows(trace, stepPattern, warmupSteps).windows;
    if (steps.empty())
        return gpuPathWindow(trace);
    std::vector<TimeNs> lengths;
    lengths.reserve(steps.size());
    for (const PathWindow& w : steps)
        lengths.push_back(w.length());
    const TimeNs median = nearestRankPercentile(lengths, 0.5);
    for (const PathWindow& w : steps) {
        if (w.length() == median)
            return w;
    }
    return steps.front();
}

} // namespace gapscope
