// SPDX-License-Identifier: MIT
// The readable `gapscope diff`: the verdict line first, then each table with the window it was measured over.
#include "cli/diff_report.h"
#include "cli/text_columns.h"
#include "core/analysis/compare_text.h"
#include "core/model/time_format.h"

#include <cstdio>

namespace gapscope::cli {

namespace {

/// "+12.3 ms (+4.56 %)" for a change from `a` to `b`; "" as the percentage when a is 0.
std::string change(TimeNs a, TimeNs b)
{
    const TimeNs d = b - a;
    std::string text = signedDuration(d);
    if (a != 0)
        text += " (" + signedPercent(static_cast<double>(d) / static_cast<double>(a)) + ")";
    return text;
}

std::string countChange(std::int64_t a, std::int64_t b)
{
    std::string text = (b - a > 0 ? "+" : "") + std::to_string(b - a);
    if (a != 0)
        text += " (" + signedPercent(static_cast<double>(b - a) / static_cast<double>(a)) + ")";
    return text;
}

std::string windowText(const Window& w, const AnalysisOptions& analysis)
{
    std::string text = std::string(windowKindName(w.kind));
    if (w.kind == WindowKind::Steps)
        text += " (warm-up " + std::to_string(analysis.window.warmupSteps) + " excluded)";
    if (w.ranges.empty())
        return text + ", empty";
    text += " [" + std::to_string(w.start()) + ", " + std::to_string(w.end()) + ") ns, " + formatDuration(w.length());
    if (w.ranges.intervals().size() > 1)
        text += " in " + std::to_string(w.ranges.intervals().size()) + " ranges";
    return text;
}

std::string spreadText(const StepSide& side)
{
    if (!side.runSpread)
        return side.runs < 2 ? "unknown (one run)" : "unknown (fewer than two runs with steps)";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.2f %% over %zu runs", *side.runSpread * 100.0, side.runMediansNs.size());
    return buffer;
}

void row(
    std::ostream& out, const std::string& label, const std::string& a, const std::string& b, const std::string& delta)
{
    out << "  " << pad(label, 24) << pad(a, 14) << pad(b, 14) << delta << "\n";
}

void durationRow(std::ostream& out, const std::string& label, TimeNs a, TimeNs b)
{
    row(out, label, formatDuration(a), formatDuration(b), change(a, b));
}

void writeSides(const RunDiff& diff, const DiffSides& sides, std::ostream& out)
{
    const auto side = [&](const char* name, const std::vector<DiffRunInfo>& runs) {
        for (std::size_t r = 0; r < runs.size(); ++r) {
            out << name << (runs.size() > 1 ? " run " + std::to_string(r + 1) : std::string()) << ": " << runs[r].label;
            if (runs[r].files.size() > 1)
                out << " (" << runs[r].files.size() << " files)";
            out << "\n  window " << windowText(runs[r].window, diff.analysis) << "\n";
        }
    };
    side("BASE", sides.base);
    side("NEW ", sides.fresh);
    out << "Measured with: window " << windowKindName(diff.analysis.window.kind) << ", activity "
        << activitySetName(diff.analysis.activity) << ", launch threshold "
        << formatDuration(diff.analysis.launchThresholdNs) << "\n";
}

void writeSteps(const RunDiff& diff, std::ostream& out)
{
    const StepComparison& s = diff.steps;
    out << "\nStep time (counted steps: warm-up excluded; each step's own range)\n";
    row(out, "", "BASE", "NEW", "change");
    row(out, "steps", std::to_string(s.base.durations.size()), std::to_string(s.fresh.durations.size()),
        countChange(
            static_cast<std::int64_t>(s.base.durations.size()), static_cast<std::int64_t>(s.fresh.durations.size())));
    row(out, "warm-up excluded", std::to_string(s.base.warmup), std::to_string(s.fresh.warmup), "");
    if (!s.base.durations.empty() && !s.fresh.durations.empty()) {
        durationRow(out, "mean", s.base.meanNs, s.fresh.meanNs);
        durationRow(out, "p50", s.base.p50Ns, s.fresh.p50Ns);
        durationRow(out, "p95", s.base.p95Ns, s.fresh.p95Ns);
    }
    out << "  run-to-run spread of the run medians: BASE " << spreadText(s.base) << ", NEW " << spreadText(s.fresh)
        << "\n";
}

void writeDevices(const RunDiff& diff, std::ostream& out)
{
    const std::string window = std::string(windowKindName(diff.analysis.window.kind));
    for (const DeviceDiff& d : diff.devices) {
        out << "\nDevice " << d.deviceId;
        if (d.newDeviceId != d.deviceId)
            out << " (NEW: device " << d.newDeviceId << ")";
        if (d.rank)
            out << ", rank " << *d.rank;
        if (d.base && d.newRank && d.newRank != d.rank)
            out << " (NEW: rank " << *d.newRank << ")";
        const std::string& name = d.baseName.empty() ? d.newName : d.baseName;
        const bool renamed = !d.baseName.empty() && !d.newName.empty() && d.newName != d.baseName;
        if (!name.empty())
            out << " (" << name << (renamed ? " -> " + d.newName : "") << ")";
        out << ", window " << window << "\n";
        if (!d.base || !d.fresh) {
            out << "  only in " << (d.base ? "BASE" : "NEW") << "\n";
            continue;
        }
        const WindowFigures& a = *d.base;
        const WindowFigures& b = *d.fresh;
        row(out, "", "BASE", "NEW", "change");
        durationRow(out, "span", a.spanNs, b.spanNs);
        durationRow(out, "busy", a.busyNs, b.busyNs);
        durationRow(out, "idle", a.idleNs, b.idleNs);
        char ua[32];
        char ub[32];
        char ud[32];
        std::snprintf(ua, sizeof ua, "%.2f %%", a.utilization * 100.0);
        std::snprintf(ub, sizeof ub, "%.2f %%", b.utilization * 100.0);
        std::snprintf(ud, sizeof ud, "%+.2f points", (b.utilization - a.utilization) * 100.0);
        row(out, "utilization", ua, ub, ud);
        row(out, "gaps", std::to_string(a.gapCount), std::to_string(b.gapCount),
            countChange(static_cast<std::int64_t>(a.gapCount), static_cast<std::int64_t>(b.gapCount)));
        for (int c = 0; c < kGapCauseCount; ++c)
            durationRow(
                out, "idle " + std::string(gapCauseName(static_cast<GapCause>(c))), a.idleByCause[c], b.idleByCause[c]);
        durationRow(out, "exposed compute", a.exposed.compute, b.exposed.compute);
        durationRow(out, "exposed communication", a.exposed.communication, b.exposed.communication);
        durationRow(out, "exposed memcpy", a.exposed.memcpy, b.exposed.memcpy);
    }
}

void writeKernels(const RunDiff& diff, std::size_t top, std::ostream& out)
{
    out << "\nKernels by change in total time (kernels starting in the window "
        << windowKindName(diff.analysis.window.kind) << "; per run)\n";
    if (diff.kernels.empty()) {
        out << "  none\n";
        return;
    }
    out << "  " << pad("change", 14) << pad("total", 24) << pad("count", 14) << pad("mean", 22) << pad("p50", 22)
        << "name\n";
    const auto both = [](const std::optional<KernelSide>& a, const std::optional<KernelSide>& b, auto field) {
        return (a ? field(*a) : std::string("-")) + " -> " + (b ? field(*b) : std::string("-"));
    };
    for (std::size_t i = 0; i < std::min(top, diff.kernels.size()); ++i) {
        const KernelDiff& k = diff.kernels[i];
        std::string name = k.name;
        if (name.size() > 90)
            name = name.substr(0, 87) + "...";
        if (!k.base)
            name = "[new] " + name;
        else if (!k.fresh)
            name = "[gone] " + name;
        out << "  " << pad(signedDuration(k.deltaTotalNs()), 14)
            << pad(both(k.base, k.fresh, [](const KernelSide& s) { return formatDuration(s.totalNs); }), 24)
            << pad(both(k.base, k.fresh, [](const KernelSide& s) { return std::to_string(s.count); }), 14)
            << pad(both(k.base, k.fresh, [](const KernelSide& s) { return formatDuration(s.meanNs); }), 22)
            << pad(both(k.base, k.fresh, [](const KernelSide& s) { return formatDuration(s.p50Ns); }), 22) << name
            << "\n";
    }
    if (diff.kernels.size() > top)
        out << "  ... " << diff.kernels.size() - top << " more (--top N, or --json for all)\n";
}

void writeGaps(const char* side, const std::vector<GapSummary>& gaps, const std::vector<DiffRunInfo>& runs,
    const RunDiff& diff, std::ostream& out)
{
    out << "\nLongest device gaps of " << side << " (window " << windowKindName(diff.analysis.window.kind)
        << "; start from the window start)\n";
    if (gaps.empty()) {
        out << "  none\n";
        return;
    }
    for (const GapSummary& g : gaps) {
        out << "  " << pad(formatDuration(g.durationNs), 11) << " at +" << pad(formatDuration(g.startFromWindowNs), 11)
            << " device " << g.deviceId;
        if (g.rank)
            out << " rank " << *g.rank;
        if (runs.size() > 1)
            out << " run " << g.run + 1;
        out << "  " << pad(std::string(gapCauseName(g.cause)), 10) << " " << g.evidence << "\n";
    }
}

void writeImport(const char* side, const std::vector<ImportNote>& notes, std::ostream& out)
{
    out << "\nImport warnings of " << side << ": ";
    if (notes.empty()) {
        out << "none\n";
        return;
    }
    out << notes.size() << "\n";
    for (const ImportNote& n : notes)
        out << "  " << n.warning.toString() << "\n";
}

} // namespace

void writeTextDiff(const RunDiff& diff, const DiffSides& sides, const DiffOptions& options,
    const ExperimentReport& experiment, std::ostream& out)
{
    const std::size_t top = options.top.value_or(10);
    const StepComparison& s = diff.steps;
    if (experiment.isProfilerOverhead()) {
        out << profilerOverheadLine(experiment) << "\n";
    } else {
        out << verdictLine(s) << "\n";
        if (s.test)
            out << "  why: " << s.reason << "\n";
        if (!s.caveat.empty())
            out << "  caveat: " << s.caveat << "\n";
    }
    if (!experiment.timingSource.empty())
        out << "  timings from: " << experiment.timingSource << "\n";
    if (!options.metrics.empty() || experiment.isProfilerOverhead())
        writeTextMetrics(experiment, out);
    out << "\n";
    writeSides(diff, sides, out);
    if (!diff.warnings.empty()) {
        out << "\nWarnings: these runs may not compare\n";
        for (const std::string& w : diff.warnings)
            out << "  - " << w << "\n";
    }
    writeSteps(diff, out);
    writeDevices(diff, out);
    writeKernels(diff, top, out);
    writeGaps("BASE", diff.baseGaps, sides.base, diff, out);
    writeGaps("NEW", diff.newGaps, sides.fresh, diff, out);
    writeImport("BASE", diff.baseImport, out);
    writeImport("NEW", diff.newImport, out);
}

} // namespace gapscope::cli
