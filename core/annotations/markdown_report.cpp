// SPDX-License-Identifier: MIT
#include "core/annotations/markdown_report.h"

#include "core/analysis/compare_text.h"
#include "core/annotations/annotation_figures.h"
#include "core/model/labels.h"
#include "core/model/time_format.h"

#include <cstdio>
#include <filesystem>
#include <sstream>

namespace gapscope {

namespace {

/// A heading or a table cell holds one line, and a `|` would end a cell.
std::string oneLine(std::string_view text)
{
    std::string line;
    for (char c : text) {
        if (c == '\n' || c == '\r')
            line += ' ';
        else if (c == '|')
            line += "\\|";
        else
            line += c;
    }
    return line;
}

std::string fromTraceStart(TimeNs t, TimeNs origin)
{
    const TimeNs offset = t - origin;
    return (offset < 0 ? "" : "+") + formatDuration(offset);
}

std::string deviceLabel(const Trace& trace, DeviceIndex index)
{
    return oneLine(rankedDeviceLabel(trace, index));
}

void writeField(std::ostream& out, const char* label, const std::string& text)
{
    out << "**" << label << ".** ";
    if (text.empty())
        out << "_(not filled in)_";
    else
        out << text;
    out << "\n\n";
}

void writeFigures(std::ostream& out, const Trace& trace, const AnnotationFigures& figures)
{
    out << "### Measured over this range\n\n";
    if (figures.end <= figures.start) {
        out << "A zero-length range: nothing to measure.\n\n";
        return;
    }
    if (figures.devices.empty()) {
        out << "No GPU that this note concerns is in the trace.\n\n";
        return;
    }
    out << "| Device | Window | Busy | Idle | Utilization | Gaps |\n"
           "|---|---:|---:|---:|---:|---:|\n";
    for (const DeviceFigures& d : figures.devices) {
        out << "| " << deviceLabel(trace, d.device) << " | " << formatDuration(d.spanNs) << " | "
            << formatDuration(d.busyNs) << " | " << formatDuration(d.idleNs) << " | " << percentText(d.utilization)
            << " | " << d.gapCount << " |\n";
    }
    out << "\nIdle by cause (each a hypothesis with evidence, not a verdict):\n\n| Device |";
    for (int cause = 0; cause < kGapCauseCount; ++cause)
        out << ' ' << gapCauseName(static_cast<GapCause>(cause)) << " |";
    out << "\n|---|";
    for (int cause = 0; cause < kGapCauseCount; ++cause)
        out << "---:|";
    out << '\n';
    for (const DeviceFigures& d : figures.devices) {
        out << "| " << deviceLabel(trace, d.device) << " |";
        for (int cause = 0; cause < kGapCauseCount; ++cause)
            out << ' ' << formatDuration(d.idleByCause[static_cast<std::size_t>(cause)]) << " |";
        out << '\n';
    }
    out << "\nExposed time (each instant counted once: compute, then communication, then memcpy):\n\n"
           "| Device | compute | communication | memcpy | idle |\n"
           "|---|---:|---:|---:|---:|\n";
    for (const DeviceFigures& d : figures.devices) {
        out << "| " << deviceLabel(trace, d.device) << " | " << formatDuration(d.exposed.compute) << " | "
            << formatDuration(d.exposed.communication) << " | " << formatDuration(d.exposed.memcpy) << " | "
            << formatDuration(d.exposed.idle) << " |\n";
    }
    out << '\n';
}

std::string changeText(TimeNs before, TimeNs after)
{
    std::string text = signedDuration(after - before);
    if (before != 0)
        text += " (" + (after >= before ? std::string("+") : std::string())
            + percentText(static_cast<double>(after - before) / static_cast<double>(before)) + ")";
    return text;
}

void writeMeasurement(std::ostream& out, const Annotation& a, const MarkdownReportOptions& options)
{
    if (a.afterTrace.empty())
        return;
    out << "### Measured against the after trace\n\n";
    if (const auto error = options.measurementErrors.find(a.id); error != options.measurementErrors.end()) {
        out << "Not measured: " << oneLine(error->second) << "\n\n";
        return;
    }
    const auto found = options.measurements.find(a.id);
    if (found == options.measurements.end()) {
        out << "Not measured in this report.\n\n";
        return;
    }
    const NoteMeasurement& m = found->second;
    const StepComparison& s = m.steps;
    out << "Window `" << windowKindName(m.window) << "`"
        << (m.window == WindowKind::Steps ? " (warm-up " + std::to_string(m.warmupSteps) + " excluded)" : std::string())
        << " of each run.\n\n| Figure | Before | After | Change |\n|---|---:|---:|---:|\n";
    out << "| counted steps | " << s.base.durations.size() << " | " << s.fresh.durations.size() << " | |\n";
    if (s.test) {
        out << "| step p50 | " << formatDuration(s.base.p50Ns) << " | " << formatDuration(s.fresh.p50Ns) << " | "
            << changeText(s.base.p50Ns, s.fresh.p50Ns) << " |\n";
        out << "| step mean | " << formatDuration(s.base.meanNs) << " | " << formatDuration(s.fresh.meanNs) << " | "
            << changeText(s.base.meanNs, s.fresh.meanNs) << " |\n";
    }
    const auto share = [](TimeNs part, TimeNs whole) {
        return whole > 0 ? percentText(static_cast<double>(part) / static_cast<double>(whole)) : std::string("-");
    };
    out << "| " << m.figure << " | " << formatDuration(m.figureBeforeNs) << " ("
        << share(m.figureBeforeNs, m.windowBeforeNs) << ") | " << formatDuration(m.figureAfterNs) << " ("
        << share(m.figureAfterNs, m.windowAfterNs) << ") | " << changeText(m.figureBeforeNs, m.figureAfterNs)
        << " |\n\n";
    if (m.prediction && a.prediction) {
        const PredictionCheck& c = *m.prediction;
        out << "| | Predicted | Measured | Error |\n|---|---:|---:|---:|\n";
        out << "| step p50 change | " << signedDuration(c.predictedChangeNs) << " ("
            << signedPercent(c.predictedFraction) << ") | " << signedDuration(c.measuredChangeNs) << " ("
            << signedPercent(c.measuredFraction) << ") | " << signedDuration(c.errorNs) << " |\n\n";
        out << "**Prediction:** "
            << (!c.insideInterval          ? "not checked"
                       : *c.insideInterval ? "held"
                                           : "the model of the step was wrong")
            << ". " << oneLine(describePrediction(*a.prediction)) << " " << oneLine(c.text) << "\n\n";
    }
    out << "**Verdict:** " << verdictName(s.verdict);
    if (s.test && s.interval95) {
        char p[32];
        std::snprintf(p, sizeof p, s.test->pValue < 0.0001 ? "%.2g" : "%.4f", s.test->pValue);
        out << " (95 % interval of the change in step p50 [" << signedDuration(s.interval95->low) << ", "
            << signedDuration(s.interval95->high) << "], p = " << p << ", Mann-Whitney U "
            << (s.test->exact ? "exact" : "normal approximation") << ")";
    } else {
        out << " (" << oneLine(s.reason) << ")";
    }
    out << ".";
    if (!s.caveat.empty())
        out << " Caveat: " << oneLine(s.caveat) << ".";
    out << "\n\n**Proposed status:** " << annotationStatusName(m.proposedStatus) << " (" << oneLine(m.statusReason)
        << "); the note's status is " << annotationStatusName(a.status) << ".\n\n";
}

void writeAnnotation(std::ostream& out, const Trace& trace, const Annotation& a, std::size_t number, TimeNs origin,
    const MarkdownReportOptions& options)
{
    const AnalysisOptions& analysis = options.analysis;
    out << "## " << number << ". " << (a.title.empty() ? std::string("(untitled)") : oneLine(a.title)) << "\n\n";
    out << "- **Status:** " << annotationStatusName(a.status) << "\n";
    out << "- **Range:** " << fromTraceStart(a.start, origin) << " to " << fromTraceStart(a.end, origin) << " ("
        << formatDuration(a.duration()) << "), [" << a.start << ", " << a.end << ") ns on the trace clock\n";
    if (!a.lanes.empty()) {
        out << "- **Lanes:** ";
        for (std::size_t i = 0; i < a.lanes.size(); ++i)
            out << (i ? "; " : "") << describeLane(a.lanes[i]);
        out << "\n";
    }
    if (!a.afterTrace.empty())
        out << "- **After trace:** `" << oneLine(a.afterTrace) << "`\n";
    if (a.gap) {
        out << "- **From gap:** " << (a.gap->cause.empty() ? std::string("gap") : "`" + a.gap->cause + "` gap")
            << " of " << formatDuration(a.gap->end - a.gap->start) << " on pid " << a.gap->pid << " GPU "
            << a.gap->deviceId;
        if (a.gap->stream)
            out << " stream " << *a.gap->stream;
        out << ", " << fromTraceStart(a.gap->start, origin) << " to " << fromTraceStart(a.gap->end, origin) << "\n";
    }
    if (!a.created.empty() || !a.modified.empty())
        out << "- **Created:** " << (a.created.empty() ? "?" : a.created) << "; **modified:** "
            << (a.modified.empty() ? "?" : a.modified) << "\n";
    out << "- **Id:** `" << a.id << "`\n\n";

    out << "### Optimization record\n\n";
    writeField(out, "Problem", a.record.problem);
    writeField(out, "Baseline", a.record.baseline);
    writeField(out, "Hypothesis", a.record.hypothesis);
    writeField(out, "Change", a.record.change);
    writeField(out, "Correctness check", a.record.correctnessCheck);
    writeField(out, "Performance change", a.record.performanceChange);
    writeField(out, "Side effects", a.record.sideEffects);

    if (a.prediction)
        out << "### Predicted change\n\n"
            << oneLine(describePrediction(*a.prediction)) << " Made "
            << (a.prediction->made.empty() ? std::string("?") : a.prediction->made) << ".\n\n";
    writeFigures(out, trace, measureAnnotation(trace, a, analysis));
    writeMeasurement(out, a, options);
}

} // namespace

std::string writeMarkdownReport(
    const Trace& trace, const std::vector<Annotation>& annotations, const MarkdownReportOptions& options)
{
    std::ostringstream out;
    const auto span = trace.timeSpan();
    const TimeNs origin = span ? span->first : 0;
    out << "# GapScope hypotheses" << (options.traceName.empty() ? std::string() : ": " + oneLine(options.traceName))
        << "\n\n";
    out << annotations.size() << (annotations.size() == 1 ? " note" : " notes");
    if (!options.notesSource.empty())
        out << " from `" << options.notesSource << "`";
    out << ". Figures are measured by GapScope " GAPSCOPE_VERSION " over each note's own range (activity set `"
        << activitySetName(options.analysis.activity) << "`, launch threshold "
        << formatDuration(options.analysis.launchThresholdNs) << "); times are given from the start of the trace ("
        << origin << " ns on the trace clock).\n\n";
    if (annotations.empty())
        out << "No annotations yet: create one in the viewer from a range selection or with \"Explain this gap…\".\n";
    for (std::size_t i = 0; i < annotations.size(); ++i)
        writeAnnotation(out, trace, annotations[i], i + 1, origin, options);
    return out.str();
}

std::string defaultHypothesesReportPath(const std::string& tracePath)
{
    const std::filesystem::path path(tracePath);
    std::string name = path.filename().string();
    // The suffixes of the formats GapScope reads, outermost first: ".json.gz", ".pt.trace.json", ".gapscope"...
    for (bool trimmed = true; trimmed;) {
        trimmed = false;
        for (const std::string_view suffix : { ".gz", ".json", ".pt.trace", ".gapscope", ".sqlite", ".nsys-rep" }) {
            if (name.size() > suffix.size() && name.ends_with(suffix)) {
                name.resize(name.size() - suffix.size());
                trimmed = true;
            }
        }
    }
    return (path.parent_path() / (name + "-hypotheses.md")).string();
}

} // namespace gapscope
