// SPDX-License-Identifier: MIT
#include "core/annotations/note_measurement.h"

#include "core/annotations/annotation_figures.h"
#include "core/model/time_format.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <set>
#include <tuple>

namespace gapscope {

namespace {

std::optional<GapCause> causeFromName(std::string_view name)
{
    for (int c = 0; c < kGapCauseCount; ++c) {
        if (gapCauseName(static_cast<GapCause>(c)) == name)
            return static_cast<GapCause>(c);
    }
    return std::nullopt;
}

std::string share(TimeNs part, TimeNs whole)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f %%", whole > 0 ? 100.0 * static_cast<double>(part) / whole : 0.0);
    return buffer;
}

std::string signedDuration(TimeNs ns)
{
    return (ns > 0 ? "+" : "") + formatDuration(ns);
}

std::string formatP(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.0001 ? "%.2g" : "%.4f", p);
    return buffer;
}

/// The figure summed over the devices in `ids` (every device when `ids` is empty), and the window lengths.
std::pair<TimeNs, TimeNs> figureOf(
    const Trace& trace, const AnalysisResult& result, const std::set<int>& ids, std::optional<GapCause> cause)
{
    TimeNs figure = 0;
    TimeNs window = 0;
    for (const DeviceFigures& d : result.devices) {
        if (!ids.empty() && !ids.contains(trace.devices()[d.device.value].id))
            continue;
        figure += cause ? d.idleByCause[static_cast<std::size_t>(*cause)] : d.idleNs;
        window += d.spanNs;
    }
    return { figure, window };
}

} // namespace

AnalysisOptions noteComparisonOptions(const Trace& before, const AnalysisOptions& base)
{
    AnalysisOptions options = base;
    const bool hasSteps = !findSteps(before, base.stepPattern, 0).empty();
    options.window.kind = hasSteps ? WindowKind::Steps : WindowKind::Gpu;
    options.window.warmupSteps = std::max(1, base.window.warmupSteps);
    return options;
}

NoteMeasurement measureNoteAgainst(
    const Trace& before, const Trace& after, const Annotation& note, const AnalysisOptions& baseOptions)
{
    AnalysisOptions options = baseOptions;
    options.streamGaps = false;
    options.kernelStatistics = false;
    const AnalysisResult a = analyze(before, options);
    const AnalysisResult b = analyze(after, options);

    NoteMeasurement m;
    m.window = options.window.kind;
    m.warmupSteps = options.window.warmupSteps;
    m.steps = compareSteps({ countedStepDurations(a) }, { countedStepDurations(b) });

    // The devices the note is about, by ordinal: the after trace's processes are other processes.
    std::set<int> ids;
    const bool everyDevice = note.lanes.empty() && !note.gap;
    if (!everyDevice) {
        for (std::uint32_t d = 0; d < before.devices().size(); ++d) {
            if (annotationConcernsDevice(before, note, DeviceIndex { d }))
                ids.insert(before.devices()[d].id);
        }
    }
    const std::optional<GapCause> cause = note.gap ? causeFromName(note.gap->cause) : std::nullopt;
    m.figure = cause ? std::string(gapCauseName(*cause)) + " idle" : "idle";
    std::tie(m.figureBeforeNs, m.windowBeforeNs) = figureOf(before, a, ids, cause);
    std::tie(m.figureAfterNs, m.windowAfterNs) = figureOf(after, b, ids, cause);

    // The figure moved the predicted way (down) when its share of the window fell.
    const double shareBefore
        = m.windowBeforeNs > 0 ? static_cast<double>(m.figureBeforeNs) / static_cast<double>(m.windowBeforeNs) : 0.0;
    const double shareAfter
        = m.windowAfterNs > 0 ? static_cast<double>(m.figureAfterNs) / static_cast<double>(m.windowAfterNs) : 0.0;
    const bool figureFell = shareAfter < shareBefore;
    switch (m.steps.verdict) {
    case Verdict::Faster:
        m.proposedStatus = figureFell ? AnnotationStatus::Supported : AnnotationStatus::Inconclusive;
        m.statusReason = figureFell
            ? "step time is faster for real and " + m.figure + " fell, as predicted"
            : "step time is faster, but " + m.figure + " did not fall: something other than the note's cause changed";
        break;
    case Verdict::Slower:
        m.proposedStatus = AnnotationStatus::Refuted;
        m.statusReason = "step time is slower for real";
        break;
    case Verdict::NoDetectableChange:
        m.proposedStatus = figureFell ? AnnotationStatus::Inconclusive : AnnotationStatus::Refuted;
        m.statusReason = figureFell ? m.figure + " fell, but the change in step time is hidden by the noise"
                                    : "neither step time nor " + m.figure + " moved the predicted way";
        break;
    case Verdict::NoVerdict:
        m.proposedStatus = AnnotationStatus::Inconclusive;
        m.statusReason = "no steps to test (" + m.figure + (figureFell ? " fell" : " did not fall") + ")";
        break;
    }

    std::string text = "Measured against the after trace over the " + std::string(windowKindName(m.window)) + " window"
        + (m.window == WindowKind::Steps ? " (warm-up " + std::to_string(m.warmupSteps) + " excluded)" : "")
        + " of each run: ";
    const StepComparison& s = m.steps;
    if (s.test && s.interval95) {
        char fraction[32];
        std::snprintf(fraction, sizeof fraction, "%+.2f %%", s.deltaP50Fraction * 100.0);
        text += "step p50 " + formatDuration(s.base.p50Ns) + " -> " + formatDuration(s.fresh.p50Ns) + " ("
            + signedDuration(s.deltaP50Ns) + ", " + fraction + "), 95 % interval of the change ["
            + signedDuration(s.interval95->low) + ", " + signedDuration(s.interval95->high) + "], p = "
            + formatP(s.test->pValue) + " (Mann-Whitney U, " + (s.test->exact ? "exact" : "normal approximation") + ", "
            + std::to_string(s.base.durations.size()) + " vs " + std::to_string(s.fresh.durations.size())
            + " steps): " + std::string(verdictName(s.verdict)) + ".";
    } else {
        text += std::string(verdictName(s.verdict)) + " (" + s.reason + ").";
    }
    std::string figureName = m.figure;
    figureName[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(figureName[0])));
    text += " " + figureName + " " + formatDuration(m.figureBeforeNs) + " (" + share(m.figureBeforeNs, m.windowBeforeNs)
        + " of the window) -> " + formatDuration(m.figureAfterNs) + " (" + share(m.figureAfterNs, m.windowAfterNs)
        + ").";
    if (!s.caveat.empty())
        text += " Caveat: " + s.caveat + ".";
    if (note.prediction) {
        m.prediction = checkPrediction(*note.prediction, s);
        text += " " + describePrediction(*note.prediction) + " " + m.prediction->text;
    }
    text += " Proposed status: " + std::string(annotationStatusName(m.proposedStatus)) + " (" + m.statusReason + ").";
    m.performanceChange = std::move(text);
    return m;
}

void applyNoteMeasurement(Annotation& note, const NoteMeasurement& measurement, const std::string& afterTrace)
{
    note.afterTrace = afterTrace;
    note.record.performanceChange = measurement.performanceChange;
}

} // namespace gapscope
