// SPDX-License-Identifier: MIT
#include "core/analysis/comparison_diff.h"

#include "core/annotations/note_measurement.h"
#include "core/io/trace_file.h"

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

/// The summaries a side's verdict rests on: its shown run's, and for a side of repeated runs every other run's,
/// read and analysed here one at a time (as `gapscope diff DIR_A DIR_B` pools them). A run that cannot be read is
/// named in `warnings` and left out. Empty when stopped.
std::vector<RunSummary> sideSummaries(const Trace& shown, const AnalysisResult& shownResult, std::string label,
    const ComparedSideRuns& runs, const AnalysisOptions& options, const CompareOptions& compare,
    std::vector<std::string>& warnings)
{
    if (runs.runFiles.size() <= 1)
        return { summarizeRun(shown, shownResult, std::move(label), compare) };
    std::vector<RunSummary> summaries;
    for (std::size_t r = 0; r < runs.runFiles.size(); ++r) {
        const std::string& file = runs.runFiles[r];
        if (r == runs.shown) {
            summaries.push_back(summarizeRun(shown, shownResult, file, compare));
            continue;
        }
        auto trace = loadTraceFile(file, options.stop);
        if (options.stop.stop_requested())
            return {};
        if (!trace) {
            warnings.push_back(trace.error().toString() + ": this run is left out of the verdict");
            continue;
        }
        const AnalysisResult result = analyze(trace.value(), options);
        if (result.stopped)
            return {};
        summaries.push_back(summarizeRun(trace.value(), result, file, compare));
    }
    return summaries;
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
    std::vector<std::string> runWarnings;
    const std::vector<RunSummary> baseRuns
        = sideSummaries(*compared.base, base, baseLabel, compared.baseRuns, stoppable, compare, runWarnings);
    const std::vector<RunSummary> newRuns = baseRuns.empty()
        ? std::vector<RunSummary> {}
        : sideSummaries(*compared.fresh, fresh, newLabel, compared.newRuns, stoppable, compare, runWarnings);
    if (baseRuns.empty() || newRuns.empty()) {
        out.stopped = true;
        return out;
    }
    out.diff = compareRuns(baseRuns, newRuns, compare);
    out.diff.warnings.insert(out.diff.warnings.end(), runWarnings.begin(), runWarnings.end());
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
