// SPDX-License-Identifier: MIT
#include "core/analysis/compared_traces.h"

#include "core/model/process_order.h"
#include "core/model/trace_builder.h"

#include <algorithm>
#include <filesystem>

namespace gapscope {

std::vector<TimeNs> countedStepStarts(const Trace& trace, const AnalysisOptions& options)
{
    const std::vector<Step> steps = findSteps(trace, options.stepPattern, options.window.warmupSteps);
    for (const ProcessIndex process : processesInRankOrder(trace)) {
        std::vector<TimeNs> starts;
        for (const Step& step : steps) {
            if (step.process == process && !step.warmup)
                starts.push_back(step.start);
        }
        if (!starts.empty()) {
            std::sort(starts.begin(), starts.end());
            return starts;
        }
    }
    return {};
}

TimeNs alignmentWindowStart(const Trace& trace, const AnalysisOptions& options)
{
    WindowSpec spec = options.window;
    if (spec.kind == WindowKind::Explicit)
        spec = WindowSpec {};
    const std::vector<Step> steps = findSteps(trace, options.stepPattern, spec.warmupSteps);
    for (const ProcessIndex process : processesInRankOrder(trace)) {
        const Window window = computeWindow(trace, process, spec, options.activity, steps);
        if (!window.ranges.empty())
            return window.start();
    }
    const auto span = trace.timeSpan();
    return span ? span->first : 0;
}

void alignComparison(ComparedTraces& compared, std::optional<std::size_t> step, const AnalysisOptions& options)
{
    const std::size_t common = std::min(compared.baseStepStarts.size(), compared.newStepStarts.size());
    if (step && common > 0) {
        const std::size_t s = std::min(*step, common - 1);
        compared.alignStep = s;
        compared.newOffset = compared.baseStepStarts[s] - compared.newStepStarts[s];
        return;
    }
    compared.alignStep.reset();
    compared.newOffset = alignmentWindowStart(*compared.base, options) - alignmentWindowStart(*compared.fresh, options);
}

Trace combineComparedTraces(const ComparedTraces& compared)
{
    TraceBuilder combined(Trace(*compared.base));
    TraceBuilder shifted(Trace(*compared.fresh));
    for (Lane& lane : shifted.lanes()) {
        for (Event& e : lane.events) {
            e.start += compared.newOffset;
            e.end += compared.newOffset;
        }
    }
    // NEW's samples and counter points move with its events, or its memory lane would sit hours away on BASE's
    // clock (runs recorded on different days) and Fit Whole Trace would span both clocks.
    for (ThreadSamples& thread : shifted.samples().threads()) {
        for (CpuSample& sample : thread.samples)
            sample.time += compared.newOffset;
    }
    for (CounterTrack& track : shifted.counters().tracks()) {
        for (CounterPoint& point : track.points)
            point.time += compared.newOffset;
    }
    combined.append(std::move(shifted));
    return std::move(combined).finish();
}

std::string comparisonTitle(const char* side, const std::vector<std::string>& files, const ComparedSideRuns& runs)
{
    std::string title = std::string(side) + (runs.runFiles.empty() ? "" : " (" + runs.shownText + ")") + ": ";
    if (files.empty())
        return title + "(no file)";
    title += std::filesystem::path(files.front()).filename().string();
    if (files.size() > 1)
        title += " and " + std::to_string(files.size() - 1) + " more";
    return title;
}

} // namespace gapscope
