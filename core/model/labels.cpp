// SPDX-License-Identifier: MIT
#include "core/model/labels.h"

#include "core/model/synthetic_id.h"

#include <cstdio>

namespace gapscope {

namespace {

std::string rankPrefix(const Process& process)
{
    return process.rank ? "rank " + std::to_string(*process.rank) + " \u00b7 " : std::string();
}

} // namespace

std::string processLabel(const Process& process)
{
    std::string label = rankPrefix(process);
    label += process.name.empty() ? std::string("process") : process.name;
    label += " (pid " + std::to_string(process.pid) + ")";
    return label;
}

std::string threadLabel(const Lane& lane)
{
    // A lane named by text in the trace: its synthetic number would only confuse.
    if (isSyntheticId(lane.tid))
        return lane.name.empty() ? std::string("global markers") : lane.name;
    const std::string tid = std::to_string(lane.tid);
    if (lane.name.empty())
        return "thread " + tid;
    // Readers often name threads after their id already ("thread 25738 (python)").
    if (lane.name.find(tid) != std::string::npos)
        return lane.name;
    return lane.name + " (tid " + tid + ")";
}

std::string streamLabel(const Lane& lane)
{
    // CUPTI's "no stream" (-1 as read): the context-wide synchronizations Nsight Systems and Kineto record.
    if (lane.stream == -1)
        return "context sync (no stream)";
    return "stream " + std::to_string(lane.stream);
}

std::string deviceLabel(const Device& device)
{
    std::string label = "GPU " + std::to_string(device.id);
    if (!device.name.empty())
        label += " \u00b7 " + device.name;
    return label;
}

std::string rankedDeviceLabel(const Trace& trace, DeviceIndex index)
{
    const Device& device = trace.devices()[index.value];
    const Process& process = trace.processes()[device.process.value];
    if (!process.rank && trace.processes().size() > 1)
        return "pid " + std::to_string(process.pid) + " \u00b7 " + deviceLabel(device);
    return rankPrefix(process) + deviceLabel(device);
}

std::string laneLabel(const Trace& trace, LaneIndex index)
{
    const Lane& lane = trace.lanes()[index.value];
    if (lane.kind == LaneKind::CpuThread)
        return threadLabel(lane);
    const Device& device = trace.devices()[lane.device.value];
    const Process& process = trace.processes()[device.process.value];
    std::string owner = rankPrefix(process);
    if (!process.rank && trace.processes().size() > 1)
        owner = "pid " + std::to_string(process.pid) + " \u00b7 ";
    return owner + "GPU " + std::to_string(device.id) + " " + streamLabel(lane);
}

std::string percentText(double fraction, int decimals)
{
    const double percent = fraction == fraction ? fraction * 100.0 : 0.0;
    char buffer[48];
    if (percent > 0 && percent < 1)
        std::snprintf(buffer, sizeof buffer, "%.2g %%", percent);
    else
        std::snprintf(buffer, sizeof buffer, "%.*f %%", decimals, percent);
    return buffer;
}

std::string percentText(TimeNs part, TimeNs whole, int decimals)
{
    return percentText(whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0, decimals);
}

} // namespace gapscope
