// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_trace_builder.h"

#include "core/io/common/skipped_warnings.h"
#include "core/model/lane_order.h"
#include "core/model/synthetic_id.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

namespace gapscope::chrome {

namespace {

std::uint64_t mix(std::uint64_t x)
{
    // splitmix64 finaliser: cheap and spreads every input bit.
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

int clampToInt(std::int64_t value)
{
    return static_cast<int>(
        std::clamp<std::int64_t>(value, std::numeric_limits<int>::min(), std::numeric_limits<int>::max()));
}

} // namespace

std::int64_t syntheticId(std::string_view text)
{
    // FNV-1a, folded into a positive range far above real pids and tids (Linux pids < 2^22; pthread ids that
    // old Kineto wrote < 2^48), so a synthetic id never meets a numeric one.
    std::uint64_t hash = 0xcbf29ce484222325ull;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ull;
    }
    return static_cast<std::int64_t>(hash & 0x3fffffffffffffffull) | kSyntheticIdBit;
}

std::size_t ChromeTraceBuilder::RouteHash::operator()(const RouteKey& k) const noexcept
{
    std::uint64_t h = mix(static_cast<std::uint64_t>(k.pid));
    h = mix(h ^ static_cast<std::uint64_t>(k.tid));
    h = mix(h ^ static_cast<std::uint64_t>(k.stream));
    h = mix(h ^ static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.device)) ^ (k.gpu ? 1ull << 40 : 0));
    return static_cast<std::size_t>(h);
}

std::size_t ChromeTraceBuilder::RawKeyHash::operator()(const RawKey& k) const noexcept
{
    return static_cast<std::size_t>(
        mix(mix(static_cast<std::uint64_t>(k.first)) ^ static_cast<std::uint64_t>(k.second)));
}

ChromeTraceBuilder::ChromeTraceBuilder(std::string fileName)
    : m_fileName(std::move(fileName))
{ }

void ChromeTraceBuilder::addChunk(PendingLane& lane)
{
    EventVector& chunk = lane.chunks.emplace_back();
    chunk.reserve(std::min(kFirstChunk << std::min<std::size_t>(lane.chunks.size() - 1, 16), kMaxChunk));
}

void ChromeTraceBuilder::projectLaneSizes(std::uint64_t offset)
{
    m_projectAt = std::numeric_limits<std::uint64_t>::max(); // once
    for (PendingLane& lane : m_lanes) {
        if (lane.eventCount == 0)
            continue;
        // The lane's rate so far, over the whole content, and 5 % more: a lane that outgrows it goes on in chunks.
        const double projected = static_cast<double>(lane.eventCount) * static_cast<double>(m_expectedBytes)
            / static_cast<double>(std::max<std::uint64_t>(offset, 1));
        const auto capacity = static_cast<std::size_t>(projected * 1.05) + 1024;
        lane.direct.reserve(capacity);
        lane.leading = lane.eventCount;
        lane.leadingChunks = lane.chunks.size();
        lane.direct.resize(lane.leading); // the chunks' events go there at the join
    }
}

void ChromeTraceBuilder::joinLane(PendingLane& lane)
{
    if (lane.direct.capacity() == 0) {
        // Join the chunks, freeing each as it is copied: the peak stays one chunk above the final size.
        lane.events.reserve(lane.eventCount);
        for (EventVector& chunk : lane.chunks) {
            lane.events.insert(lane.events.end(), chunk.begin(), chunk.end());
            EventVector().swap(chunk);
        }
        lane.chunks.clear();
        return;
    }
    auto at = lane.direct.begin();
    for (std::size_t i = 0; i < lane.leadingChunks; ++i) {
        at = std::copy(lane.chunks[i].begin(), lane.chunks[i].end(), at);
        EventVector().swap(lane.chunks[i]);
    }
    if (lane.chunks.size() > lane.leadingChunks) { // the lane outgrew its projection
        lane.direct.reserve(lane.eventCount);
        for (std::size_t i = lane.leadingChunks; i < lane.chunks.size(); ++i) {
            lane.direct.insert(lane.direct.end(), lane.chunks[i].begin(), lane.chunks[i].end());
            EventVector().swap(lane.chunks[i]);
        }
    }
    lane.chunks.clear();
    lane.events = std::move(lane.direct);
    lane.direct = {};
}

std::uint32_t ChromeTraceBuilder::hostLane(RawId pid, RawId tid, std::string_view tidText)
{
    return lookupRoute(RouteKey { pid.value, tid.value, 0, 0, false, pid.isString, tid.isString }, tidText);
}

std::uint32_t ChromeTraceBuilder::gpuLane(
    int device, std::int64_t stream, std::string_view streamText, RawId pid, RawId tid)
{
    return lookupRoute(RouteKey { pid.value, tid.value, stream, device, true, pid.isString, tid.isString }, streamText);
}

std::uint32_t ChromeTraceBuilder::lookupRoute(const RouteKey& key, std::string_view laneName)
{
    for (std::size_t i = 0; i < m_routeCacheUsed; ++i) {
        if (m_routeCache[i].first == key)
            return m_routeCache[i].second;
    }
    std::uint32_t lane = 0;
    if (auto it = m_routes.find(key); it != m_routes.end()) {
        lane = it->second;
    } else {
        // A host lane is (pid, tid); a GPU lane is (device, stream), whatever pid/tid its events were written under.
        const RouteKey identity = key.gpu ? RouteKey { 0, 0, key.stream, key.device, true, false, false } : key;
        if (auto found = m_laneByIdentity.find(identity); found != m_laneByIdentity.end()) {
            lane = found->second;
        } else {
            PendingLane pending;
            pending.gpu = key.gpu;
            pending.pid = RawId { key.pid, key.pidIsString };
            pending.tid = RawId { key.tid, key.tidIsString };
            pending.device = key.device;
            pending.stream = key.stream;
            pending.name = std::string(laneName);
            lane = static_cast<std::uint32_t>(m_lanes.size());
            m_lanes.push_back(std::move(pending));
            m_laneByIdentity.emplace(identity, lane);
        }
        m_routes.emplace(key, lane);
    }
    m_routeCache[m_routeCacheNext] = { key, lane };
    m_routeCacheNext = (m_routeCacheNext + 1) % kRouteCacheSize;
    m_routeCacheUsed = std::max(m_routeCacheUsed, m_routeCacheNext == 0 ? kRouteCacheSize : m_routeCacheNext);
    return lane;
}

void ChromeTraceBuilder::begin(RawId pid, RawId tid, std::uint32_t lane, const Event& event, std::uint64_t byteOffset)
{
    m_openSlices[{ pid.value, tid.value }].push_back(OpenSlice { lane, event, byteOffset });
}

Event* ChromeTraceBuilder::end(RawId pid, RawId tid, TimeNs ts, std::uint64_t byteOffset)
{
    auto it = m_openSlices.find({ pid.value, tid.value });
    if (it == m_openSlices.end() || it->second.empty()) {
        warnSkipped(byteOffset, "\"E\" event without a matching \"B\" event on its pid/tid");
        return nullptr;
    }
    OpenSlice slice = it->second.back();
    it->second.pop_back();
    if (ts < slice.event.start) {
        warnSkipped(byteOffset, "\"E\" event ends before its \"B\" event begins");
        return nullptr;
    }
    slice.event.end = ts;
    if (!m_filter.keepsTime(slice.event.start, slice.event.end)) {
        ++m_filtered;
        return nullptr;
    }
    return addEvent(slice.lane, slice.event);
}

void ChromeTraceBuilder::addFlow(RawId pid, RawId tid, TimeNs ts, std::uint32_t id)
{
    m_flows.push_back(Flow { pid, tid, ts, id });
}

void ChromeTraceBuilder::addMetadata(MetadataKind kind, RawId pid, RawId tid, std::string value, std::int64_t number)
{
    m_metadata.push_back(Metadata { kind, pid, tid, std::move(value), number });
}

void ChromeTraceBuilder::addFileMetadata(std::string_view rawKey, std::string_view rawValue)
{
    m_fileMetadata += m_fileMetadata.empty() ? "{\"" : ",\"";
    m_fileMetadata += rawKey;
    m_fileMetadata += "\":";
    m_fileMetadata += rawValue;
}

void ChromeTraceBuilder::addDeviceProperties(int id, std::string name, std::string json)
{
    m_deviceInfo[id] = DeviceInfo { std::move(name), std::move(json) };
}

void ChromeTraceBuilder::warnSkipped(std::uint64_t byteOffset, std::string message)
{
    if (listsSkip(++m_trace.skippedEvents()))
        warn(byteOffset, std::move(message));
}

void ChromeTraceBuilder::warn(std::uint64_t byteOffset, std::string message)
{
    m_trace.warnings().push_back(ImportWarning { m_fileName, byteOffset, std::move(message) });
}

std::int64_t ChromeTraceBuilder::chooseHostPid() const
{
    // The process that issued the CUDA API calls owns the GPUs; without any, the first process with a CPU event.
    struct Candidate {
        std::uint64_t apiCalls = 0;
        std::uint64_t firstOrder = std::numeric_limits<std::uint64_t>::max();
    };
    std::unordered_map<std::int64_t, Candidate> byPid;
    for (const PendingLane& lane : m_lanes) {
        if (lane.gpu || lane.pid.isString || lane.eventCount == 0)
            continue;
        Candidate& c = byPid[lane.pid.value];
        c.apiCalls += lane.apiCalls;
        c.firstOrder = std::min(c.firstOrder, lane.firstOrder);
    }
    for (const auto& [pid, dropped] : m_droppedHostEvents) {
        Candidate& c = byPid[pid];
        c.apiCalls += dropped.apiCalls;
        c.firstOrder = std::min(c.firstOrder, dropped.firstOrder);
    }
    std::optional<std::pair<std::int64_t, Candidate>> best;
    for (const auto& [pid, c] : byPid) {
        if (!best || c.apiCalls > best->second.apiCalls
            || (c.apiCalls == best->second.apiCalls && c.firstOrder < best->second.firstOrder))
            best = std::make_pair(pid, c);
    }
    if (best)
        return best->first;
    // No CPU events at all: name the process after the pid of the first GPU event.
    const PendingLane* first = nullptr;
    for (const PendingLane& lane : m_lanes) {
        if (!lane.pid.isString && lane.eventCount > 0 && (!first || lane.firstOrder < first->firstOrder))
            first = &lane;
    }
    return first ? first->pid.value : 0;
}

namespace {

/// The first index whose event starts at or after `ts`, searched outwards from `hint` (galloping): flows come
/// in file order, which is close to time order per lane, so the answer is usually a few events away.
std::size_t lowerBoundNear(const EventVector& events, std::size_t hint, TimeNs ts)
{
    const std::size_t n = events.size();
    hint = std::min(hint, n);
    std::size_t lo = 0; // the answer is in [lo, hi]
    std::size_t hi = n;
    if (hint < n && events[hint].start < ts) {
        lo = hint + 1;
        for (std::size_t step = 1;; step *= 2) {
            const std::size_t probe = hint + step;
            if (probe >= n)
                break;
            if (events[probe].start >= ts) {
                hi = probe;
                break;
            }
            lo = probe + 1;
        }
    } else {
        hi = hint;
        for (std::size_t step = 1; step <= hint; step *= 2) {
            const std::size_t probe = hint - step;
            if (events[probe].start < ts) {
                lo = probe + 1;
                break;
            }
            hi = probe;
        }
    }
    const auto first = events.begin();
    return static_cast<std::size_t>(
        std::partition_point(first + static_cast<std::ptrdiff_t>(lo), first + static_cast<std::ptrdiff_t>(hi),
            [ts](const Event& e) { return e.start < ts; })
        - first);
}

} // namespace

void ChromeTraceBuilder::bindFlows(
    const std::unordered_map<RawKey, std::vector<std::uint32_t>, RawKeyHash>& lanesByRawKey)
{
    std::vector<std::size_t> cursor(m_lanes.size(), 0);
    for (const Flow& flow : m_flows) {
        const auto it = lanesByRawKey.find({ flow.pid.value, flow.tid.value });
        if (it == lanesByRawKey.end())
            continue;
        Event* preferred = nullptr; // an API call or GPU op without correlation: what flows link
        Event* fallback = nullptr; // any other event without correlation starting there
        bool bound = false;
        for (const std::uint32_t laneIndex : it->second) {
            EventVector& events = m_lanes[laneIndex].events;
            std::size_t i = lowerBoundNear(events, cursor[laneIndex], flow.ts);
            cursor[laneIndex] = i;
            for (; i < events.size() && events[i].start == flow.ts; ++i) {
                Event& e = events[i];
                if (e.correlation == flow.id) {
                    bound = true;
                    break;
                }
                if (e.correlation != 0)
                    continue;
                const bool linkable
                    = e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi || isGpuLaneKind(e.kind);
                if (linkable && !preferred)
                    preferred = &e;
                else if (!linkable)
                    fallback = &e; // the innermost of equal starts comes last
            }
            if (bound)
                break;
        }
        if (bound)
            continue;
        if (Event* target = preferred ? preferred : fallback)
            target->correlation = flow.id;
    }
}

TraceBuilder ChromeTraceBuilder::takeTrace()
{
    for (auto& [key, slices] : m_openSlices) {
        for (const OpenSlice& slice : slices)
            warnSkipped(slice.byteOffset, "\"B\" event without a matching \"E\" event");
    }
    m_openSlices.clear();
    if (m_filter.active()) // first, and listed past the cap: every figure depends on it
        m_trace.warnings().insert(m_trace.warnings().begin(),
            ImportWarning { m_fileName, 0, m_filter.warning(m_filtered), "the whole file" });
    if (auto unlisted = unlistedSkipsWarning(m_trace.skippedEvents(), "malformed events"))
        m_trace.warnings().push_back(ImportWarning { m_fileName, 0, std::move(*unlisted) });

    const std::int64_t hostPid = chooseHostPid();
    std::unordered_set<std::int64_t> gpuPids;
    std::unordered_map<RawKey, std::vector<std::uint32_t>, RawKeyHash> lanesByRawKey;
    for (const auto& [key, lane] : m_routes) {
        if (key.gpu && !key.pidIsString)
            gpuPids.insert(key.pid);
        auto& lanes = lanesByRawKey[{ key.pid, key.tid }];
        if (std::find(lanes.begin(), lanes.end(), lane) == lanes.end())
            lanes.push_back(lane);
    }
    for (auto& [key, lanes] : lanesByRawKey)
        std::sort(lanes.begin(), lanes.end());

    // Processes: the host first, then other host pids (data-loader workers...) in order of appearance.
    // Kineto's pseudo-processes with string pids ("Spans", "Traces") and CPU events written under a GPU's pid
    // (the Python tracer's pid 0) belong to the host process.
    const auto makeProcess = [&](std::int64_t pid) {
        Process p;
        p.pid = pid;
        p.rank = m_rank;
        p.sourceFile = m_fileName;
        p.fileMetadataJson = m_fileMetadata.empty() ? std::string() : m_fileMetadata + "}";
        return m_trace.addProcess(std::move(p));
    };
    std::unordered_map<std::int64_t, ProcessIndex> processByPid;
    const ProcessIndex host = makeProcess(hostPid);
    processByPid.emplace(hostPid, host);

    std::vector<std::uint32_t> hostLanes;
    std::vector<std::uint32_t> gpuLanes;
    for (std::uint32_t i = 0; i < m_lanes.size(); ++i)
        (m_lanes[i].gpu ? gpuLanes : hostLanes).push_back(i);
    std::sort(hostLanes.begin(), hostLanes.end(),
        [&](std::uint32_t a, std::uint32_t b) { return m_lanes[a].firstOrder < m_lanes[b].firstOrder; });
    std::sort(gpuLanes.begin(), gpuLanes.end(), [&](std::uint32_t a, std::uint32_t b) {
        const PendingLane& la = m_lanes[a];
        const PendingLane& lb = m_lanes[b];
        return la.device != lb.device ? la.device < lb.device : la.stream < lb.stream;
    });
    std::vector<ProcessIndex> laneProcess(m_lanes.size(), host);
    for (const std::uint32_t i : hostLanes) {
        const RawId pid = m_lanes[i].pid;
        if (pid.isString || pid.value == hostPid || gpuPids.count(pid.value))
            continue;
        auto [it, inserted] = processByPid.try_emplace(pid.value, host);
        if (inserted)
            it->second = makeProcess(pid.value);
        laneProcess[i] = it->second;
    }

    for (const Metadata& md : m_metadata) {
        switch (md.kind) {
        case MetadataKind::ProcessName:
        case MetadataKind::ProcessSortIndex: {
            if (md.pid.isString)
                break;
            const auto it = processByPid.find(md.pid.value);
            if (it == processByPid.end())
                break;
            Process& p = m_trace.processes()[it->second.value];
            if (md.kind == MetadataKind::ProcessName)
                p.name = md.value;
            else
                p.sortIndex = clampToInt(md.number);
            break;
        }
        case MetadataKind::ThreadName:
        case MetadataKind::ThreadSortIndex: {
            const auto it = lanesByRawKey.find({ md.pid.value, md.tid.value });
            if (it == lanesByRawKey.end())
                break;
            for (const std::uint32_t lane : it->second) {
                if (md.kind == MetadataKind::ThreadName)
                    m_lanes[lane].name = md.value;
                else
                    m_lanes[lane].sortIndex = clampToInt(md.number);
            }
            break;
        }
        }
    }

    for (PendingLane& lane : m_lanes) {
        joinLane(lane);
        if (!std::is_sorted(lane.events.begin(), lane.events.end(), laneOrder))
            std::stable_sort(lane.events.begin(), lane.events.end(), laneOrder);
    }
    bindFlows(lanesByRawKey);

    const auto moveEvents = [&](PendingLane& from, Lane& to) {
        if (to.events.empty())
            to.events = std::move(from.events);
        else
            to.events.insert(to.events.end(), from.events.begin(), from.events.end());
        from.events = {};
        if (to.name.empty())
            to.name = std::move(from.name);
        if (!to.sortIndex)
            to.sortIndex = from.sortIndex;
    };
    for (const std::uint32_t i : hostLanes) {
        const LaneIndex index = m_trace.threadLane(laneProcess[i], m_lanes[i].tid.value);
        moveEvents(m_lanes[i], m_trace.lanes()[index.value]);
    }
    for (const std::uint32_t i : gpuLanes) {
        const int deviceId = m_lanes[i].device;
        const std::size_t devicesBefore = m_trace.devices().size();
        const DeviceIndex device = m_trace.device(host, deviceId);
        if (m_trace.devices().size() != devicesBefore) {
            if (auto info = m_deviceInfo.find(deviceId); info != m_deviceInfo.end()) {
                m_trace.devices()[device.value].name = info->second.name;
                m_trace.devices()[device.value].propertiesJson = info->second.json;
            }
        }
        const LaneIndex index = m_trace.streamLane(device, m_lanes[i].stream);
        moveEvents(m_lanes[i], m_trace.lanes()[index.value]);
    }
    m_lanes.clear();

    return std::move(m_trace);
}

} // namespace gapscope::chrome
