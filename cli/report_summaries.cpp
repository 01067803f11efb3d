// SPDX-License-Identifier: MIT
#include "cli/report_summaries.h"

#include "cli/job_report.h"
#include "cli/report_text.h"
#include "cli/text_columns.h"
#include "cli/window_figures_json.h"
#include "core/analysis/nearest_rank.h"
#include "core/model/labels.h"
#include "core/model/time_format.h"
#include "core/summary/summary_json.h"
#include "core/summary/summary_run.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>

namespace gapscope::cli {

using nlohmann::json;

namespace {

json optionalRank(const RankSummary& r)
{
    return r.rank ? json(*r.rank) : json(nullptr);
}

json processJson(const RankSummary& r)
{
    return json { { "pid", r.pid }, { "name", r.processName }, { "file", r.source } };
}

/// A rank's longest gap, with the rank it belongs to.
struct RankedGap {
    const RankSummary* rank = nullptr;
    const RankGapSummary* gap = nullptr;
    TimeNs duration() const { return gap->end - gap->start; }
};

/// The longest device gaps over all ranks, longest first (ties in the order of the ranks): each rank keeps its
/// 10 longest, so the first 10 of these are the job's 10 longest.
std::vector<RankedGap> longestGapsOf(const std::vector<RankSummary>& ranks, std::size_t top)
{
    std::vector<RankedGap> gaps;
    for (const RankSummary& r : ranks) {
        for (const RankGapSummary& g : r.longestGaps)
            gaps.push_back({ &r, &g });
    }
    std::stable_sort(
        gaps.begin(), gaps.end(), [](const RankedGap& a, const RankedGap& b) { return a.duration() > b.duration(); });
    if (gaps.size() > top)
        gaps.resize(top);
    return gaps;
}

std::string rankTitle(const RankSummary& r)
{
    Process p;
    p.pid = r.pid;
    p.name = r.processName;
    p.rank = r.rank;
    return processLabel(p);
}

void writeDeviceText(const RankSummary& r, const DeviceSummary& d, std::ostream& out)
{
    Device device;
    device.id = d.id;
    device.name = d.name;
    out << deviceLabel(device) << ", " << rankTitle(r) << "\n";
    out << "  window       " << windowKindName(r.window) << " [" << d.windowStart << ", " << d.windowEnd << ") ns\n";
    writeDeviceFigureLines(d, out);
}

/// One metric of `summarize --metric`, its values pooled over the ranks that have it.
struct PooledMetric {
    std::string name;
    std::string spec;
    WindowKind window = WindowKind::Gpu;
    std::vector<TimeNs> values;
    std::size_t ranks = 0;
};

/// The metrics the summaries carry, in the order of the first rank that has each, values of all ranks pooled.
std::vector<PooledMetric> pooledMetrics(const std::vector<RankSummary>& ranks)
{
    std::vector<PooledMetric> pooled;
    for (const RankSummary& r : ranks) {
        for (const RankMetric& m : r.metrics) {
            auto found = std::find_if(pooled.begin(), pooled.end(),
                [&](const PooledMetric& p) { return p.name == m.name && p.spec == m.spec; });
            if (found == pooled.end())
                found = pooled.insert(pooled.end(), PooledMetric { m.name, m.spec, r.window, {}, 0 });
            found->values.insert(found->values.end(), m.valuesNs.begin(), m.valuesNs.end());
            ++found->ranks;
        }
    }
    return pooled;
}

} // namespace

void writeSummaryReportJson(const std::vector<RankSummary>& ranks, const ReportOptions& options, std::ostream& out)
{
    const AnalysisOptions analysis = analysisOptionsOf(ranks);
    json window = { { "kind", windowKindName(analysis.window.kind) }, { "start_ns", nullptr }, { "end_ns", nullptr } };
    json processes = json::array();
    json devices = json::array();
    std::optional<TimeNs> start;
    std::optional<TimeNs> end;
    bool gpuActivity = false;
    std::uint64_t skipped = 0;
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        const RankSummary& r = ranks[i];
        processes.push_back(
            { { "pid", r.pid }, { "name", r.processName }, { "file", r.source }, { "rank", optionalRank(r) },
                { "step_summary",
                    { { "count", r.steps }, { "warmup", r.warmupSteps }, { "p50_ns", r.stepP50Ns },
                        { "p95_ns", r.stepP95Ns } } } });
        for (const DeviceSummary& d : r.devices) {
            start = start ? std::min(*start, d.windowStart) : d.windowStart;
            end = end ? std::max(*end, d.windowEnd) : d.windowEnd;
            gpuActivity = gpuActivity || d.busyNs > 0;
            json entry = windowFiguresJson(d);
            entry.update({
                { "process", processJson(r) },
                { "rank", optionalRank(r) },
                { "id", d.id },
                { "name", d.name },
                { "window",
                    { { "kind", windowKindName(r.window) }, { "start_ns", d.windowStart },
                        { "end_ns", d.windowEnd } } },
            });
            devices.push_back(std::move(entry));
        }
        if (i == 0 || ranks[i - 1].source != r.source)
            skipped += r.skippedEvents;
    }
    if (start) {
        window["start_ns"] = *start;
        window["end_ns"] = *end;
    }
    json gaps = json::array();
    for (const RankedGap& g : longestGapsOf(ranks, options.top.value_or(std::numeric_limits<std::size_t>::max()))) {
        gaps.push_back({ { "process", processJson(*g.rank) }, { "rank", optionalRank(*g.rank) },
            { "device", g.gap->device }, { "stream", nullptr }, { "start_ns", g.gap->start }, { "end_ns", g.gap->end },
            { "duration_ns", g.duration() }, { "cause", gapCauseName(g.gap->cause) },
            { "evidence", { { "summary", g.gap->evidence } } } });
    }
    json doc = json::object();
    doc["window"] = window;
    doc["activity"] = activitySetName(analysis.activity);
    doc["launch_threshold_ns"] = analysis.launchThresholdNs;
    doc["gpu_activity"] = gpuActivity;
    doc["source"] = "summaries";
    doc["omitted"] = summaryOmissions();
    doc["processes"] = processes;
    doc["devices"] = devices;
    doc["gaps"] = gaps;
    json metrics = json::array();
    for (PooledMetric& m : pooledMetrics(ranks)) {
        const std::size_t n = m.values.size();
        metrics.push_back({ { "name", m.name }, { "spec", m.spec }, { "window", windowKindName(m.window) }, { "n", n },
            { "p50_ns", n ? json(nearestRankPercentile(m.values, 0.50)) : json(nullptr) },
            { "p95_ns", n ? json(nearestRankPercentile(m.values, 0.95)) : json(nullptr) }, { "ranks", m.ranks } });
    }
    doc["metrics"] = metrics;
    doc["import"] = { { "skipped_events", skipped }, { "warnings", json::array() } };
    if (ranks.size() > 1 && gpuActivity)
        doc["job"] = jobToJson(ranks, analyzeSummaries(ranks));
    out << doc.dump(2) << "\n";
}

void writeSummaryReportText(const std::vector<RankSummary>& ranks, const ReportOptions& options, std::ostream& out)
{
    const std::size_t top = options.top.value_or(10);
    const AnalysisOptions analysis = analysisOptionsOf(ranks);
    out << "GapScope report from summaries: window " << windowKindName(analysis.window.kind) << ", activity "
        << activitySetName(analysis.activity) << ", launch threshold " << formatDuration(analysis.launchThresholdNs)
        << "\n";
    std::vector<const RankSummary*> ordered;
    for (const RankSummary& r : ranks)
        ordered.push_back(&r);
    std::stable_sort(ordered.begin(), ordered.end(), [](const RankSummary* a, const RankSummary* b) {
        return std::make_pair(!a->rank.has_value(), a->rank.value_or(0))
            < std::make_pair(!b->rank.has_value(), b->rank.value_or(0));
    });
    bool gpuActivity = false;
    for (const RankSummary* r : ordered) {
        out << "  " << rankTitle(*r) << ": " << r->source << "\n";
        for (const DeviceSummary& d : r->devices)
            gpuActivity = gpuActivity || d.busyNs > 0;
    }
    out << "  Not in a summary (they need the traces):\n";
    for (const std::string& omitted : summaryOmissions())
        out << "    " << omitted << "\n";
    if (!gpuActivity) {
        out << "\nNo GPU activity in these summaries; nothing to measure.\n";
        return;
    }
    out << "\n";
    for (const RankSummary* r : ordered) {
        for (const DeviceSummary& d : r->devices)
            writeDeviceText(*r, d, out);
    }
    out << "\nLongest device gaps\n";
    const std::vector<RankedGap> gaps = longestGapsOf(ranks, top);
    if (gaps.empty())
        out << "  none\n";
    for (const RankedGap& g : gaps) {
        // A summary does not know its trace's first event: starts are counted from the rank's window start.
        out << "  " << pad(formatDuration(g.duration()), 11) << " at "
            << pad(formatRelativeTime(g.gap->start, rankWindowStart(*g.rank)) + " from window start", 28) << " device "
            << g.gap->device;
        if (g.rank->rank)
            out << " rank " << *g.rank->rank;
        out << "  " << pad(std::string(gapCauseName(g.gap->cause)), 10) << " " << g.gap->evidence << "\n";
    }
    for (const RankSummary* r : ordered) {
        if (r->steps == 0 && r->warmupSteps == 0)
            continue;
        out << "\nSteps of " << rankTitle(*r) << ": " << r->steps << " measured, " << r->warmupSteps
            << " warm-up excluded; p50 " << formatDuration(r->stepP50Ns) << ", p95 " << formatDuration(r->stepP95Ns)
            << "\n";
    }
    std::vector<PooledMetric> metrics = pooledMetrics(ranks);
    if (!metrics.empty())
        out << "\nMetrics (nearest-rank p50 and p95, the values of every rank that has the metric pooled)\n";
    for (PooledMetric& m : metrics) {
        out << "  " << m.name << " (" << m.spec << ", window " << windowKindName(m.window) << ", " << m.ranks
            << " rank(s)): n = " << m.values.size();
        if (!m.values.empty())
            out << ", p50 " << formatDuration(nearestRankPercentile(m.values, 0.50)) << ", p95 "
                << formatDuration(nearestRankPercentile(m.values, 0.95));
        out << "\n";
    }
    if (ranks.size() > 1) {
        out << "\n";
        writeJobText(ranks, analyzeSummaries(ranks), top, out);
    }
}

int runReportFromSummaries(const ReportOptions& options, std::ostream& out, std::ostream& err)
{
    std::vector<RankSummary> ranks;
    for (const std::string& path : options.traces) {
        auto read = readSummaryFile(path);
        if (!read) {
            err << "gapscope report: " << read.error().toString() << "\n";
            return 1;
        }
        for (RankSummary& r : read.value())
            ranks.push_back(std::move(r));
    }
    if (const auto problems = summaryOptionMismatches(ranks); !problems.empty()) {
        for (const std::string& problem : problems)
            err << "gapscope report: " << problem << "\n";
        err << "gapscope report: summaries made with different options do not compare; summarize the traces again "
               "with the same options\n";
        return 1;
    }
    const AnalysisOptions measured = analysisOptionsOf(ranks);
    if (!ranks.empty()
        && (measured.window.kind != options.analysis.window.kind || measured.activity != options.analysis.activity))
        err << "gapscope report: note: the summaries were measured with window " << windowKindName(measured.window.kind)
            << " and activity " << activitySetName(measured.activity)
            << "; --window and --activity do not apply to summaries (summarize the traces with them)\n";
    if (options.json)
        writeSummaryReportJson(ranks, options, out);
    else
        writeSummaryReportText(ranks, options, out);
    return 0;
}

} // namespace gapscope::cli
