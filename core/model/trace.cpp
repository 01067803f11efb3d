// SPDX-License-Identifier: MIT
#include "core/model/trace.h"

#include "core/model/huge_pages.h"
#include "core/model/lane_order.h"

#include <algorithm>
#include <limits>
#include <thread>

namespace gapscope {

std::string ImportWarning::toString() const
{
    return file + ": " + (place.empty() ? "at byte " + std::to_string(byteOffset) : place) + ": " + message;
}

std::pair<std::size_t, std::size_t> Lane::visibleRange(TimeNs t0, TimeNs t1) const
{
    const auto firstIt
        = std::partition_point(maxEndPrefix.begin(), maxEndPrefix.end(), [t0](TimeNs maxEnd) { return maxEnd < t0; });
    const auto first = static_cast<std::size_t>(firstIt - maxEndPrefix.begin());
    const auto lastIt = std::partition_point(events.begin() + static_cast<std::ptrdiff_t>(first), events.end(),
        [t1](const Event& e) { return e.start < t1; });
    return { first, static_cast<std::size_t>(lastIt - events.begin()) };
}

ProcessIndex Trace::addProcess(Process process)
{
    processes.push_back(std::move(process));
    return ProcessIndex { static_cast<std::uint32_t>(processes.size() - 1) };
}

LaneIndex Trace::threadLane(ProcessIndex process, std::int64_t tid)
{
    const auto key = std::make_pair(process.value, tid);
    if (auto it = m_threadLaneIndex.find(key); it != m_threadLaneIndex.end())
        return it->second;
    Lane lane;
    lane.kind = LaneKind::CpuThread;
    lane.process = process;
    lane.tid = tid;
    lanes.push_back(std::move(lane));
    const LaneIndex index { static_cast<std::uint32_t>(lanes.size() - 1) };
    m_threadLaneIndex.emplace(key, index);
    return index;
}

DeviceIndex Trace::device(ProcessIndex process, int deviceId)
{
    const auto key = std::make_pair(process.value, deviceId);
    if (auto it = m_deviceIndex.find(key); it != m_deviceIndex.end())
        return it->second;
    Device d;
    d.process = process;
    d.id = deviceId;
    devices.push_back(std::move(d));
    const DeviceIndex index { static_cast<std::uint32_t>(devices.size() - 1) };
    m_deviceIndex.emplace(key, index);
    return index;
}

LaneIndex Trace::streamLane(DeviceIndex device, std::int64_t stream)
{
    const auto key = std::make_pair(device.value, stream);
    if (auto it = m_streamLaneIndex.find(key); it != m_streamLaneIndex.end())
        return it->second;
    Lane lane;
    lane.kind = LaneKind::GpuStream;
    lane.process = devices[device.value].process;
    lane.device = device;
    lane.stream = stream;
    lanes.push_back(std::move(lane));
    const LaneIndex index { static_cast<std::uint32_t>(lanes.size() - 1) };
    m_streamLaneIndex.emplace(key, index);
    return index;
}

ArgsId Trace::addArgs(std::string_view json)
{
    return args.add(json);
}

/// Sorts the lane unless it already is (the usual case: checked on the way), computes depth and maxEndPrefix,
/// and returns the extent of the ids the correlation index will take from it, all in one pass over the events.
LaneIds Trace::finalizeLane(Lane& lane, std::vector<TimeNs>& openEnds)
{
    auto& events = lane.events;
    const bool gpuLane = lane.kind == LaneKind::GpuStream;
    if (lane.maxEndPrefix.capacity() != events.size()) {
        std::vector<TimeNs> fresh;
        fresh.reserve(events.size());
        adviseHugePages(fresh.data(), fresh.capacity() * sizeof(TimeNs));
        lane.maxEndPrefix.swap(fresh);
    }
    lane.maxEndPrefix.resize(events.size());
    for (bool sorted = false;; sorted = true) {
        LaneIds ids;
        TimeNs maxEnd = std::numeric_limits<TimeNs>::min();
        // Depth: the number of enclosing events still open at this event's start.
        openEnds.clear();
        std::size_t i = 0;
        for (; i < events.size(); ++i) {
            Event& e = events[i];
            if (!sorted && i > 0 && laneOrder(e, events[i - 1])) [[unlikely]]
                break;
            maxEnd = std::max(maxEnd, e.end);
            lane.maxEndPrefix[i] = maxEnd;
            while (!openEnds.empty() && (openEnds.back() <= e.start || e.end > openEnds.back()))
                openEnds.pop_back();
            e.depth = static_cast<std::uint16_t>(std::min<std::size_t>(openEnds.size(), 0xffff));
            openEnds.push_back(e.end);
            if (takesCorrelation(e, gpuLane)) {
                ids.min = std::min(ids.min, e.correlation);
                ids.max = std::max(ids.max, e.correlation);
                ++ids.count;
            }
        }
        if (i == events.size())
            return ids;
        std::stable_sort(events.begin(), events.end(), laneOrder);
    }
}

void Trace::finalize()
{
    // Lanes are independent, and so are the two sides of the correlation index: on a big trace, a second
    // thread takes half of the events, then one of the sides. Below the threshold a thread costs more than it
    // saves.
    constexpr std::size_t kParallelEvents = 1'000'000;
    std::size_t total = 0;
    for (const Lane& lane : lanes)
        total += lane.events.size();
    const bool parallel = total >= kParallelEvents && std::thread::hardware_concurrency() > 1;

    std::vector<LaneIds> ids(lanes.size());
    const auto finalizeLanes = [this, &ids](std::size_t begin, std::size_t end) {
        std::vector<TimeNs> openEnds;
        for (std::size_t l = begin; l < end; ++l)
            ids[l] = finalizeLane(lanes[l], openEnds);
    };
    if (!parallel) {
        finalizeLanes(0, lanes.size());
        buildCorrelationIndex(m_launches, lanes, processes.size(), ids, false, &m_launchStarts);
        buildCorrelationIndex(m_gpuOps, lanes, processes.size(), ids, true, nullptr);
        return;
    }
    // The split point: the first lane at which the events before it reach half of the total.
    std::size_t split = 0;
    for (std::size_t before = 0; split < lanes.size() && before < total / 2; ++split)
        before += lanes[split].events.size();
    std::thread helper(finalizeLanes, split, lanes.size());
    finalizeLanes(0, split);
    helper.join();
    std::thread launches(
        [this, &ids] { buildCorrelationIndex(m_launches, lanes, processes.size(), ids, false, &m_launchStarts); });
    buildCorrelationIndex(m_gpuOps, lanes, processes.size(), ids, true, nullptr);
    launches.join();
}

std::vector<EventRef> Trace::gpuOpsOf(EventRef apiCall) const
{
    std::vector<EventRef> result;
    const Event& e = event(apiCall);
    if (e.correlation == 0)
        return result;
    m_gpuOps.all(lanes[apiCall.lane.value].process, e.correlation, result);
    return result;
}

std::optional<std::pair<TimeNs, TimeNs>> Trace::timeSpan() const
{
    std::optional<std::pair<TimeNs, TimeNs>> span;
    for (const Lane& lane : lanes) {
        if (lane.events.empty())
            continue;
        const TimeNs first = lane.events.front().start;
        const TimeNs last = lane.maxEndPrefix.empty() ? lane.events.back().end : lane.maxEndPrefix.back();
        if (!span)
            span = std::make_pair(first, last);
        else
            span = std::make_pair(std::min(span->first, first), std::max(span->second, last));
    }
    return span;
}

std::size_t Trace::eventCount() const
{
    std::size_t n = 0;
    for (const Lane& lane : lanes)
        n += lane.events.size();
    return n;
}

void Trace::append(Trace&& other)
{
    const auto processOffset = static_cast<std::uint32_t>(processes.size());
    const auto deviceOffset = static_cast<std::uint32_t>(devices.size());
    const auto argsOffset = static_cast<std::uint32_t>(args.size());
    for (Process& p : other.processes)
        processes.push_back(std::move(p));
    for (Device& d : other.devices) {
        d.process.value += processOffset;
        m_deviceIndex.emplace(
            std::make_pair(d.process.value, d.id), DeviceIndex { static_cast<std::uint32_t>(devices.size()) });
        devices.push_back(std::move(d));
    }
    args.append(std::move(other.args));
    for (Lane& lane : other.lanes) {
        lane.process.value += processOffset;
        if (lane.kind == LaneKind::GpuStream)
            lane.device.value += deviceOffset;
        for (Event& e : lane.events) {
            e.name = strings.intern(other.strings.view(e.name));
            if (e.args != kNoArgs)
                e.args.value += argsOffset;
        }
        const LaneIndex index { static_cast<std::uint32_t>(lanes.size()) };
        if (lane.kind == LaneKind::GpuStream)
            m_streamLaneIndex.emplace(std::make_pair(lane.device.value, lane.stream), index);
        else
            m_threadLaneIndex.emplace(std::make_pair(lane.process.value, lane.tid), index);
        lanes.push_back(std::move(lane));
    }
    for (ImportWarning& w : other.warnings)
        warnings.push_back(std::move(w));
    skippedEvents += other.skippedEvents;
    droppedRecords += other.droppedRecords;
    other = Trace {};
}

} // namespace gapscope
