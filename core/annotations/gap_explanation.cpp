// SPDX-License-Identifier: MIT
#include "core/annotations/gap_explanation.h"

#include "core/analysis/gap_evidence.h"
#include "core/model/labels.h"
#include "core/model/time_format.h"

#include <algorithm>
#include <cstdio>

namespace gapscope {

namespace {

/// The median by nearest rank (one of the values); 0 when empty. Reorders `values`.
TimeNs median(std::vector<TimeNs>& values)
{
    if (values.empty())
        return 0;
    const auto middle = values.begin() + static_cast<std::ptrdiff_t>((values.size() - 1) / 2);
    std::nth_element(values.begin(), middle, values.end());
    return *middle;
}

std::string quoted(std::string_view name)
{
    return "`" + std::string(name) + "`";
}

std::string gpuLabel(const Trace& trace, const Gap& gap)
{
    return gap.stream ? laneLabel(trace, *gap.stream) : rankedDeviceLabel(trace, gap.device);
}

const DeviceFigures* figuresOf(const AnalysisResult& result, DeviceIndex device)
{
    for (const DeviceFigures& figures : result.devices) {
        if (figures.device == device)
            return &figures;
    }
    return nullptr;
}

/// Lanes of the device's streams, or only the gap's stream for a stream gap.
std::vector<LaneIndex> gpuLanesOf(const Trace& trace, const Gap& gap)
{
    if (gap.stream)
        return { *gap.stream };
    std::vector<LaneIndex> lanes;
    for (std::uint32_t i = 0; i < trace.lanes().size(); ++i) {
        const Lane& lane = trace.lanes()[i];
        if (lane.kind == LaneKind::GpuStream && lane.device == gap.device)
            lanes.push_back(LaneIndex { i });
    }
    return lanes;
}

void addLane(std::vector<LaneIdentity>& lanes, const LaneIdentity& lane)
{
    if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end())
        lanes.push_back(lane);
}

/// The run of consecutive gaps of the same device (or stream) that are all `launch` gaps, around `gap`.
std::pair<std::size_t, std::size_t> launchRun(const std::vector<const StoredGap*>& sameLane, std::size_t at)
{
    std::size_t first = at;
    std::size_t last = at;
    while (first > 0 && sameLane[first - 1]->cause() == GapCause::Launch)
        --first;
    while (last + 1 < sameLane.size() && sameLane[last + 1]->cause() == GapCause::Launch)
        ++last;
    return { first, last };
}

struct LaunchStretch {
    TimeNs start = 0;
    TimeNs end = 0;
    std::size_t gapCount = 0;
    TimeNs idleNs = 0;
    std::size_t kernelCount = 0;
    std::size_t shorterThanLaunch = 0;
    TimeNs kernelP50 = 0;
    TimeNs launchP50 = 0;
};

LaunchStretch measureLaunchStretch(const Trace& trace, const AnalysisResult& result, const Gap& gap)
{
    // The gaps of the same device (or stream), in time order, where the list keeps them.
    std::vector<const StoredGap*> sameLane;
    std::size_t at = 0;
    for (const GapRun& run : result.gaps.runs()) {
        if (run.device != gap.device || run.stream != gap.stream)
            continue;
        for (const StoredGap& g : run.gaps) {
            if (g.start == gap.start && g.end == gap.end)
                at = sameLane.size();
            sameLane.push_back(&g);
        }
    }
    LaunchStretch stretch { gap.start, gap.end, 1, gap.duration() };
    if (!sameLane.empty()) {
        const auto [first, last] = launchRun(sameLane, at);
        stretch.start = sameLane[first]->start;
        stretch.end = sameLane[last]->end;
        stretch.gapCount = last - first + 1;
        stretch.idleNs = 0;
        for (std::size_t i = first; i <= last; ++i)
            stretch.idleNs += sameLane[i]->duration();
    }
    // The kernels the gaps separate: those touching the stretch, its two ends included.
    std::vector<TimeNs> kernels;
    std::vector<TimeNs> launches;
    for (LaneIndex laneIndex : gpuLanesOf(trace, gap)) {
        const Lane& lane = trace.lanes()[laneIndex.value];
        const auto [begin, end] = lane.visibleRange(stretch.start, stretch.end + 1);
        for (std::size_t i = begin; i < end; ++i) {
            const Event& e = lane.events[i];
            if (e.kind != EventKind::Kernel || e.start > stretch.end || e.end < stretch.start)
                continue;
            kernels.push_back(e.duration());
            const auto launch = trace.launchOf(EventRef { laneIndex, static_cast<std::uint32_t>(i) });
            if (!launch)
                continue;
            const TimeNs launchCost = trace.event(*launch).duration();
            launches.push_back(launchCost);
            if (e.duration() < launchCost)
                ++stretch.shorterThanLaunch;
        }
    }
    stretch.kernelCount = kernels.size();
    stretch.kernelP50 = median(kernels);
    stretch.launchP50 = median(launches);
    return stretch;
}

/// "<what> on GPU d, starting +T from the trace start: P of the gpu window (W). Utilization ...; step time ...".
/// The start counts from the trace start, as the note's Range, the ruler and the Gaps dock count.
std::string baselineText(const Trace& trace, const AnalysisResult& result, const Gap& gap, TimeNs from,
    TimeNs measuredNs, const std::string& what)
{
    std::string text = what + " on " + gpuLabel(trace, gap);
    const DeviceFigures* figures = figuresOf(result, gap.device);
    if (figures && figures->spanNs > 0) {
        const Window& window = figures->window;
        const auto span = trace.timeSpan();
        text += ", starting " + formatRelativeTime(from, span ? span->first : 0) + " from the trace start: "
            + percentText(static_cast<double>(measuredNs) / static_cast<double>(figures->spanNs)) + " of the "
            + std::string(windowKindName(window.kind)) + " window (" + formatDuration(figures->spanNs)
            + "). GPU utilization over the window: " + percentText(figures->utilization) + "; idle time of cause "
            + std::string(gapCauseName(gap.cause))
            + " in the window: " + formatDuration(figures->idleByCause[static_cast<int>(gap.cause)]) + ".";
    } else {
        text += ".";
    }
    for (const StepStats& steps : result.stepStats) {
        if (steps.process == gap.process && steps.count > 0)
            text += " Step time p50 " + formatDuration(steps.p50Ns) + " over " + std::to_string(steps.count)
                + (steps.count == 1 ? " step" : " steps")
                + (steps.warmup > 0 ? " (" + std::to_string(steps.warmup) + " warm-up excluded)." : ".");
    }
    return text;
}

void explainHost(const Trace& trace, const Gap& gap, Annotation& a)
{
    const GapEvidence ev = gapEvidence(trace, gap);
    const std::string waited = formatDuration(gap.duration());
    std::string range = ev.hostRange ? quoted(trace.name(trace.event(*ev.hostRange))) : std::string();
    const std::string thread = ev.launch ? laneLabel(trace, ev.launch->lane) : std::string("the launching thread");
    const std::string launchName = ev.launch ? quoted(trace.name(trace.event(*ev.launch))) : std::string("the launch");
    if (range.empty())
        range = "the work before " + launchName;
    a.title = "Host-bound gap of " + waited + ": " + range;
    a.record.problem
        = "The GPU waited " + waited + " while the launching thread (" + thread + ") was in " + range + ".";
    if (ev.launch && ev.closingOp)
        a.record.problem += " The next GPU op, " + quoted(trace.name(trace.event(*ev.closingOp))) + ", was launched by "
            + launchName + " only " + formatDuration(trace.event(*ev.launch).start - gap.start)
            + " after the gap began.";
    a.record.hypothesis = "CPU-side " + range + " starves the GPU: while the thread runs it, no GPU work is queued.";
    a.record.change = "Overlap " + range
        + " with GPU work (more data-loader workers, prefetching, pinned memory with non_blocking copies) and "
          "compare the step time.";
    a.record.correctnessCheck
        = "Same results before and after (loss curve or outputs); the same batches reach the model in the same order.";
}

void explainSync(const Trace& trace, const Gap& gap, Annotation& a)
{
    const GapEvidence ev = gapEvidence(trace, gap);
    const std::string idle = formatDuration(gap.duration());
    const std::string call = ev.syncCall ? quoted(trace.name(trace.event(*ev.syncCall))) : "synchronizing call";
    a.title = "Sync gap of " + idle + ": " + call;
    a.record.problem = "The GPU sat idle for " + idle + " after a blocking " + call;
    if (ev.syncCall)
        a.record.problem += " on " + laneLabel(trace, ev.syncCall->lane) + " (begun "
            + formatDuration(gap.start - trace.event(*ev.syncCall).start) + " before the gap, lasting "
            + formatDuration(trace.event(*ev.syncCall).duration()) + ")";
    a.record.problem += ": the host waited for the queue to drain and only then issued the next work.";
    a.record.hypothesis = "A blocking " + call + " drains the queue; the GPU idles while the host refills it.";
    a.record.change = "Remove or defer the " + call
        + " (no .item(), .cpu() or printing of GPU tensors inside the step; use CUDA events or non_blocking copies) "
          "and compare the step time.";
    a.record.correctnessCheck = "Values read after the removed sync are complete when used: same outputs, and no race "
                                "on the data the sync protected.";
}

void explainLaunch(const Trace& trace, const AnalysisResult& result, const Gap& gap, Annotation& a)
{
    const LaunchStretch s = measureLaunchStretch(trace, result, gap);
    const std::string threshold = formatDuration(result.options.launchThresholdNs);
    a.start = s.start;
    a.end = s.end;
    a.title = "Launch-bound stretch: " + std::to_string(s.shorterThanLaunch) + " kernels shorter than their launch";
    a.record.problem = std::to_string(s.gapCount) + (s.gapCount == 1 ? " gap" : " consecutive gaps") + " of at most "
        + threshold + " (" + formatDuration(s.idleNs) + " idle in all, over " + formatDuration(s.end - s.start)
        + ") separate " + std::to_string(s.kernelCount) + " kernels; " + std::to_string(s.shorterThanLaunch)
        + " kernels are shorter than their launch cost (kernel p50 " + formatDuration(s.kernelP50)
        + ", launch call p50 " + formatDuration(s.launchP50)
        + "), so the GPU finishes each one before the next is issued.";
    a.record.hypothesis = "Launch overhead dominates here: " + std::to_string(s.shorterThanLaunch)
        + " kernels shorter than their launch cost fragment the GPU time.";
    a.record.change = "Capture the stretch in a CUDA graph (torch.cuda.graphs, torch.compile mode=\"reduce-overhead\") "
                      "or fuse the small kernels, and compare the step time.";
    a.record.correctnessCheck = "Same outputs; a CUDA graph needs static shapes and no host synchronization inside "
                                "the captured region.";
    // The bound keeps the experiment honest: graphs only remove the launch gaps, not the kernels' time.
    if (s.end > s.start)
        a.record.change += " The most it can win here is the launch idle time, " + formatDuration(s.idleNs) + " ("
            + percentText(static_cast<double>(s.idleNs) / static_cast<double>(s.end - s.start)) + " of the stretch).";
    a.record.baseline = baselineText(trace, result, gap, s.start, s.idleNs,
        formatDuration(s.idleNs) + " of launch gaps over " + formatDuration(s.end - s.start));
}

void explainDependency(const Trace& trace, const Gap& gap, Annotation& a)
{
    const GapEvidence ev = gapEvidence(trace, gap);
    const std::string idle = formatDuration(gap.duration());
    const std::string op = ev.closingOp ? quoted(trace.name(trace.event(*ev.closingOp))) : std::string("the next op");
    std::string waitedOn;
    std::string check;
    const std::optional<EventRef> wait = ev.awaitedWait;
    if (ev.closingOp && isCommunicationKernel(trace.name(trace.event(*ev.closingOp)))) {
        waitedOn = "the collective " + op + ", which starts only when every rank has joined";
        check = "compare when each rank reached the collective (rank skew) and what the late rank was doing";
    } else if (wait) {
        waitedOn = "the event of " + quoted(trace.name(trace.event(*wait))) + " (issued "
            + formatDuration(trace.event(*ev.launch).start - trace.event(*wait).start) + " before the launch)";
        check = "find the producer that records that event (another stream, another device or the host) and why it "
                "finished late";
    } else if (gap.stream) {
        const std::string busy = busyOtherStreams(trace, gap);
        waitedOn = busy.empty() ? std::string("work on another stream or device")
                                : "work on stream(s) " + busy + " of the same GPU, busy during the gap";
        check = "check the producer on the other stream and whether the dependency can be recorded earlier";
    } else {
        waitedOn = "an event, another stream or another device (a collective, a peer copy, another rank)";
        check = "check the producer of the awaited event or stream, and rank skew in a multi-GPU job";
    }
    a.title = "Dependency wait of " + idle + " before " + op;
    a.record.problem = op + " was launched";
    if (ev.launch)
        a.record.problem += " by " + quoted(trace.name(trace.event(*ev.launch))) + " "
            + formatDuration(gap.start - trace.event(*ev.launch).start) + " before the gap began";
    a.record.problem
        += ", yet started only when the gap ended: the GPU was idle " + idle + " while it waited on " + waitedOn + ".";
    a.record.hypothesis = "The op waited on " + waitedOn + ": a slow producer or a late peer, not the host.";
    a.record.change = "Check the producer: " + check
        + "; then issue the dependency earlier or overlap it, and compare "
          "the step time.";
    a.record.correctnessCheck = "Same outputs; the consumer still waits for every input it reads (no dropped "
                                "dependency).";
}

void explainUnknown(const Trace& trace, const Gap& gap, Annotation& a)
{
    const GapEvidence ev = gapEvidence(trace, gap);
    const std::string idle = formatDuration(gap.duration());
    const std::string op = ev.closingOp ? quoted(trace.name(trace.event(*ev.closingOp))) : std::string("the next op");
    a.title = "Unexplained gap of " + idle;
    a.record.problem = "The GPU was idle " + idle + " before " + op
        + ", and the trace holds no launch information for it (no CUDA runtime or driver API call with its "
          "correlation id), so host, sync, launch and dependency causes cannot be told apart.";
    a.record.hypothesis = "Unknown until the launching side is recorded.";
    a.record.change = "Record the launch calls too: the PyTorch profiler with ProfilerActivity.CPU and "
                      "ProfilerActivity.CUDA (runtime API events with correlation ids), or a GapScope capture; then "
                      "explain this gap again.";
    a.record.correctnessCheck = "None needed: recording changes nothing in the program.";
}

} // namespace

std::string_view whatToTry(GapCause cause)
{
    switch (cause) {
    case GapCause::Sync:
        return "A host thread was blocked in a synchronizing call when the GPU ran dry: the host "
               "drained the GPU and then had to refill it. Try removing the synchronization "
               "(.item(), .cpu(), blocking copies) or moving it off the critical path.";
    case GapCause::Host:
        return "The launch of the work that ended the gap started after the gap began: the GPU "
               "waited for the CPU to issue work (data loading, Python, scheduling). Try more "
               "data-loader workers, pinned memory, or overlapping host work with the GPU.";
    case GapCause::Launch:
        return "The work was launched before the gap and the gap is within the launch latency: "
               "fragmentation by small kernels. Try CUDA graphs or kernel fusion.";
    case GapCause::Dependency:
        return "The work was launched before the gap but started much later: it waited on "
               "something else (an event, another stream, a collective, another device).";
    case GapCause::Unknown:
        return "No launch information for the work that ended the gap (no correlated API call in "
               "the trace), so no cause can be suggested.";
    }
    return {};
}

Annotation explainGap(const Trace& trace, const AnalysisResult& result, const Gap& gap)
{
    Annotation a;
    a.start = gap.start;
    a.end = gap.end;
    a.status = AnnotationStatus::Open;
    a.colour = std::string(annotationStatusColour(AnnotationStatus::Open));

    const Device& device = trace.devices()[gap.device.value];
    GapOrigin origin;
    origin.pid = trace.processes()[gap.process.value].pid;
    origin.deviceId = device.id;
    if (gap.stream)
        origin.stream = trace.lanes()[gap.stream->value].stream;
    origin.start = gap.start;
    origin.end = gap.end;
    origin.cause = std::string(gapCauseName(gap.cause));
    a.gap = origin;

    const GapEvidence ev = gapEvidence(trace, gap, result.options.launchThresholdNs);
    if (gap.stream)
        addLane(a.lanes, laneIdentity(trace, *gap.stream));
    else if (ev.closingOp)
        addLane(a.lanes, laneIdentity(trace, ev.closingOp->lane));
    if (ev.launch)
        addLane(a.lanes, laneIdentity(trace, ev.launch->lane));
    if (gap.cause == GapCause::Sync && ev.syncCall)
        addLane(a.lanes, laneIdentity(trace, ev.syncCall->lane));

    switch (gap.cause) {
    case GapCause::Host:
        explainHost(trace, gap, a);
        break;
    case GapCause::Sync:
        explainSync(trace, gap, a);
        break;
    case GapCause::Launch:
        explainLaunch(trace, result, gap, a);
        break;
    case GapCause::Dependency:
        explainDependency(trace, gap, a);
        break;
    case GapCause::Unknown:
        explainUnknown(trace, gap, a);
        break;
    }
    if (a.record.baseline.empty())
        a.record.baseline
            = baselineText(trace, result, gap, gap.start, gap.duration(), "Gap of " + formatDuration(gap.duration()));
    if (!ev.summary.empty())
        a.record.problem += " Evidence: " + ev.summary + (ev.summary.ends_with('.') ? "" : ".");
    return a;
}

} // namespace gapscope
