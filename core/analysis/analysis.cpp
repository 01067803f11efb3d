// SPDX-License-Identifier: MIT
#include "core/analysis/analysis.h"

#include "core/analysis/busy_spans.h"
#include "core/analysis/gap_finder.h"
#include "core/analysis/host_scan.h"
#include "core/analysis/name_classes.h"
#include "core/analysis/nearest_rank.h"
#include "core/analysis/steps_internal.h"
#include "core/model/huge_pages.h"

#include <algorithm>
#include <future>
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

/// Room for `more` gaps without reallocating for each device or stream (capacity never touched costs nothing).
void reserveMore(std::vector<Gap>& gaps, std::size_t more)
{
    const std::size_t needed = gaps.size() + more;
    if (gaps.capacity() < needed) {
        std::vector<Gap> fresh;
        fresh.reserve(std::max(needed, 2 * gaps.capacity()));
        adviseHugePages(fresh.data(), fresh.capacity() * sizeof(Gap));
        fresh.insert(fresh.end(), gaps.begin(), gaps.end());
        gaps.swap(fresh);
    }
}

/// Device figures and gaps of one device, appended to `result`; stream gaps go to `streamGaps`.
void analyzeDevice(const Trace& trace, DeviceIndex device, const DeviceActivity& activity,
    const GapClassifier& classifier, const AnalysisOptions& options, AnalysisResult& result,
    std::vector<Gap>& streamGaps)
{
    const ProcessIndex process = trace.devices[device.value].process;
    const Window& window = result.windows[process.value];
    const std::size_t spans = activity.computeKernels.size() + activity.communication.size() + activity.memsets.size()
        + activity.memcpys.size();
    result.hasGpuActivity = result.hasGpuActivity || spans > 0;

    DeviceFigures figures;
    figures.device = device;
    figures.process = process;
    figures.window = window;
    figures.spanNs = window.length();
    Gap prototype;
    prototype.process = process;
    prototype.device = device;
    const std::size_t firstGap = result.gaps.size();
    reserveMore(result.gaps, spans + window.ranges.intervals().size());
    GapEmitter gaps(window.ranges, prototype, classifier, result.gaps);
    const DeviceUnion unions
        = uniteDeviceActivity(activity, options.activity, window.ranges, [&gaps](const BusySpan& s) { gaps.add(s); });
    gaps.finish();
    figures.exposed = unions.exposed;
    figures.busyNs = unions.busyInWindow;
    figures.idleNs = figures.spanNs - figures.busyNs;
    figures.utilization
        = figures.spanNs > 0 ? static_cast<double>(figures.busyNs) / static_cast<double>(figures.spanNs) : 0.0;
    figures.idleByCause = gaps.idleByCause();
    figures.gapCount = result.gaps.size() - firstGap;
    result.devices.push_back(std::move(figures));

    if (!options.streamGaps)
        return;
    for (LaneIndex lane : streamLanesOf(trace, device)) {
        prototype.stream = lane;
        reserveMore(streamGaps, trace.lanes[lane.value].events.size() + window.ranges.intervals().size());
        GapEmitter laneGaps(window.ranges, prototype, classifier, streamGaps);
        // "Per stream that has activity": a stream with none has no gaps of its own.
        if (!laneBusySpans(trace, lane, options.activity, [&laneGaps](const BusySpan& s) { laneGaps.add(s); }))
            continue;
        laneGaps.finish();
    }
}

} // namespace

AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options)
{
    AnalysisResult result;
    result.options = options;
    const auto analyzed = [&options](ProcessIndex p) { return !options.process || *options.process == p; };
    const NameClasses names(trace, options.stepPattern, result.warnings);
    // The host pass and the device passes read disjoint lanes and share nothing mutable: on large traces
    // the host pass runs on a second thread meanwhile.
    std::size_t hostLaneEvents = 0;
    for (const Lane& lane : trace.lanes) {
        if (lane.kind == LaneKind::CpuThread && analyzed(lane.process))
            hostLaneEvents += lane.events.size();
    }
    constexpr std::size_t kConcurrentHostScanFrom = 1'000'000;
    std::future<HostScan> pendingHost;
    std::optional<HostScan> hostNow;
    if (hostLaneEvents >= kConcurrentHostScanFrom)
        pendingHost = std::async(std::launch::async, [&] { return scanHostLanes(trace, names, options.process); });
    else
        hostNow = scanHostLanes(trace, names, options.process);
    std::vector<std::optional<DeviceActivity>> activities(trace.devices.size());
    for (std::uint32_t d = 0; d < trace.devices.size(); ++d) {
        if (analyzed(trace.devices[d].process))
            activities[d] = scanDeviceActivity(trace, DeviceIndex { d }, names);
    }
    HostScan host = hostNow ? std::move(*hostNow) : pendingHost.get();

    for (std::uint32_t p = 0; p < trace.processes.size(); ++p) {
        const ProcessIndex process { p };
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

    result.windows.resize(trace.processes.size());
    for (std::uint32_t p = 0; p < trace.processes.size(); ++p) {
        result.windows[p].kind = options.window.kind;
        if (analyzed(ProcessIndex { p }))
            result.windows[p]
                = computeWindow(trace, ProcessIndex { p }, options.window, options.activity, result.steps);
    }

    const GapClassifier classifier(trace, host.syncCalls, options.launchThresholdNs);
    std::vector<Gap> streamGaps;
    for (std::uint32_t d = 0; d < trace.devices.size(); ++d) {
        if (activities[d]) {
            analyzeDevice(trace, DeviceIndex { d }, *activities[d], classifier, options, result, streamGaps);
            activities[d].reset();
        }
    }
    result.gaps.insert(
        result.gaps.end(), std::make_move_iterator(streamGaps.begin()), std::make_move_iterator(streamGaps.end()));

    if (options.kernelStatistics)
        result.kernels = kernelStatistics(trace, result.windows, options.process);
    return result;
}

} // namespace gapscope
