// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include "core/analysis/busy_spans.h"
#include "core/analysis/device_pass.h"
#include "core/analysis/gap_finder.h"
#include "core/analysis/host_scan.h"
#include "core/analysis/name_classes.h"
#include "core/analysis/nearest_rank.h"
#include "core/analysis/steps_internal.h"
#include "core/model/huge_pages.h"
#include "core/model/process_order.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace gapscope {

namespace {

StepStats stepStatsOf(ProcessIndex process, const std::vector<Step>& steps)
{
    StepStats stats;
    stats.process = process;
    std::vector<TimeNs> durations;
    for (const Step& step : steps) {
        if (step.warmup)
            ++stats.warmup;
        else
            durations.push_back(step.end - step.start);
    }
    stats.count = durations.size();
    if (durations.empty())
        return stats;
    TimeNs total = 0;
    for (TimeNs d : durations)
        total += d;
    stats.meanNs = total / static_cast<TimeNs>(durations.size());
    stats.p50Ns = nearestRankPercentile(durations, 0.50);
    stats.p95Ns = nearestRankPercentile(durations, 0.95);
    return stats;
}

/// An empty run of gaps of `device` (and `stream`) with room for `capacity` (capacity never touched costs
/// nothing).
GapRun gapRun(const Trace& trace, DeviceIndex device, std::optional<LaneIndex> stream, std::size_t capacity)
{
    GapRun run { trace.devices()[device.value].process, device, stream, {} };
    run.gaps.reserve(capacity); // on huge pages from 8 MiB up (HugePageAllocator)
    return run;
}

std::size_t eventsOn(const Trace& trace, const std::vector<LaneIndex>& lanes, std::size_t first = 0)
{
    std::size_t events = 0;
    for (std::size_t i = first; i < lanes.size(); ++i)
        events += trace.lanes()[lanes[i].value].events.size();
    return events;
}

/// The threads options.threads asks for.
unsigned threadsFor(const AnalysisOptions& options)
{
    return threadsOrCores(options.threads);
}

/// The events of `lanes` that start in `slice`.
std::size_t eventsStartingIn(const Trace& trace, const std::vector<LaneIndex>& lanes, TimeSlice slice)
{
    std::size_t events = 0;
    for (LaneIndex l : lanes)
        events += eventsStartingIn(trace.lanes()[l.value], slice).size();
    return events;
}

/// Where to cut a device's activity into time slices of about equal work: at the starts of evenly spaced
/// events of its busiest stream, strictly inside the window; none if the device has fewer than
/// options.parallelFromEvents events or one thread is asked for. Eight slices per thread, taken by the threads
/// as they come free: one thread that runs slower than the others (a busy core) then holds up the end by an
/// eighth of its share, not by half (measured against two slices per thread alternated in one process: median
/// 111 -> 100 ms for BM_IdleGapAnalysis/10000000; without slices it took 234 ms).
std::vector<TimeNs> sliceCuts(
    const Trace& trace, const std::vector<LaneIndex>& lanes, const Window& window, const AnalysisOptions& options)
{
    std::vector<TimeNs> cuts;
    const std::size_t events = eventsOn(trace, lanes);
    const unsigned threads = threadsFor(options);
    if (events == 0 || events < options.parallelFromEvents || threads < 2 || window.ranges.empty())
        return cuts;
    const Lane* busiest = nullptr;
    for (LaneIndex l : lanes) {
        if (!busiest || trace.lanes()[l.value].events.size() > busiest->events.size())
            busiest = &trace.lanes()[l.value];
    }
    const std::size_t slices = 8 * static_cast<std::size_t>(threads);
    const std::size_t n = busiest->events.size();
    for (std::size_t k = 1; k < slices; ++k) {
        const TimeNs cut = busiest->events[n * k / slices].start;
        if (cut > window.start() && cut < window.end() && (cuts.empty() || cut > cuts.back()))
            cuts.push_back(cut);
    }
    return cuts;
}

/// Adds gaps (indices in result.gaps) to the result's ranking of the longest device gaps, which keeps
/// options.rankedDeviceGaps of them.
void rankDeviceGaps(const std::vector<std::size_t>& candidates, const AnalysisOptions& options, AnalysisResult& result)
{
    std::vector<RankedGap> ranking;
    for (std::size_t i : result.longestDeviceGaps)
        ranking.push_back({ result.gaps[i].duration(), i });
    for (std::size_t i : candidates)
        ranking.push_back({ result.gaps[i].duration(), i });
    std::sort(ranking.begin(), ranking.end(), rankedBefore);
    ranking.erase(std::unique(ranking.begin(), ranking.end(),
                      [](const RankedGap& a, const RankedGap& b) { return a.index == b.index; }),
        ranking.end());
    ranking.resize(std::min(ranking.size(), options.rankedDeviceGaps));
    result.longestDeviceGaps.clear();
    for (const RankedGap& r : ranking)
        result.longestDeviceGaps.push_back(r.index);
}

/// Device figures and device gaps of one device, appended to `result`.
void analyzeDevice(const Trace& trace, DeviceIndex device, const NameClasses& names, const LaneSummaries& summaries,
    const GapClassifier& classifier, const AnalysisOptions& options, AnalysisResult& result)
{
    const ProcessIndex process = trace.devices()[device.value].process;
    const Window& window = result.windows[process.value];
    const std::vector<LaneIndex> lanes = streamLanesOf(trace, device);
    const std::size_t events = eventsOn(trace, lanes);

    DeviceFigures figures;
    figures.device = device;
    figures.process = process;
    figures.window = window;
    figures.spanNs = window.length();
    const std::vector<TimeNs> cuts = sliceCuts(trace, lanes, window, options);
    // What each thread writes lies on cache lines of its own: the emitters update their state at every gap.
    struct alignas(128) Slice {
        TimeSlice extent;
        IntervalSet window;
        GapRun gaps;
        std::optional<GapEmitter> emitter;
        DeviceMeasure measure;
    };
    const std::size_t sliceCount = cuts.size() + 1;
    std::vector<Slice> slices(sliceCount);
    for (std::size_t i = 0; i < sliceCount; ++i) {
        Slice& slice = slices[i];
        slice.extent = { i == 0 ? std::numeric_limits<TimeNs>::min() : cuts[i - 1],
            i == cuts.size() ? std::numeric_limits<TimeNs>::max() : cuts[i] };
        slice.window = cuts.empty() ? window.ranges : window.ranges.clip({ slice.extent.from, slice.extent.to });
        // At most a gap per span and one at each range's end; at most a span per event, and one from what is
        // left running at the slice's start.
        const std::size_t capacity = cuts.empty() ? events : eventsStartingIn(trace, lanes, slice.extent) + 1;
        slice.gaps = gapRun(trace, device, std::nullopt, capacity + window.ranges.intervals().size());
        // One more than asked: the join can take a gap off a slice's list.
        slice.emitter.emplace(slice.window, classifier, slice.gaps, options.rankedDeviceGaps + 1);
    }
    // Each thread takes the next slice not taken yet; this one too.
    parallelFor(sliceCount, threadsFor(options), [&](std::size_t i) {
        Slice& slice = slices[i];
        slice.measure = measureDevice(
            trace, lanes, names, &summaries, options.activity, slice.window, slice.extent, *slice.emitter);
        slice.emitter->finish();
    });
    // The slices' gaps joined at the cuts, left to right.
    DeviceMeasure measure = slices[0].measure;
    GapEmitter& gaps = *slices[0].emitter;
    for (std::size_t i = 1; i < sliceCount; ++i) {
        gaps.join(*slices[i].emitter, cuts[i - 1]);
        measure += slices[i].measure;
    }
    figures.gapCount = 0;
    for (const Slice& slice : slices)
        figures.gapCount += slice.gaps.gaps.size();
    // The ranking's candidates: each slice's longest, those the join left in its list, and the gap the join
    // may have made longer.
    std::vector<std::size_t> candidates;
    std::size_t base = result.gaps.size();
    for (std::size_t i = 0; i < sliceCount; ++i) {
        for (const RankedGap& r : slices[i].emitter->ranked()) {
            if (r.index < slices[i].gaps.gaps.size())
                candidates.push_back(base + r.index);
        }
        if (i > 0 && !slices[i].gaps.gaps.empty())
            candidates.push_back(base);
        base += slices[i].gaps.gaps.size();
        result.gaps.append(std::move(slices[i].gaps));
    }
    rankDeviceGaps(candidates, options, result);
    result.hasGpuActivity = result.hasGpuActivity || activityExtent(trace, device, ActivitySet::All).has_value();
    figures.exposed = measure.exposed;
    figures.busyNs = measure.busyInWindow;
    figures.idleNs = figures.spanNs - figures.busyNs;
    figures.utilization = utilizationOf(figures.busyNs, figures.spanNs);
    figures.idleByCause = gaps.idleByCause();
    result.devices.push_back(std::move(figures));
}

/// The stream gaps of one device (with causes), appended to `gaps`: each stream on its own, into a run of its
/// own, and on large devices the later streams on a second thread.
void appendStreamGaps(const Trace& trace, DeviceIndex device, const NameClasses& names, const LaneSummaries& summaries,
    const GapClassifier& classifier, const AnalysisOptions& options, const Window& window, GapList& gaps)
{
    const std::vector<LaneIndex> lanes = streamLanesOf(trace, device);
    const std::size_t events = eventsOn(trace, lanes);
    const auto streamGapsOf = [&](std::size_t first, std::size_t last) {
        std::vector<GapRun> out;
        for (std::size_t i = first; i < last; ++i) {
            GapRun& run = out.emplace_back(gapRun(trace, device, lanes[i],
                trace.lanes()[lanes[i].value].events.size() + window.ranges.intervals().size()));
            GapEmitter laneGaps(window.ranges, classifier, run);
            measureDevice(trace, { lanes[i] }, names, &summaries, options.activity, window.ranges, {}, laneGaps);
            // "Per stream that has activity": a stream with none has no gaps of its own.
            if (laneGaps.sawActivity())
                laneGaps.finish();
        }
        return out;
    };
    std::size_t split = lanes.size();
    if (events >= options.parallelFromEvents && threadsFor(options) > 1)
        split = halfWeightSplit(
            lanes.size(), events, [&](std::size_t i) { return trace.lanes()[lanes[i].value].events.size(); });
    const std::size_t bounds[] = { 0, split, lanes.size() };
    std::vector<GapRun> parts[2];
    parallelFor(2, split < lanes.size() ? 2 : 1,
        [&](std::size_t part) { parts[part] = streamGapsOf(bounds[part], bounds[part + 1]); });
    std::vector<GapRun>& runs = parts[0];
    runs.insert(runs.end(), std::make_move_iterator(parts[1].begin()), std::make_move_iterator(parts[1].end()));
    for (GapRun& run : runs)
        gaps.append(std::move(run));
}

} // namespace

const StepStats* stepStatsFor(const AnalysisResult& result, ProcessIndex process)
{
    for (const StepStats& stats : result.stepStats) {
        if (stats.process == process)
            return &stats;
    }
    return nullptr;
}

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options)
{
    return analyze(trace, LaneSummaries(trace), options);
}

AnalysisResult analyze(const Trace& trace, const LaneSummaries& summaries, const AnalysisOptions& options)
{
    AnalysisResult result;
    result.options = options;
    const auto analyzed = [&options](ProcessIndex p) { return !options.process || *options.process == p; };
    const NameClasses names(trace, options.stepPattern, result.warnings);
    HostScan host = scanHostLanes(trace, summaries, names, options.process);

    // Steps, devices and gaps are listed with the ranks of a job in rank order, as every view shows them.
    for (const ProcessIndex process : processesInRankOrder(trace)) {
        const std::uint32_t p = process.value;
        if (!analyzed(process) || host.stepRanges[p].empty())
            continue;
        std::vector<Step> steps
            = stepsOfProcess(trace, process, std::move(host.stepRanges[p]), options.window.warmupSteps);
        if (steps.empty())
            continue;
        result.stepStats.push_back(stepStatsOf(process, steps));
        result.steps.insert(
            result.steps.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
    }

    result.windows.resize(trace.processes().size());
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        result.windows[p].kind = options.window.kind;
        if (analyzed(ProcessIndex { p }))
            result.windows[p]
                = computeWindow(trace, ProcessIndex { p }, options.window, options.activity, result.steps);
    }

    const GapClassifier classifier(trace, host.syncCalls, options.launchThresholdNs);
    const std::vector<DeviceIndex> devices = devicesInRankOrder(trace);
    for (const DeviceIndex d : devices) {
        if (options.stop.stop_requested()) {
            result.stopped = true;
            return result;
        }
        if (analyzed(trace.devices()[d.value].process))
            analyzeDevice(trace, d, names, summaries, classifier, options, result);
    }
    // Stream gaps after every device gap, straight into the list.
    for (std::size_t i = 0; options.streamGaps && i < devices.size(); ++i) {
        if (options.stop.stop_requested()) {
            result.stopped = true;
            return result;
        }
        const ProcessIndex process = trace.devices()[devices[i].value].process;
        if (analyzed(process))
            appendStreamGaps(
                trace, devices[i], names, summaries, classifier, options, result.windows[process.value], result.gaps);
    }

    if (options.kernelStatistics)
        result.kernels = kernelStatistics(trace, result.windows, options.process);
    return result;
}

} // namespace gapscope
