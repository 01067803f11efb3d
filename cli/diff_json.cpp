// SPDX-License-Identifier: MIT
// `gapscope diff --json`: the document whose keys docs/json-output.md lists.
#include "cli/diff_report.h"
#include "cli/window_figures_json.h"

#include <nlohmann/json.hpp>

namespace gapscope::cli {

using nlohmann::json;

namespace {

json windowJson(const Window& window, const AnalysisOptions& analysis)
{
    json w = { { "kind", windowKindName(window.kind) }, { "start_ns", nullptr }, { "end_ns", nullptr },
        { "length_ns", window.length() }, { "ranges", window.ranges.intervals().size() } };
    if (!window.ranges.empty()) {
        w["start_ns"] = window.start();
        w["end_ns"] = window.end();
    }
    if (window.kind == WindowKind::Steps)
        w["warmup_steps"] = analysis.window.warmupSteps;
    return w;
}

json sideJson(const std::vector<DiffRunInfo>& runs, const AnalysisOptions& analysis)
{
    json list = json::array();
    for (const DiffRunInfo& run : runs)
        list.push_back(
            { { "path", run.label }, { "files", run.files }, { "window", windowJson(run.window, analysis) } });
    return { { "file", runs.front().label }, { "window", windowJson(runs.front().window, analysis) },
        { "runs", list } };
}

json stepSideJson(const StepSide& s)
{
    return { { "runs", s.runs }, { "count", s.durations.size() }, { "warmup", s.warmup }, { "mean_ns", s.meanNs },
        { "p50_ns", s.p50Ns }, { "p95_ns", s.p95Ns }, { "durations_ns", s.durations },
        { "run_medians_ns", s.runMediansNs }, { "run_spread", s.runSpread ? json(*s.runSpread) : json(nullptr) } };
}

json kernelSideJson(const std::optional<KernelSide>& k)
{
    if (!k)
        return nullptr;
    return { { "count", k->count }, { "total_ns", k->totalNs }, { "mean_ns", k->meanNs }, { "p50_ns", k->p50Ns } };
}

json gapsJson(const std::vector<GapSummary>& gaps, const std::vector<DiffRunInfo>& runs)
{
    json list = json::array();
    for (const GapSummary& g : gaps) {
        list.push_back({ { "run", runs[g.run].label }, { "rank", g.rank ? json(*g.rank) : json(nullptr) },
            { "device", g.deviceId }, { "start_from_window_ns", g.startFromWindowNs }, { "duration_ns", g.durationNs },
            { "cause", gapCauseName(g.cause) }, { "evidence", g.evidence } });
    }
    return list;
}

json importJson(const std::vector<ImportNote>& notes, const std::vector<DiffRunInfo>& runs)
{
    json list = json::array();
    for (const ImportNote& n : notes) {
        const ImportWarning& w = n.warning;
        list.push_back({ { "run", runs[n.run].label }, { "file", w.file },
            { "byte_offset", w.place.empty() ? json(w.byteOffset) : json(nullptr) },
            { "place", w.place.empty() ? json(nullptr) : json(w.place) }, { "message", w.message } });
    }
    return list;
}

} // namespace

json diffToJson(const RunDiff& diff, const DiffSides& sides, const DiffOptions& options)
{
    json doc;
    doc["base"] = sideJson(sides.base, diff.analysis);
    doc["new"] = sideJson(sides.fresh, diff.analysis);
    doc["activity"] = activitySetName(diff.analysis.activity);
    doc["launch_threshold_ns"] = diff.analysis.launchThresholdNs;

    json devices = json::array();
    for (const DeviceDiff& d : diff.devices) {
        devices.push_back({ { "rank", d.rank ? json(*d.rank) : json(nullptr) },
            { "new_rank", d.newRank ? json(*d.newRank) : json(nullptr) }, { "device", d.deviceId },
            { "new_device", d.newDeviceId }, { "name", { { "base", d.baseName }, { "new", d.newName } } },
            { "base", d.base ? windowFiguresJson(*d.base) : json(nullptr) },
            { "new", d.fresh ? windowFiguresJson(*d.fresh) : json(nullptr) },
            { "delta", d.base && d.fresh ? windowFiguresJson(figuresDelta(*d.base, *d.fresh)) : json(nullptr) } });
    }
    doc["devices"] = devices;

    const StepComparison& s = diff.steps;
    json steps = { { "base", stepSideJson(s.base) }, { "new", stepSideJson(s.fresh) } };
    const bool tested = s.test.has_value();
    steps["delta_p50_ns"] = tested ? json(s.deltaP50Ns) : json(nullptr);
    steps["delta_p50_pct"] = tested ? json(s.deltaP50Fraction * 100.0) : json(nullptr);
    steps["ci95_ns"] = s.interval95 ? json::array({ s.interval95->low, s.interval95->high }) : json(nullptr);
    steps["p_value"] = tested ? json(s.test->pValue) : json(nullptr);
    steps["u"] = tested ? json(s.test->u) : json(nullptr);
    steps["test"] = tested ? json(s.test->exact ? "exact" : "normal") : json(nullptr);
    steps["run_medians_separate"] = s.runMediansSeparate ? json(*s.runMediansSeparate) : json(nullptr);
    steps["verdict"] = verdictName(s.verdict);
    steps["reason"] = s.reason;
    steps["caveat"] = s.caveat;
    doc["steps"] = steps;

    json kernels = json::array();
    const std::size_t top = options.top.value_or(diff.kernels.size());
    for (std::size_t i = 0; i < std::min(top, diff.kernels.size()); ++i) {
        const KernelDiff& k = diff.kernels[i];
        kernels.push_back({ { "name", k.name },
            { "status",
                !k.base        ? "new"
                    : !k.fresh ? "gone"
                               : "both" },
            { "base", kernelSideJson(k.base) }, { "new", kernelSideJson(k.fresh) }, { "delta_count", k.deltaCount() },
            { "delta_total_ns", k.deltaTotalNs() } });
    }
    doc["kernels"] = kernels;
    doc["gaps"] = { { "base", gapsJson(diff.baseGaps, sides.base) }, { "new", gapsJson(diff.newGaps, sides.fresh) } };
    doc["import"]
        = { { "base", importJson(diff.baseImport, sides.base) }, { "new", importJson(diff.newImport, sides.fresh) } };
    doc["warnings"] = diff.warnings;
    return doc;
}

} // namespace gapscope::cli
