// SPDX-License-Identifier: MIT
#include "core/analysis/comparison_diff.h"

#include "core/annotations/note_measurement.h"

#include <algorithm>

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

AnalysisOptions comparisonDiffOptions(AnalysisOptions viewer, const Trace& base)
{
    if (viewer.window.kind == WindowKind::Explicit)
        viewer.window = WindowSpec {};
    viewer.stop = {};
    return noteComparisonOptions(base, viewer);
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
    // The combined trace holds BASE as read and NEW shifted by newOffset: its first event is the ruler's zero.
    const auto baseSpan = compared.base->timeSpan();
    const auto newSpan = compared.fresh->timeSpan();
    TimeNs origin = baseSpan ? baseSpan->first : 0;
    if (newSpan)
        origin = baseSpan ? std::min(origin, newSpan->first + compared.newOffset) : newSpan->first + compared.newOffset;
    out.baseRulerOrigin = origin;
    out.newRulerOrigin = origin - compared.newOffset;
    return out;
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
