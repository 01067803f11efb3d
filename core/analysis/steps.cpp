// SPDX-License-Identifier: MIT
// Steps, docs/definitions.md, by the PyTorch profiler TensorBoard plugin's rule (torch_tb_profiler/profiler/
// event_parser.py, StepParser._find_device_steps and _update_steps_duration), which this reproduces on the
// plugin's own ResNet-50 sample to the microsecond:
//  - A GPU op belongs to step i when the runtime/driver call that launched it lies entirely inside step i's
//    CPU range (call start >= range start and call end <= range end; a call straddling a boundary counts
//    for no step).
//  - Step i spans [max(end of step i-1, CPU start), max(CPU end, latest end of its GPU ops)); a step with
//    no GPU op ends at max(CPU end, its start). Step 0's predecessor end is its CPU start, moved later to
//    the end of any GPU op that no step launched and that ended before step 0's first GPU op.
//  - Trailing steps with no GPU op are dropped, and so is the last remaining step when it has fewer than
//    80 % of the GPU ops of the step before it (the profiler probably missed some of its work).
//  - When no step launched any GPU op, the steps are the CPU ranges as they are.
#include "core/analysis/analysis.h"
#include "core/analysis/host_scan.h"
#include "core/analysis/name_classes.h"
#include "core/analysis/steps_internal.h"

#include <algorithm>
#include <limits>

namespace gapscope {

namespace {

struct ApiCall {
    TimeNs start;
    TimeNs end;
    EventRef ref;
};

bool refLess(EventRef a, EventRef b)
{
    return a.lane.value != b.lane.value ? a.lane.value < b.lane.value : a.index < b.index;
}

} // namespace

std::vector<Step> stepsOfProcess(
    const Trace& trace, ProcessIndex process, std::vector<EventRef> ranges, int warmupSteps)
{
    std::sort(ranges.begin(), ranges.end(), [&](EventRef a, EventRef b) {
        const Event& ea = trace.event(a);
        const Event& eb = trace.event(b);
        return ea.start != eb.start ? ea.start < eb.start : ea.end > eb.end;
    });
    // A range inside the previous step (a duplicate, or an NVTX range nested in a ProfilerStep) is not a step.
    std::vector<EventRef> cpu;
    for (EventRef r : ranges) {
        if (cpu.empty() || trace.event(r).end > trace.event(cpu.back()).end)
            cpu.push_back(r);
    }
    if (cpu.empty())
        return {};
    const TimeNs firstStart = trace.event(cpu.front()).start;
    TimeNs lastEnd = firstStart;
    for (EventRef r : cpu)
        lastEnd = std::max(lastEnd, trace.event(r).end);

    std::vector<ApiCall> calls;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind != LaneKind::CpuThread || lane.process != process)
            continue;
        const auto [first, last] = lane.visibleRange(firstStart, lastEnd + 1);
        for (std::size_t i = first; i < last; ++i) {
            const Event& e = lane.events[i];
            if ((e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi) && e.correlation != 0)
                calls.push_back({ e.start, e.end, { LaneIndex { l }, static_cast<std::uint32_t>(i) } });
        }
    }
    std::sort(calls.begin(), calls.end(), [](const ApiCall& a, const ApiCall& b) { return a.start < b.start; });

    constexpr TimeNs kNone = std::numeric_limits<TimeNs>::max();
    std::vector<TimeNs> deviceStart(cpu.size(), kNone);
    std::vector<TimeNs> deviceEnd(cpu.size(), std::numeric_limits<TimeNs>::min());
    std::vector<std::size_t> opCount(cpu.size(), 0);
    std::vector<EventRef> matched;
    for (std::size_t s = 0; s < cpu.size(); ++s) {
        const Event& range = trace.event(cpu[s]);
        auto it
            = std::partition_point(calls.begin(), calls.end(), [&](const ApiCall& c) { return c.start < range.start; });
        for (; it != calls.end() && it->start < range.end; ++it) {
            if (it->end > range.end)
                continue;
            for (EventRef op : trace.gpuOpsOf(it->ref)) {
                const Event& e = trace.event(op);
                if (!isGpuActivity(e.kind))
                    continue;
                deviceStart[s] = std::min(deviceStart[s], e.start);
                deviceEnd[s] = std::max(deviceEnd[s], e.end);
                ++opCount[s];
                matched.push_back(op);
            }
        }
    }

    std::vector<Step> steps;
    for (EventRef r : cpu) {
        const Event& e = trace.event(r);
        steps.push_back({ process, std::string(trace.name(e)), e.start, e.end, r, false });
    }
    if (!matched.empty()) {
        TimeNs previousEnd = steps.front().start;
        if (deviceStart[0] != kNone) {
            std::sort(matched.begin(), matched.end(), refLess);
            for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
                const Lane& lane = trace.lanes()[l];
                if (lane.kind != LaneKind::GpuStream || lane.process != process)
                    continue;
                for (std::uint32_t i = 0; i < lane.events.size() && lane.events[i].start < deviceStart[0]; ++i) {
                    const Event& e = lane.events[i];
                    if (isGpuActivity(e.kind) && e.end < deviceStart[0]
                        && !std::binary_search(
                            matched.begin(), matched.end(), EventRef { LaneIndex { l }, i }, refLess))
                        previousEnd = std::max(previousEnd, e.end);
                }
            }
        }
        for (std::size_t s = 0; s < steps.size(); ++s) {
            Step& step = steps[s];
            step.start = std::max(previousEnd, step.start);
            step.end = deviceStart[s] == kNone ? std::max(step.end, step.start) : std::max(step.end, deviceEnd[s]);
            step.end = std::max(step.end, step.start);
            previousEnd = step.end;
        }
        if (steps.size() > 1) {
            std::size_t last = steps.size();
            while (last > 0 && opCount[last - 1] == 0)
                --last;
            if (last > 0) {
                std::size_t keep = last;
                if (last > 1 && static_cast<double>(opCount[last - 2]) * 0.8 > static_cast<double>(opCount[last - 1]))
                    keep = last - 1;
                steps.resize(keep);
            }
        }
    }
    for (std::size_t s = 0; s < steps.size() && static_cast<int>(s) < warmupSteps; ++s)
        steps[s].warmup = true;
    return steps;
}

std::vector<Step> findSteps(const Trace& trace, const std::string& stepPattern, int warmupSteps)
{
    std::vector<std::string> warnings;
    const NameClasses names(trace, stepPattern, warnings);
    HostScan scan = scanHostLanes(trace, LaneSummaries(trace), names, std::nullopt);
    std::vector<Step> steps;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        auto processSteps = stepsOfProcess(trace, ProcessIndex { p }, std::move(scan.stepRanges[p]), warmupSteps);
        steps.insert(
            steps.end(), std::make_move_iterator(processSteps.begin()), std::make_move_iterator(processSteps.end()));
    }
    return steps;
}

} // namespace gapscope
