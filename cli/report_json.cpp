// SPDX-License-Identifier: MIT
#include "cli/report_json.h"
#include "cli/metric_options.h"
#include "cli/window_figures_json.h"

#include "core/analysis/counter_figures.h"
#include "core/analysis/gap_evidence.h"
#include "core/analysis/nearest_rank.h"
#include "core/experiment/metric_samples.h"
#include "core/io/common/cut_short.h"
#include "core/io/common/json_stream_writer.h"
#include "core/io/common/quoted_json_strings.h"
#include "core/model/labels.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace gapscope::cli {

using nlohmann::json;

namespace {

json processJson(const Trace& trace, ProcessIndex process)
{
    const Process& p = trace.processes()[process.value];
    return json { { "pid", p.pid }, { "name", p.name }, { "file", p.sourceFile } };
}

json rankJson(const Trace& trace, ProcessIndex process)
{
    const auto& rank = trace.processes()[process.value].rank;
    return rank ? json(*rank) : json(nullptr);
}

json windowJson(const Window& window)
{
    json ranges = json::array();
    for (const Interval& r : window.ranges.intervals())
        ranges.push_back({ r.start, r.end });
    return json { { "kind", windowKindName(window.kind) }, { "start_ns", window.start() }, { "end_ns", window.end() },
        { "length_ns", window.length() }, { "ranges", ranges } };
}

/// Each counter track's figures over its process's window (null figures when it has no value there).
json countersJson(const Trace& trace, const AnalysisResult& result)
{
    json counters = json::array();
    for (const CounterTrack& track : trace.counters().tracks()) {
        json entry = { { "name", track.name }, { "unit", track.unit },
            { "device", track.device ? json(trace.devices()[track.device->value].id) : json(nullptr) },
            { "process", trace.processes()[track.process.value].pid }, { "min", nullptr }, { "max", nullptr },
            { "mean", nullptr } };
        if (!track.note.empty())
            entry["note"] = track.note;
        if (track.process.value < result.windows.size() && !result.windows[track.process.value].ranges.empty()) {
            const Window& window = result.windows[track.process.value];
            entry["window"] = windowJson(window);
            if (const auto figures = counterFigures(track, window.start(), window.end())) {
                entry["min"] = figures->min;
                entry["max"] = figures->max;
                entry["mean"] = figures->mean;
            }
        }
        counters.push_back(std::move(entry));
    }
    return counters;
}

/// Every CPU sample of the trace (not only the window's), per thread.
json samplesJson(const Trace& trace)
{
    json byThread = json::array();
    for (const ThreadSamples& t : trace.samples().threads())
        byThread.push_back(
            { { "pid", trace.processes()[t.process.value].pid }, { "tid", t.tid }, { "count", t.samples.size() } });
    return json { { "window", "trace" }, { "count", trace.samples().count() }, { "by_thread", byThread } };
}

} // namespace

namespace {

/// Writes the long lists of the report (gaps with their evidence, steps, kernels) straight to the output, one
/// member at a time: a DOM of tens of thousands of gaps cost most of the time of a full report.
class ReportListWriter {
public:
    ReportListWriter(const Trace& trace, JsonStreamWriter& out)
        : m_trace(trace)
        , m_out(out)
    { }

    void key(std::string_view name)
    {
        m_out.string(name);
        m_out.raw(": ");
    }
    void nullableInteger(bool present, std::int64_t value)
    {
        if (present)
            m_out.integer(value);
        else
            m_out.raw("null");
    }
    void process(ProcessIndex index)
    {
        const Process& p = m_trace.processes()[index.value];
        m_out.raw("{\"pid\": ");
        m_out.integer(p.pid);
        m_out.raw(", \"name\": ");
        m_out.raw(m_processTexts.quoted(2 * index.value, p.name));
        m_out.raw(", \"file\": ");
        m_out.raw(m_processTexts.quoted(2 * index.value + 1, p.sourceFile));
        m_out.raw("}, \"rank\": ");
        nullableInteger(p.rank.has_value(), p.rank.value_or(0));
    }
    void event(const std::optional<EventRef>& ref)
    {
        if (!ref) {
            m_out.raw("null");
            return;
        }
        const Event& e = m_trace.event(*ref);
        m_out.raw("{\"name\": ");
        m_out.raw(m_names.quoted(e.name.value, m_trace.name(e)));
        m_out.raw(", \"kind\": ");
        m_out.raw(m_kindNames.quoted(static_cast<std::uint32_t>(e.kind), eventKindName(e.kind)));
        m_out.raw(", \"lane\": ");
        m_out.raw(laneText(ref->lane));
        m_out.raw(", \"start_ns\": ");
        m_out.integer(e.start);
        m_out.raw(", \"end_ns\": ");
        m_out.integer(e.end);
        m_out.raw(", \"correlation\": ");
        nullableInteger(e.correlation != 0, e.correlation);
        m_out.raw("}");
    }
    void gap(const Gap& gap, const GapEvidence& evidence)
    {
        m_out.raw("{\"process\": ");
        process(gap.process);
        m_out.raw(", \"device\": ");
        m_out.integer(m_trace.devices()[gap.device.value].id);
        m_out.raw(", \"stream\": ");
        nullableInteger(gap.stream.has_value(), gap.stream ? m_trace.lanes()[gap.stream->value].stream : 0);
        m_out.raw(", \"start_ns\": ");
        m_out.integer(gap.start);
        m_out.raw(", \"end_ns\": ");
        m_out.integer(gap.end);
        m_out.raw(", \"duration_ns\": ");
        m_out.integer(gap.duration());
        m_out.raw(", \"cause\": ");
        m_out.raw(m_causeNames.quoted(static_cast<std::uint32_t>(gap.cause), gapCauseName(gap.cause)));
        m_out.raw(",\n     \"evidence\": {\"summary\": ");
        m_out.string(evidence.summary);
        m_out.raw(",\n       \"closing_op\": ");
        event(evidence.closingOp);
        m_out.raw(",\n       \"launch\": ");
        event(evidence.launch);
        m_out.raw(",\n       \"sync_call\": ");
        event(evidence.syncCall);
        m_out.raw(",\n       \"host_range\": ");
        event(evidence.hostRange);
        m_out.raw(",\n       \"samples\": ");
        samples(evidence.samples);
        m_out.raw(",\n       \"memory\": ");
        memoryChange(evidence.memoryChange);
        m_out.raw("}}");
    }
    /// {"track": NAME, "time_ns": T, "bytes": +N or -N}, or null.
    void memoryChange(const std::optional<GapEvidence::CounterStep>& step)
    {
        if (!step) {
            m_out.raw("null");
            return;
        }
        const CounterTrack& track = m_trace.counters().tracks()[step->track];
        const CounterPoint& point = track.points[step->point];
        const double before = step->point > 0 ? track.points[step->point - 1].value : 0.0;
        m_out.raw("{\"track\": ");
        m_out.string(track.name);
        m_out.raw(", \"time_ns\": ");
        m_out.integer(point.time);
        m_out.raw(", \"bytes\": ");
        m_out.integer(static_cast<std::int64_t>(point.value - before));
        m_out.raw("}");
    }
    /// {"count": N, "top": [{"function", "module", "self", "total"}, ...]}, or null.
    void samples(const std::optional<GapEvidence::Samples>& samples)
    {
        if (!samples) {
            m_out.raw("null");
            return;
        }
        m_out.raw("{\"count\": ");
        m_out.unsignedInteger(samples->count);
        m_out.raw(", \"top\": [");
        for (std::size_t i = 0; i < samples->top.size(); ++i) {
            const SampledFunction& f = samples->top[i];
            m_out.raw(i ? ", {\"function\": " : "{\"function\": ");
            m_out.string(m_trace.strings().view(f.frame.function));
            m_out.raw(", \"module\": ");
            m_out.string(m_trace.strings().view(f.frame.module));
            m_out.raw(", \"self\": ");
            m_out.unsignedInteger(f.self);
            m_out.raw(", \"total\": ");
            m_out.unsignedInteger(f.total);
            m_out.raw("}");
        }
        m_out.raw("]}");
    }
    void step(const Step& s)
    {
        m_out.raw("{\"process\": ");
        process(s.process);
        m_out.raw(", \"name\": ");
        m_out.string(s.name);
        m_out.raw(", \"start_ns\": ");
        m_out.integer(s.start);
        m_out.raw(", \"end_ns\": ");
        m_out.integer(s.end);
        m_out.raw(", \"duration_ns\": ");
        m_out.integer(s.end - s.start);
        m_out.raw(s.warmup ? ", \"warmup\": true}" : ", \"warmup\": false}");
    }
    void kernel(const KernelStats& k)
    {
        m_out.raw("{\"name\": ");
        m_out.string(k.name);
        m_out.raw(", \"count\": ");
        m_out.unsignedInteger(k.count);
        const std::pair<const char*, TimeNs> figures[]
            = { { ", \"total_ns\": ", k.totalNs }, { ", \"mean_ns\": ", k.meanNs }, { ", \"p50_ns\": ", k.p50Ns },
                  { ", \"p95_ns\": ", k.p95Ns }, { ", \"max_ns\": ", k.maxNs } };
        for (const auto& [name, value] : figures) {
            m_out.raw(name);
            m_out.integer(value);
        }
        m_out.raw("}");
    }
    /// `"name": [` items `]`, one item a line.
    template <typename Items, typename Write> void list(std::string_view name, const Items& items, Write&& write)
    {
        m_out.raw(",\n  ");
        key(name);
        m_out.raw("[");
        bool first = true;
        for (const auto& item : items) {
            m_out.raw(first ? "\n    " : ",\n    ");
            first = false;
            write(item);
        }
        m_out.raw(first ? "]" : "\n  ]");
    }

private:
    /// laneLabel() as JSON, made once per lane: each gap names up to four events, most on the same few lanes.
    std::string_view laneText(LaneIndex lane)
    {
        if (m_laneTexts.contains(lane.value))
            return m_laneTexts.quoted(lane.value, {});
        return m_laneTexts.quoted(lane.value, laneLabel(m_trace, lane));
    }

    const Trace& m_trace;
    JsonStreamWriter& m_out;
    // The names each gap repeats, quoted once (the same kernels, threads and processes in thousands of gaps).
    QuotedJsonStrings m_names; // by StringId
    QuotedJsonStrings m_kindNames; // by EventKind
    QuotedJsonStrings m_causeNames; // by GapCause
    QuotedJsonStrings m_laneTexts; // by lane
    QuotedJsonStrings m_processTexts; // name and file of process p at 2p and 2p + 1
};

} // namespace

void writeReportJson(std::ostream& stream, const Trace& trace, const AnalysisResult& result,
    const ReportOptions& options, const nlohmann::json* job)
{
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

    json processes = json::array();
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        json entry = processJson(trace, ProcessIndex { p });
        entry["rank"] = rankJson(trace, ProcessIndex { p });
        if (p < result.windows.size())
            entry["window"] = windowJson(result.windows[p]);
        const StepStats* stats = stepStatsFor(result, ProcessIndex { p });
        const StepStats steps = stats ? *stats : StepStats {};
        entry["step_summary"] = { { "count", steps.count }, { "warmup", steps.warmup }, { "p50_ns", steps.p50Ns },
            { "p95_ns", steps.p95Ns } };
        processes.push_back(entry);
    }

    json devices = json::array();
    for (const DeviceFigures& d : result.devices) {
        const Device& device = trace.devices()[d.device.value];
        json entry = windowFiguresJson(d);
        entry.update({
            { "process", processJson(trace, d.process) },
            { "rank", rankJson(trace, d.process) },
            { "id", device.id },
            { "name", device.name },
            { "window", windowJson(d.window) },
        });
        devices.push_back(std::move(entry));
    }

    json warnings = json::array();
    for (const ImportWarning& w : trace.warnings())
        warnings.push_back(
            { { "file", w.file }, { "byte_offset", w.place.empty() ? json(w.byteOffset) : json(nullptr) },
                { "place", w.place.empty() ? json(nullptr) : json(w.place) }, { "message", w.message } });

    // First, as the text report's first line: every figure after it covers only what was read.
    json cutShort = json::array();
    for (const CutShortFile& cut : cutShortFiles(trace))
        cutShort.push_back(
            { { "file", cut.file }, { "file_bytes", cut.fileBytes ? json(*cut.fileBytes) : json(nullptr) },
                { "content_read_bytes", cut.contentOffset }, { "message", cutShortLine(cut) } });

    JsonStreamWriter out(stream);
    ReportListWriter lists(trace, out);
    const auto member = [&](std::string_view name, const json& value, bool first = false) {
        out.raw(first ? "{\n  " : ",\n  ");
        lists.key(name);
        out.raw(value.dump());
    };
    member("cut_short", cutShort, true);
    member("window", window);
    member("activity", activitySetName(options.analysis.activity));
    member("launch_threshold_ns", options.analysis.launchThresholdNs);
    if (options.load.active()) // only then: a whole load's report keeps its keys
        member("loaded", options.load.describe());
    member("gpu_activity", result.hasGpuActivity);
    member("processes", processes);
    member("devices", devices);
    member("samples", samplesJson(trace));
    member("counters", countersJson(trace, result));

    const std::vector<std::size_t> longest
        = longestGaps(result.gaps, options.top.value_or(std::numeric_limits<std::size_t>::max()), false);
    GapEvidenceFinder finder(trace, result.options.launchThresholdNs);
    lists.list("gaps", longest, [&](std::size_t index) {
        const Gap gap = result.gaps[index];
        lists.gap(gap, finder.evidence(gap));
    });
    lists.list("steps", result.steps, [&](const Step& s) { lists.step(s); });
    const std::size_t kernelCount = std::min(result.kernels.size(), options.top.value_or(result.kernels.size()));
    lists.list("kernels", std::vector<KernelStats>(result.kernels.begin(), result.kernels.begin() + kernelCount),
        [&](const KernelStats& k) { lists.kernel(k); });
    json metrics = json::array();
    for (const MetricSpec& m : measuredMetrics(options.metrics)) {
        MetricSamples samples = metricSamples(trace, result, m);
        std::vector<TimeNs>& v = samples.values;
        const std::size_t n = v.size();
        const json p50 = n ? json(nearestRankPercentile(v, 0.50)) : json(nullptr);
        const json p95 = n ? json(nearestRankPercentile(v, 0.95)) : json(nullptr);
        metrics.push_back({ { "name", m.name }, { "spec", m.specText() }, { "window", windowKindName(samples.window) },
            { "n", n }, { "p50_ns", p50 }, { "p95_ns", p95 } });
    }
    member("metrics", metrics);
    member("import", json { { "skipped_events", trace.skippedEvents() }, { "warnings", warnings } });
    if (job)
        member("job", *job);
    out.raw("\n}\n");
}

} // namespace gapscope::cli
