// SPDX-License-Identifier: MIT
#include "core/model/trace_builder.h"

#include "core/model/call_names.h"
#include "core/model/lane_order.h"
#include "core/parallel_for.h"

#include <algorithm>
#include <limits>
#include <thread>

namespace gapscope {

TraceBuilder::TraceBuilder(Trace&& finished)
    : m_content(std::move(finished.m_content))
{
    finished = Trace {};
    for (std::size_t i = 0; i < m_content.devices.size(); ++i) {
        const Device& d = m_content.devices[i];
        m_deviceIndex.emplace(std::make_pair(d.process.value, d.id), DeviceIndex { static_cast<std::uint32_t>(i) });
    }
    for (std::size_t i = 0; i < m_content.lanes.size(); ++i) {
        const Lane& lane = m_content.lanes[i];
        const LaneIndex index { static_cast<std::uint32_t>(i) };
        if (lane.kind == LaneKind::GpuStream)
            m_streamLaneIndex.emplace(std::make_pair(lane.device.value, lane.stream), index);
        else
            m_threadLaneIndex.emplace(std::make_pair(lane.process.value, lane.tid), index);
    }
}

ProcessIndex TraceBuilder::addProcess(Process process)
{
    m_content.processes.push_back(std::move(process));
    return ProcessIndex { static_cast<std::uint32_t>(m_content.processes.size() - 1) };
}

LaneIndex TraceBuilder::threadLane(ProcessIndex process, std::int64_t tid)
{
    const auto key = std::make_pair(process.value, tid);
    if (auto it = m_threadLaneIndex.find(key); it != m_threadLaneIndex.end())
        return it->second;
    Lane lane;
    lane.kind = LaneKind::CpuThread;
    lane.process = process;
    lane.tid = tid;
    m_content.lanes.push_back(std::move(lane));
    const LaneIndex index { static_cast<std::uint32_t>(m_content.lanes.size() - 1) };
    m_threadLaneIndex.emplace(key, index);
    return index;
}

DeviceIndex TraceBuilder::device(ProcessIndex process, int deviceId)
{
    const auto key = std::make_pair(process.value, deviceId);
    if (auto it = m_deviceIndex.find(key); it != m_deviceIndex.end())
        return it->second;
    Device d;
    d.process = process;
    d.id = deviceId;
    m_content.devices.push_back(std::move(d));
    const DeviceIndex index { static_cast<std::uint32_t>(m_content.devices.size() - 1) };
    m_deviceIndex.emplace(key, index);
    return index;
}

LaneIndex TraceBuilder::streamLane(DeviceIndex device, std::int64_t stream)
{
    const auto key = std::make_pair(device.value, stream);
    if (auto it = m_streamLaneIndex.find(key); it != m_streamLaneIndex.end())
        return it->second;
    Lane lane;
    lane.kind = LaneKind::GpuStream;
    lane.process = m_content.devices[device.value].process;
    lane.device = device;
    lane.stream = stream;
    m_content.lanes.push_back(std::move(lane));
    const LaneIndex index { static_cast<std::uint32_t>(m_content.lanes.size() - 1) };
    m_streamLaneIndex.emplace(key, index);
    return index;
}

ArgsId TraceBuilder::addArgs(std::string_view json)
{
    return m_content.args.add(json);
}

namespace {

/// Sorts the lane unless it already is (the usual case: checked on the way), computes depth, maxEndPrefix and
/// (CPU lanes) blockMaxEnd, and returns the extent of the ids the correlation index will take from it, all in one pass
/// over the events.
LaneIds finishLane(Lane& lane, std::vector<TimeNs>& openEnds)
{
    auto& events = lane.events;
    const bool gpuLane = lane.kind == LaneKind::GpuStream;
    // A fresh buffer of the exact size (huge pages from 2 MiB up: HugePageVector), filled below.
    if (lane.maxEndPrefix.capacity() != events.size()) {
        HugePageVector<TimeNs>().swap(lane.maxEndPrefix);
        lane.maxEndPrefix.reserve(events.size());
    }
    if (!gpuLane)
        lane.blockMaxEnd.reserve((events.size() + Lane::kEndBlockEvents - 1) / Lane::kEndBlockEvents);
    for (bool sorted = false;; sorted = true) {
        LaneIds ids;
        TimeNs maxEnd = std::numeric_limits<TimeNs>::min();
        // Depth: the number of enclosing events still open at this event's start.
        openEnds.clear();
        lane.maxEndPrefix.clear();
        lane.blockMaxEnd.clear();
        TimeNs blockMax = std::numeric_limits<TimeNs>::min();
        std::size_t i = 0;
        for (; i < events.size(); ++i) {
            Event& e = events[i];
            if (!sorted && i > 0 && laneOrder(e, events[i - 1])) [[unlikely]]
                break;
            maxEnd = std::max(maxEnd, e.end);
            lane.maxEndPrefix.push_back(maxEnd);
            if (!gpuLane) {
                blockMax = std::max(blockMax, e.end);
                if (i % Lane::kEndBlockEvents == Lane::kEndBlockEvents - 1) {
                    lane.blockMaxEnd.push_back(blockMax);
                    blockMax = std::numeric_limits<TimeNs>::min();
                }
            }
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
        if (i == events.size()) {
            if (!gpuLane && events.size() % Lane::kEndBlockEvents != 0)
                lane.blockMaxEnd.push_back(blockMax);
            return ids;
        }
        std::stable_sort(events.begin(), events.end(), laneOrder);
    }
}

} // namespace

Trace TraceBuilder::finish() &&
{
    Trace trace;
    trace.m_content = std::move(m_content);
    *this = TraceBuilder {};
    trace.m_content.samples.finish();
    trace.m_content.counters.finish();
    std::vector<Lane>& lanes = trace.m_content.lanes;
    const std::size_t processCount = trace.m_content.processes.size();
    // Lanes are independent, and so are the two sides of the correlation index: on a big trace, a second
    // thread takes half of the events, then one of the sides. Below the threshold a thread costs more than it
    // saves.
    constexpr std::size_t kParallelEvents = 1'000'000;
    std::size_t total = 0;
    for (const Lane& lane : lanes)
        total += lane.events.size();
    const bool parallel = total >= kParallelEvents && std::thread::hardware_concurrency() > 1;

    std::vector<LaneIds> ids(lanes.size());
    const auto finishLanes = [&lanes, &ids](std::size_t begin, std::size_t end) {
        std::vector<TimeNs> openEnds;
        for (std::size_t l = begin; l < end; ++l)
            ids[l] = finishLane(lanes[l], openEnds);
    };
    const auto buildLaunches
        = [&] { buildCorrelationIndex(trace.m_launches, lanes, processCount, ids, false, &trace.m_launchStarts); };
    const auto buildGpuOps = [&] { buildCorrelationIndex(trace.m_gpuOps, lanes, processCount, ids, true, nullptr); };
    // Names are classified on their own: the strings are all they read.
    const auto classify = [&trace] { trace.m_nameClasses = classifyNames(trace.m_content.strings); };
    if (!parallel) {
        classify();
        finishLanes(0, lanes.size());
        buildLaunches();
        buildGpuOps();
        return trace;
    }
    // The classifier runs beside both steps below; each step cuts its work in two.
    std::thread classifier(classify);
    const std::size_t split
        = halfWeightSplit(lanes.size(), total, [&](std::size_t l) { return lanes[l].events.size(); });
    const std::size_t bounds[] = { 0, split, lanes.size() };
    parallelFor(2, 2, [&](std::size_t part) { finishLanes(bounds[part], bounds[part + 1]); });
    parallelFor(2, 2, [&](std::size_t part) { part == 0 ? buildGpuOps() : buildLaunches(); });
    classifier.join();
    return trace;
}

void TraceBuilder::append(TraceBuilder&& other)
{
    if (m_content.processes.empty() && m_content.lanes.empty() && m_content.warnings.empty()) {
        *this = std::move(other); // the first: no need to re-intern its strings
        other = TraceBuilder {};
        return;
    }
    const auto processOffset = static_cast<std::uint32_t>(m_content.processes.size());
    const auto deviceOffset = static_cast<std::uint32_t>(m_content.devices.size());
    const auto argsOffset = static_cast<std::uint32_t>(m_content.args.size());
    for (Process& p : other.m_content.processes)
        m_content.processes.push_back(std::move(p));
    for (Device& d : other.m_content.devices) {
        d.process.value += processOffset;
        m_deviceIndex.emplace(std::make_pair(d.process.value, d.id),
            DeviceIndex { static_cast<std::uint32_t>(m_content.devices.size()) });
        m_content.devices.push_back(std::move(d));
    }
    m_content.args.append(std::move(other.m_content.args));
    for (Lane& lane : other.m_content.lanes) {
        lane.process.value += processOffset;
        if (lane.kind == LaneKind::GpuStream)
            lane.device.value += deviceOffset;
        for (Event& e : lane.events) {
            e.name = m_content.strings.intern(other.m_content.strings.view(e.name));
            if (e.args != kNoArgs)
                e.args.value += argsOffset;
        }
        const LaneIndex index { static_cast<std::uint32_t>(m_content.lanes.size()) };
        if (lane.kind == LaneKind::GpuStream)
            m_streamLaneIndex.emplace(std::make_pair(lane.device.value, lane.stream), index);
        else
            m_threadLaneIndex.emplace(std::make_pair(lane.process.value, lane.tid), index);
        m_content.lanes.push_back(std::move(lane));
    }
    m_content.samples.append(
        std::move(other.m_content.samples), processOffset, other.m_content.strings, m_content.strings);
    m_content.counters.append(std::move(other.m_content.counters), processOffset, deviceOffset);
    for (ImportWarning& w : other.m_content.warnings)
        m_content.warnings.push_back(std::move(w));
    m_content.skippedEvents += other.m_content.skippedEvents;
    m_content.droppedRecords += other.m_content.droppedRecords;
    other = TraceBuilder {};
}

} // namespace gapscope
