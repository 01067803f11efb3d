// SPDX-License-Identifier: MIT
#include "cli/report_text.h"

#include "cli/report_json.h"
#include "cli/text_columns.h"
#include "core/analysis/nearest_rank.h"
#include "core/experiment/metric_samples.h"
#include "core/model/labels.h"
#include "core/model/process_order.h"
#include "core/model/time_format.h"

#include <algorithm>
#include <cstdio>
#include <iomanip>

namespace gapscope::cli {

namespace {

std::string percent(TimeNs part, TimeNs whole)
{
    return percentText(part, whole, 2);
}

std::string processTitle(const Trace& trace, ProcessIndex index)
{
    return processLabel(trace.processes()[index.value]);
}

void writeDevice(const Trace& trace, const DeviceFigures& d, std::ostream& out)
{
    const Device& device = trace.devices()[d.device.value];
    out << deviceLabel(device) << ", " << processTitle(trace, d.process) << "\n";
    out << "  window       " << windowKindName(d.window.kind) << " [" << d.window.start() << ", " << d.window.end()
        << ") ns";
    if (d.window.ranges.intervals().size() > 1)
        out << " in " << d.window.ranges.intervals().size() << " ranges";
    out << "\n";
    writeDeviceFigureLines(d, out);
}

void writeGaps(const Trace& trace, const AnalysisResult& result, std::size_t top, std::ostream& out)
{
    const std::vector<std::size_t> longest = longestDeviceGaps(result, top);
    // Gap starts are counted from the trace start, as the viewer's ruler, Gaps dock and details count them.
    const auto span = trace.timeSpan();
    const TimeNs origin = span ? span->first : 0;
    out << "\nLongest device gaps\n";
    if (longest.empty()) {
        out << "  none\n";
        return;
    }
    for (const std::size_t index : longest) {
        const Gap gap = result.gaps[index];
        const Device& device = trace.devices()[gap.device.value];
        out << "  " << pad(formatDuration(gap.duration()), 11) << " at "
            << pad(formatRelativeTime(gap.start, origin) + " from trace start", 28) << " device " << device.id;
        const auto& rank = trace.processes()[gap.process.value].rank;
        if (rank)
            out << " rank " << *rank;
        out << "  " << pad(std::string(gapCauseName(gap.cause)), 10) << " "
            << describeGap(trace, gap, result.options.launchThresholdNs) << "\n";
    }
}

void writeSteps(const Trace& trace, const AnalysisResult& result, std::ostream& out)
{
    for (const ProcessIndex process : processesInRankOrder(trace)) {
        const std::uint32_t p = process.value;
        const StepStats* stats = stepStatsFor(result, ProcessIndex { p });
        if (!stats)
            continue;
        const StepStats& summary = *stats;
        out << "\nSteps of " << processTitle(trace, ProcessIndex { p }) << ": " << summary.count << " measured, "
            << summary.warmup << " warm-up excluded; p50 " << formatDuration(summary.p50Ns) << ", p95 "
            << formatDuration(summary.p95Ns) << "\n";
        for (const Step& s : result.steps) {
            if (s.process.value == p)
                out << "  " << pad(s.name, 24) << pad(formatDuration(s.end - s.start), 12)
                    << (s.warmup ? "warm-up" : "") << "\n";
        }
    }
}

void writeKernels(const AnalysisResult& result, std::size_t top, std::ostream& out)
{
    out << "\nTop kernels by total time\n";
    if (result.kernels.empty()) {
        out << "  none\n";
        return;
    }
    out << "  " << pad("total", 12) << pad("count", 8) << pad("mean", 12) << pad("p50", 12) << pad("p95", 12)
        << pad("max", 12) << "name\n";
    for (std::size_t i = 0; i < std::min(top, result.kernels.size()); ++i) {
        const KernelStats& k = result.kernels[i];
        std::string name = k.name;
        if (name.size() > 100)
            name = name.substr(0, 97) + "...";
        out << "  " << pad(formatDuration(k.totalNs), 12) << pad(std::to_string(k.count), 8)
            << pad(formatDuration(k.meanNs), 12) << pad(formatDuration(k.p50Ns), 12) << pad(formatDuration(k.p95Ns), 12)
            << pad(formatDuration(k.maxNs), 12) << name << "\n";
    }
}

} // namespace

void writeDeviceFigureLines(const WindowFigures& d, std::ostream& out)
{
    out << "  span         " << formatDuration(d.spanNs) << "\n";
    out << "  busy         " << pad(formatDuration(d.busyNs), 12) << " utilization " << percent(d.busyNs, d.spanNs)
        << "\n";
    out << "  idle         " << pad(formatDuration(d.idleNs), 12) << " in " << d.gapCount << " gaps\n";
    out << "  idle by cause\n";
    for (int c = 0; c < kGapCauseCount; ++c) {
        out << "    " << pad(std::string(gapCauseName(static_cast<GapCause>(c))), 11)
            << pad(formatDuration(d.idleByCause[c]), 12) << " " << percent(d.idleByCause[c], d.spanNs) << "\n";
    }
    out << "  exposed time\n";
    const std::pair<const char*, TimeNs> exposed[] = { { "compute", d.exposed.compute },
        { "communication", d.exposed.communication }, { "memcpy", d.exposed.memcpy }, { "idle", d.exposed.idle } };
    for (const auto& [name, value] : exposed)
        out << "    " << pad(name, 14) << pad(formatDuration(value), 12) << " " << percent(value, d.spanNs) << "\n";
}

/// --metric: n, p50 and p95 of each metric asked for (the step time is in the steps section already).
static void writeMetrics(
    const Trace& trace, const AnalysisResult& result, const ReportOptions& options, std::ostream& out)
{
    if (options.metrics.empty())
        return;
    out << "\nMetrics (nearest-rank p50 and p95)\n";
    for (const MetricSpec& m : options.metrics) {
        MetricSamples samples = metricSamples(trace, result, m);
        std::vector<TimeNs>& v = samples.values;
        out << "  " << m.name << " (" << m.specText() << ", window " << windowKindName(samples.window)
            << "): n = " << v.size();
        if (!v.empty()) {
            const TimeNs p50 = nearestRankPercentile(v, 0.50);
            out << ", p50 " << formatDuration(p50) << ", p95 " << formatDuration(nearestRankPercentile(v, 0.95));
        }
        out << "\n";
    }
}

void writeTextReport(const Trace& trace, const AnalysisResult& result, const ReportOptions& options, std::ostream& out)
{
    const std::size_t top = options.top.value_or(10);
    out << "GapScope report: window " << windowKindName(options.analysis.window.kind);
    if (options.analysis.window.kind == WindowKind::Steps)
        out << " (warm-up steps excluded: " << options.analysis.window.warmupSteps << ")";
    out << ", activity " << activitySetName(options.analysis.activity) << ", launch threshold "
        << formatDuration(options.analysis.launchThresholdNs);
    if (options.load.active())
        out << ", loaded " << options.load.describe();
    out << "\n";
    for (const ProcessIndex p : processesInRankOrder(trace)) {
        const Process& process = trace.processes()[p.value];
        out << "  " << processTitle(trace, p);
        if (!process.sourceFile.empty())
            out << ": " << process.sourceFile;
        out << "\n";
    }
    if (trace.skippedEvents() > 0)
        out << "  " << trace.skippedEvents() << " malformed event(s) skipped on import (see --json for where)\n";
    if (!result.hasGpuActivity) {
        out << "\nNo GPU activity in this trace (" << trace.eventCount() << " CPU events); nothing to measure.\n";
        writeMetrics(trace, result, options, out);
        return;
    }
    out << "\n";
    for (const DeviceFigures& d : result.devices)
        writeDevice(trace, d, out);
    writeGaps(trace, result, top, out);
    writeSteps(trace, result, out);
    writeKernels(result, top, out);
    writeMetrics(trace, result, options, out);
}

} // namespace gapscope::cli
