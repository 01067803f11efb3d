// SPDX-License-Identifier: MIT
#include "cli/diff_metrics.h"

#include "cli/text_columns.h"
#include "core/analysis/compare_text.h"
#include "core/experiment/metric_prediction.h"
#include "core/model/time_format.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <tuple>

namespace gapscope::cli {

using nlohmann::json;

namespace {

std::string percentText(double fraction)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f %%", fraction * 100.0);
    return buffer;
}

std::string pText(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.0001 ? "%.2g" : "%.4f", p);
    return buffer;
}

const char* verdictText(const ExperimentReport& report, Verdict verdict)
{
    return report.isProfilerOverhead() ? "profiler overhead" : verdictName(verdict).data();
}

/// "+1.2 ms (+3.40 %), 95 % interval [+1.0 ms, +1.4 ms], p = 0.0001".
std::string changeText(const PercentileVerdict& v)
{
    if (!v.interval95 || !v.pValue)
        return "";
    return signedDuration(v.deltaNs) + " (" + signedPercent(v.deltaFraction) + "), 95 % interval ["
        + signedDuration(v.interval95->low) + ", " + signedDuration(v.interval95->high) + "], p = " + pText(*v.pValue);
}

std::string spreadText(const std::optional<double>& spread)
{
    return spread ? percentText(*spread) : std::string("unknown");
}

json percentileJson(const ExperimentReport& report, const PercentileVerdict& v)
{
    const bool tested = v.interval95.has_value();
    return { { "delta_ns", tested ? json(v.deltaNs) : json(nullptr) },
        { "delta_pct", tested ? json(v.deltaFraction * 100.0) : json(nullptr) },
        { "ci95_ns", tested ? json::array({ v.interval95->low, v.interval95->high }) : json(nullptr) },
        { "p_value", v.pValue ? json(*v.pValue) : json(nullptr) },
        { "run_ranges_separate", v.runRangesSeparate ? json(*v.runRangesSeparate) : json(nullptr) },
        { "verdict", verdictText(report, v.verdict) }, { "reason", v.reason } };
}

json sideJson(const MetricSide& s)
{
    const auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
    return { { "n", s.n }, { "runs", s.runs }, { "p50_ns", s.n ? json(s.p50Ns) : json(nullptr) },
        { "p95_ns", s.n ? json(s.p95Ns) : json(nullptr) }, { "run_p50s_ns", s.runP50sNs },
        { "run_p95s_ns", s.runP95sNs }, { "run_spread_p50", optional(s.runSpreadP50) },
        { "run_spread_p95", optional(s.runSpreadP95) } };
}

std::string directionText(const ExperimentReport& report)
{
    const ExperimentDirection& d = *report.direction;
    return std::string(verdictName(d.verdict)) + ", from " + report.metrics[d.metric].spec.name + " "
        + (d.fromP95 ? "p95" : "p50");
}

} // namespace

std::string profilerOverheadLine(const ExperimentReport& report)
{
    const bool baseNvtx = report.mix == RecordingMix::BaseNvtxOnly;
    std::string line = std::string("Profiler overhead (") + (baseNvtx ? "NEW" : "BASE") + " recorded with CUPTI, "
        + (baseNvtx ? "BASE" : "NEW") + " with NVTX only: the profiler's cost on this workload, not a verdict):";
    bool first = true;
    for (const MetricComparison& m : report.metrics) {
        if (!m.p50.interval95)
            continue;
        // The change from the NVTX-only runs to the CUPTI runs, whichever side they are.
        PercentileVerdict v = m.p50;
        if (!baseNvtx) {
            v.deltaNs = -v.deltaNs;
            v.deltaFraction = m.fresh.p50Ns ? static_cast<double>(v.deltaNs) / static_cast<double>(m.fresh.p50Ns) : 0.0;
            v.interval95 = BootstrapInterval { -m.p50.interval95->high, -m.p50.interval95->low };
        }
        line += std::string(first ? " " : "; ") + m.spec.name + " p50 " + changeText(v);
        first = false;
    }
    return first ? line + " no metric has values on both sides" : line;
}

void writeTextMetrics(const ExperimentReport& report, std::ostream& out)
{
    out << "\nMetrics (p50 and p95 of each; BASE " << (report.metrics.empty() ? 0 : report.metrics.front().base.runs)
        << " run(s), NEW " << (report.metrics.empty() ? 0 : report.metrics.front().fresh.runs) << " run(s)"
        << (report.timingSource.empty() ? "" : "; timings from " + report.timingSource) << ")\n";
    for (std::size_t i = 0; i < report.metrics.size(); ++i) {
        const MetricComparison& m = report.metrics[i];
        out << "  " << m.spec.name << " (" << m.spec.specText() << ", window "
            << windowKindName(i < report.windows.size() ? report.windows[i] : WindowKind::Gpu) << ")"
            << (m.sideEffect ? "  SIDE EFFECT" : "") << "\n";
        if (m.base.n == 0 || m.fresh.n == 0) {
            out << "    " << m.p50.reason << "\n";
            continue;
        }
        out << "    BASE n = " << m.base.n << ", p50 " << formatDuration(m.base.p50Ns) << ", p95 "
            << formatDuration(m.base.p95Ns) << "; NEW n = " << m.fresh.n << ", p50 " << formatDuration(m.fresh.p50Ns)
            << ", p95 " << formatDuration(m.fresh.p95Ns) << "\n";
        for (const auto& [label, v, base, fresh] :
            { std::tuple { "p50", &m.p50, &m.base.runSpreadP50, &m.fresh.runSpreadP50 },
                std::tuple { "p95", &m.p95, &m.base.runSpreadP95, &m.fresh.runSpreadP95 } }) {
            out << "    " << label << ": " << pad(verdictText(report, v->verdict), 22) << changeText(*v)
                << "; run-to-run spread BASE " << spreadText(*base) << ", NEW " << spreadText(*fresh) << "\n";
        }
    }
    if (report.isProfilerOverhead())
        return;
    out << "  direction: " << (report.direction ? directionText(report) : std::string("none (no metric moved)"))
        << "\n";
    out << "  side effects: " << sideEffectsText(report.metrics) << "\n";
}

json metricsToJson(const ExperimentReport& report)
{
    json list = json::array();
    for (std::size_t i = 0; i < report.metrics.size(); ++i) {
        const MetricComparison& m = report.metrics[i];
        list.push_back({ { "name", m.spec.name }, { "spec", m.spec.specText() },
            { "window", windowKindName(i < report.windows.size() ? report.windows[i] : WindowKind::Gpu) },
            { "base", sideJson(m.base) }, { "new", sideJson(m.fresh) }, { "p50", percentileJson(report, m.p50) },
            { "p95", percentileJson(report, m.p95) }, { "side_effect", m.sideEffect }, { "caveat", m.caveat } });
    }
    return list;
}

void addExperimentJson(const ExperimentReport& report, json& doc)
{
    doc["metrics"] = metricsToJson(report);
    if (report.direction && !report.isProfilerOverhead()) {
        const ExperimentDirection& d = *report.direction;
        doc["direction"] = { { "verdict", verdictName(d.verdict) }, { "metric", report.metrics[d.metric].spec.name },
            { "percentile", d.fromP95 ? "p95" : "p50" } };
    } else {
        doc["direction"] = nullptr;
    }
    doc["timing_from"] = report.timingSource.empty() ? json(nullptr) : json(report.timingSource);
    if (report.isProfilerOverhead()) {
        doc["profiler_overhead"] = { { "nvtx_only_side", report.mix == RecordingMix::BaseNvtxOnly ? "base" : "new" },
            { "line", profilerOverheadLine(report) } };
        doc["steps"]["verdict"] = "profiler overhead";
    } else {
        doc["profiler_overhead"] = nullptr;
    }
}

} // namespace gapscope::cli
