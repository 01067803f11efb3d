// SPDX-License-Identifier: MIT
#include "core/experiment/metric_samples.h"

#include <algorithm>
#include <regex>

namespace gapscope {

namespace {

/// Whether a name matches the metric's pattern, asked once per distinct name (a trace of millions of events
/// holds a few thousand names).
class NameMatcher {
public:
    NameMatcher(const Trace& trace, const std::string& pattern)
        : m_trace(trace)
        , m_regex(pattern, std::regex::ECMAScript)
        , m_known(trace.strings().size(), kUnknown)
    { }
    bool matches(const Event& e)
    {
        std::int8_t& known = m_known[e.name.value];
        if (known == kUnknown)
            known = std::regex_search(m_trace.name(e).begin(), m_trace.name(e).end(), m_regex) ? 1 : 0;
        return known == 1;
    }

private:
    static constexpr std::int8_t kUnknown = -1;
    const Trace& m_trace;
    std::regex m_regex;
    std::vector<std::int8_t> m_known;
};

bool isHostRange(EventKind kind)
{
    return kind == EventKind::NvtxRange || kind == EventKind::CpuOp || kind == EventKind::PythonFunction
        || kind == EventKind::UserAnnotation;
}

/// The window of each process the metric is taken over (index = ProcessIndex); empty: not measured.
std::vector<Interval> metricWindows(
    const Trace& trace, const AnalysisResult& result, std::optional<ProcessIndex> only, WindowKind& kind)
{
    std::vector<Interval> windows(trace.processes().size(), Interval { 0, 0 });
    bool first = true;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        if ((result.options.process && result.options.process->value != p) || (only && only->value != p))
            continue;
        const Window* window = p < result.windows.size() ? &result.windows[p] : nullptr;
        if (window && !window->ranges.empty()) {
            windows[p] = Interval { window->start(), window->end() };
            kind = first ? window->kind : kind;
        } else {
            const Window whole = computeWindow(trace, ProcessIndex { p }, WindowSpec { WindowKind::Trace }, {}, {});
            windows[p] = Interval { whole.start(), whole.end() };
            kind = WindowKind::Trace;
        }
        first = false;
    }
    return windows;
}

void hostRangeSamples(
    const Trace& trace, const std::vector<Interval>& windows, const MetricSpec& spec, std::vector<TimeNs>& values)
{
    NameMatcher matcher(trace, spec.pattern);
    // first: the earliest end of a match per process.
    std::vector<std::optional<TimeNs>> firstEnd(trace.processes().size());
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind != LaneKind::CpuThread)
            continue;
        const Interval window = windows[lane.process.value];
        if (window.end <= window.start)
            continue;
        std::optional<TimeNs> previousStart;
        for (const Event& e : lane.events) {
            if (e.start >= window.end)
                break; // sorted by start
            if (e.end <= window.start && !(e.start == e.end && e.start >= window.start))
                continue; // ends before the window (a zero-length range at its start is in it)
            if (!isHostRange(e.kind) || !matcher.matches(e))
                continue;
            switch (spec.kind) {
            case MetricKind::Range:
                values.push_back(e.duration());
                break;
            case MetricKind::Interval:
                if (previousStart)
                    values.push_back(e.start - *previousStart);
                previousStart = e.start;
                break;
            case MetricKind::First: {
                std::optional<TimeNs>& end = firstEnd[lane.process.value];
                end = end ? std::min(*end, e.end) : e.end;
                break;
            }
            case MetricKind::Step:
            case MetricKind::Gpu:
                break;
            }
        }
    }
    for (std::size_t p = 0; p < firstEnd.size(); ++p) {
        if (firstEnd[p])
            values.push_back(*firstEnd[p] - windows[p].start);
    }
}

void gpuSamples(const Trace& trace, const AnalysisResult& result, const MetricSpec& spec,
    std::optional<ProcessIndex> only, std::vector<TimeNs>& values)
{
    NameMatcher matcher(trace, spec.pattern);
    for (const Step& step : result.steps) {
        if (step.warmup || (only && step.process != *only))
            continue;
        TimeNs total = 0;
        for (const Lane& lane : trace.lanes()) {
            if (lane.kind != LaneKind::GpuStream || lane.process != step.process)
                continue;
            const auto from = std::partition_point(
                lane.events.begin(), lane.events.end(), [&](const Event& e) { return e.start < step.start; });
            for (auto e = from; e != lane.events.end() && e->start < step.end; ++e) {
                if (e->kind == EventKind::Kernel && matcher.matches(*e))
                    total += e->duration();
            }
        }
        values.push_back(total);
    }
}

} // namespace

MetricSamples metricSamples(
    const Trace& trace, const AnalysisResult& result, const MetricSpec& spec, std::optional<ProcessIndex> only)
{
    MetricSamples samples;
    samples.window = result.options.window.kind;
    switch (spec.kind) {
    case MetricKind::Step:
        for (const Step& step : result.steps) {
            if (!step.warmup && (!only || step.process == *only))
                samples.values.push_back(step.end - step.start);
        }
        break;
    case MetricKind::Gpu:
        gpuSamples(trace, result, spec, only, samples.values);
        break;
    case MetricKind::Range:
    case MetricKind::Interval:
    case MetricKind::First: {
        const std::vector<Interval> windows = metricWindows(trace, result, only, samples.window);
        hostRangeSamples(trace, windows, spec, samples.values);
        break;
    }
    }
    return samples;
}

} // namespace gapscope
