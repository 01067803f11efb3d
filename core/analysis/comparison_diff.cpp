// SPDX-License-Identifier: MIT
#include "core/analysis/comparison_diff.h"

#include "core/model/time_format.h"

namespace gapscope {

namespace {

Window firstWindow(const AnalysisResult& result, WindowKind kind)
{
    for (const Window& w : result.windows) {
        if (!w.ranges.empty())
            return w;
    }
    Window empty;
    empty.kind = kind;
    return empty;
}

} // namespace

AnalysisOptions comparisonDiffOptions(AnalysisOptions viewer)
{
    if (viewer.window.kind == WindowKind::Explicit)
        viewer.window = WindowSpec {};
    viewer.stop = {};
    return viewer;
}

ComparisonDiff computeComparisonDiff(
    const ComparedTraces& compared, const AnalysisOptions& options, std::size_t longestGaps, std::stop_token stop)
{
    ComparisonDiff out;
    out.options = options;
    AnalysisOptions stoppable = options;
    stoppable.stop = stop;
    CompareOptions compare;
    compare.longestGaps = longestGaps;
    const AnalysisResult base = analyze(*compared.base, stoppable);
    if (base.stopped) {
        out.stopped = true;
        return out;
    }
    const AnalysisResult fresh = analyze(*compared.fresh, stoppable);
    if (fresh.stopped) {
        out.stopped = true;
        return out;
    }
    const std::string baseLabel = compared.baseFiles.empty() ? std::string("BASE") : compared.baseFiles.front();
    const std::string newLabel = compared.newFiles.empty() ? std::string("NEW") : compared.newFiles.front();
    const std::vector<RunSummary> baseRuns { summarizeRun(*compared.base, base, baseLabel, compare) };
    const std::vector<RunSummary> newRuns { summarizeRun(*compared.fresh, fresh, newLabel, compare) };
    out.diff = compareRuns(baseRuns, newRuns, compare);
    out.baseWindow = firstWindow(base, options.window.kind);
    out.newWindow = firstWindow(fresh, options.window.kind);
    return out;
}

std::string comparisonWindowText(const Window& w, const AnalysisOptions& options)
{
    std::string text = std::string(windowKindName(w.kind));
    if (w.kind == WindowKind::Steps)
        text += " (warm-up " + std::to_string(options.window.warmupSteps) + " excluded)";
    if (w.ranges.empty())
        return text + ", empty";
    return text + " [" + std::to_string(w.start()) + ", " + std::to_string(w.end()) + ") ns, "
        + formatDuration(w.length());
}

std::size_t kernelOccurrences(
    const Trace& trace, std::string_view name, std::uint32_t firstProcess, std::uint32_t endProcess)
{
    const auto id = trace.strings().find(name);
    if (!id)
        return 0;
    std::size_t count = 0;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::GpuStream || lane.process.value < firstProcess || lane.process.value >= endProcess)
            continue;
        for (const Event& e : lane.events)
            count += e.kind == EventKind::Kernel && e.name == *id ? 1 : 0;
    }
    return count;
}

} // namespace gapscope
