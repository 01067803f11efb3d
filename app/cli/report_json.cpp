// SPDX-License-Identifier: MIT
#include "app/cli/report_json.h"

#include "core/analysis/percentile.h"

#include <algorithm>
#include <limits>

namespace gapscope::cli {

using nlohmann::json;

std::string laneLabel(const Trace& trace, LaneIndex laneIndex)
{
    const Lane& lane = trace.lanes[laneIndex.value];
    if (lane.kind == LaneKind::GpuStream) {
        return "device " + std::to_string(trace.devices[lane.device.value].id) + " stream "
            + std::to_string(lane.stream);
    }
    std::string label = "thread " + std::to_string(lane.tid);
    if (!lane.name.empty())
        label += " (" + lane.name + ")";
    return label;
}

StepSummary summarizeSteps(const AnalysisResult& result, ProcessIndex process)
{
    StepSummary summary;
    std::vector<TimeNs> durations;
    for (const Step& s : result.steps) {
        if (s.process != process)
            continue;
        if (s.warmup)
            ++summary.warmup;
        else
            durations.push_back(s.end - s.start);
    }
    summary.count = durations.size();
    summary.p50Ns = percentile(durations, 50);
    summary.p95Ns = percentile(durations, 95);
    return summary;
}

namespace {

json processJson(const Trace& trace, ProcessIndex process)
{
    const Process& p = trace.processes[process.value];
    return json { { "pid", p.pid }, { "name", p.name }, { "file", p.sourceFile } };
}

json rankJson(const Trace& trace, ProcessIndex process)
{
    const auto& rank = trace.processes[process.value].rank;
    return rank ? json(*rank) : json(nullptr);
}

json eventJson(const Trace& trace, const std::optional<EventRef>& ref)
{
    if (!ref)
        return nullptr;
    const Event& e = trace.event(*ref);
    return json {
        { "name", trace.name(e) },
        { "kind", eventKindName(e.kind) },
        { "lane", laneLabel(trace, ref->lane) },
        { "start_ns", e.start },
        { "end_ns", e.end },
        { "correlation", e.correlation ? json(e.correlation) : json(nullptr) },
    };
}

json windowJson(const Window& window)
{
    json ranges = json::array();
    for (const Interval& r : window.ranges.intervals())
        ranges.push_back({ r.start, r.end });
    return json { { "kind", windowKindName(window.kind) }, { "start_ns", window.start() }, { "end_ns", window.end() },
        { "length_ns", window.length() }, { "ranges", ranges } };
}

template <typename T> std::vector<T> firstN(std::vector<T> items, std::optional<std::size_t> top)
{
    if (top && items.size() > *top)
        items.resize(*top);
    return items;
}

} // namespace

json reportToJson(const Trace& trace, const AnalysisResult& result, const ReportOptions& options)
{
    json doc;
    // The overall window: from the earliest to the latest bound over the processes measured.
    json window
        = { { "kind", windowKindName(options.analysis.window.kind) }, { "start_ns", nullptr }, { "end_ns", nullptr } };
    std::optional<TimeNs> start;
    std::optional<TimeNs> end;
    for (const Window& w : result.windows) {
        if (w.ranges.empty())
            continue;
        start = start ? std::min(*start, w.start()) : w.start();
        end = end ? std::max(*end, w.end()) : w.end();
    }
    if (start) {
        window["start_ns"] = *start;
        window["end_ns"] = *end;
    }
    doc["window"] = window;
    doc["activity"] = activitySetName(options.analysis.activity);
    doc["launch_threshold_ns"] = options.analysis.launchThresholdNs;
    doc["gpu_activity"] = result.hasGpuActivity;

    json processes = json::array();
    for (std::uint32_t p = 0; p < trace.processes.size(); ++p) {
        json entry = processJson(trace, ProcessIndex { p });
        entry["rank"] = rankJson(trace, ProcessIndex { p });
        if (p < result.windows.size())
            entry["window"] = windowJson(result.windows[p]);
        const StepSummary steps = summarizeSteps(result, ProcessIndex { p });
        entry["step_summary"] = { { "count", steps.count }, { "warmup", steps.warmup }, { "p50_ns", steps.p50Ns },
            { "p95_ns", steps.p95Ns } };
        processes.push_back(entry);
    }
    doc["processes"] = processes;

    json devices = json::array();
    for (const DeviceFigures& d : result.devices) {
        const Device& device = trace.devices[d.device.value];
        json idleByCause;
        for (int c = 0; c < kGapCauseCount; ++c)
            idleByCause[std::string(gapCauseName(static_cast<GapCause>(c)))] = d.idleByCause[c];
        devices.push_back({
            { "process", processJson(trace, d.process) },
            { "rank", rankJson(trace, d.process) },
            { "id", device.id },
            { "name", device.name },
            { "window", windowJson(d.window) },
            { "span_ns", d.spanNs },
            { "busy_ns", d.busyNs },
            { "idle_ns", d.idleNs },
            { "utilization", d.utilization },
            { "gap_count", d.gapCount },
            { "idle_by_cause_ns", idleByCause },
            { "exposed_ns",
                { { "compute", d.exposed.compute }, { "communication", d.exposed.communication },
                    { "memcpy", d.exposed.memcpy }, { "idle", d.exposed.idle } } },
        });
    }
    doc["devices"] = devices;

    const std::vector<std::size_t> longest
        = longestGaps(result.gaps, options.top.value_or(std::numeric_limits<std::size_t>::max()), false);
    json gapList = json::array();
    for (const std::size_t index : longest) {
        const Gap gap = result.gaps[index];
        const Device& device = trace.devices[gap.device.value];
        const GapEvidence evidence = gapEvidence(trace, gap, result.options.launchThresholdNs);
        gapList.push_back({
            { "process", processJson(trace, gap.process) },
            { "rank", rankJson(trace, gap.process) },
            { "device", device.id },
            { "stream", gap.stream ? json(trace.lanes[gap.stream->value].stream) : json(nullptr) },
            { "start_ns", gap.start },
            { "end_ns", gap.end },
            { "duration_ns", gap.duration() },
            { "cause", gapCauseName(gap.cause) },
            { "evidence",
                { { "summary", evidence.summary }, { "closing_op", eventJson(trace, evidence.closingOp) },
                    { "launch", eventJson(trace, evidence.launch) },
                    { "sync_call", eventJson(trace, evidence.syncCall) },
                    { "host_range", eventJson(trace, evidence.hostRange) } } },
        });
    }
    doc["gaps"] = gapList;

    json steps = json::array();
    for (const Step& s : result.steps) {
        steps.push_back({ { "process", processJson(trace, s.process) }, { "rank", rankJson(trace, s.process) },
            { "name", s.name }, { "start_ns", s.start }, { "end_ns", s.end }, { "duration_ns", s.end - s.start },
            { "warmup", s.warmup } });
    }
    doc["steps"] = steps;

    json kernels = json::array();
    for (const KernelStats& k : firstN(result.kernels, options.top)) {
        kernels.push_back({ { "name", k.name }, { "count", k.count }, { "total_ns", k.totalNs },
            { "mean_ns", k.meanNs }, { "p50_ns", k.p50Ns }, { "p95_ns", k.p95Ns }, { "max_ns", k.maxNs } });
    }
    doc["kernels"] = kernels;

    json warnings = json::array();
    for (const ImportWarning& w : trace.warnings)
        warnings.push_back({ { "file", w.file }, { "byte_offset", w.byteOffset }, { "message", w.message } });
    doc["import"] = { { "skipped_events", trace.skippedEvents }, { "warnings", warnings } };
    return doc;
}

} // namespace gapscope::cli
