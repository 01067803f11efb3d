// SPDX-License-Identifier: MIT
#include "core/model/trace.h"

#include <algorithm>
#include <limits>

namespace gapscope {

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

ArgsId Trace::addArgs(std::string json)
{
    args.push_back(std::move(json));
    return ArgsId { static_cast<std::uint32_t>(args.size() - 1) };
}

namespace {

void finalizeLane(Lane& lane)
{
    auto& events = lane.events;
    if (!std::is_sorted(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; })) {
        std::stable_sort(events.begin(), events.end(),
            [](const Event& a, const Event& b) { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    }
    lane.maxEndPrefix.resize(events.size());
    lane.maxEndPrefix.shrink_to_fit();
    TimeNs maxEnd = std::numeric_limits<TimeNs>::min();
    // Depth: the number of enclosing events still open at this event's start.
    std::vector<TimeNs> openEnds;
    for (std::size_t i = 0; i < events.size(); ++i) {
        Event& e = events[i];
        maxEnd = std::max(maxEnd, e.end);
        lane.maxEndPrefix[i] = maxEnd;
        while (!openEnds.empty() && (openEnds.back() <= e.start || e.end > openEnds.back()))
            openEnds.pop_back();
        e.depth = static_cast<std::uint16_t>(std::min<std::size_t>(openEnds.size(), 0xffff));
        openEnds.push_back(e.end);
    }
}

} // namespace

void Trace::finalize()
{
    for (Lane& lane : lanes)
        finalizeLane(lane);

    // The correlation index, sorted by (process, correlation, start). Sort keys are gathered flat so
    // that the sort compares plain integers instead of chasing lanes (about twice as fast on 4 M events).
    struct Keyed {
        std::uint64_t key; // process << 32 | correlation
        TimeNs start;
        std::uint32_t lane;
        std::uint32_t index;
    };
    std::vector<Keyed> launches;
    std::vector<Keyed> gpuOps;
    for (std::uint32_t l = 0; l < lanes.size(); ++l) {
        const Lane& lane = lanes[l];
        const bool gpu = lane.kind == LaneKind::GpuStream;
        auto& target = gpu ? gpuOps : launches;
        const std::uint64_t process = std::uint64_t(lane.process.value) << 32;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.correlation == 0)
                continue;
            if (!gpu && e.kind != EventKind::RuntimeApi && e.kind != EventKind::DriverApi)
                continue;
            target.push_back({ process | e.correlation, e.start, l, i });
        }
    }
    const auto store = [](std::vector<Keyed>& keyed, std::vector<CorrelationEntry>& entries) {
        std::sort(keyed.begin(), keyed.end(),
            [](const Keyed& a, const Keyed& b) { return a.key != b.key ? a.key < b.key : a.start < b.start; });
        entries.clear();
        entries.reserve(keyed.size());
        for (const Keyed& k : keyed)
            entries.push_back({ static_cast<std::uint32_t>(k.key), k.lane, k.index });
        std::vector<Keyed>().swap(keyed);
    };
    store(launches, m_launches);
    store(gpuOps, m_gpuOps);
}

std::pair<std::size_t, std::size_t> Trace::correlationRange(
    const std::vector<CorrelationEntry>& entries, ProcessIndex process, std::uint32_t correlation) const
{
    const auto key = std::make_pair(process.value, correlation);
    const auto keyOf
        = [this](const CorrelationEntry& e) { return std::make_pair(lanes[e.lane].process.value, e.correlation); };
    const auto lo = std::partition_point(
        entries.begin(), entries.end(), [&](const CorrelationEntry& e) { return keyOf(e) < key; });
    const auto hi = std::partition_point(lo, entries.end(), [&](const CorrelationEntry& e) { return keyOf(e) == key; });
    return { static_cast<std::size_t>(lo - entries.begin()), static_cast<std::size_t>(hi - entries.begin()) };
}

std::optional<EventRef> Trace::launchOf(EventRef gpuOp) const
{
    const Event& e = event(gpuOp);
    if (e.correlation == 0)
        return std::nullopt;
    const auto [lo, hi] = correlationRange(m_launches, lanes[gpuOp.lane.value].process, e.correlation);
    if (lo == hi)
        return std::nullopt;
    return EventRef { LaneIndex { m_launches[lo].lane }, m_launches[lo].index };
}

std::vector<EventRef> Trace::gpuOpsOf(EventRef apiCall) const
{
    std::vector<EventRef> result;
    const Event& e = event(apiCall);
    if (e.correlation == 0)
        return result;
    const auto [lo, hi] = correlationRange(m_gpuOps, lanes[apiCall.lane.value].process, e.correlation);
    for (std::size_t i = lo; i < hi; ++i)
        result.push_back({ LaneIndex { m_gpuOps[i].lane }, m_gpuOps[i].index });
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
    for (std::string& a : other.args)
        args.push_back(std::move(a));
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
