// SPDX-License-Identifier: MIT
// Builds the dependency graph of a window (docs/critical-path.md "Edges"). Every node's measured time is
// reproduced by the schedule of the measured weights: the edge that bound a node carries the measured delay,
// the others a delay no larger than what was measured (0 for stream order and event waits, at most the call's
// own duration for a launch), so that a what-if can move a node earlier than it was.
#include "core/analysis/critical_path.h"
#include "core/analysis/critical_path_internal.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope {

namespace {

using Graph = DependencyGraph;

struct PendingEdge {
    std::uint32_t to;
    Graph::Edge edge;
};

/// One GPU stream lane of the window: its ops in order, and what the host-wait search reads.
struct StreamOps {
    LaneIndex lane;
    DeviceIndex device;
    std::int64_t stream = 0;
    std::vector<std::uint32_t> ops; // into graph.ops, in start order
    std::vector<TimeNs> launchPrefix; // max launch start (or own start without a launch) of ops[0..i]
    std::vector<TimeNs> ends; // ops' ends, clipped
    /// Stream-wait sync records on this stream whose recorded work the trace does not name: [start, end).
    /// Their starts, sorted by linkGpuOps().
    std::vector<TimeNs> unresolvedWaits;

    /// The last op launched at or before `launchedBy` that ended at or before `endedBy`, kNone if none.
    std::uint32_t lastBefore(TimeNs launchedBy, TimeNs endedBy) const
    {
        const auto a = std::upper_bound(launchPrefix.begin(), launchPrefix.end(), launchedBy) - launchPrefix.begin();
        const auto b = std::upper_bound(ends.begin(), ends.end(), endedBy) - ends.begin();
        const auto n = std::min(a, b);
        return n == 0 ? Graph::kNone : static_cast<std::uint32_t>(n - 1);
    }
};

/// A Kineto cuda_sync record (or an nsys / collector synchronization row) of the window, by correlation id.
struct SyncRecord {
    std::size_t stream = SIZE_MAX; // into streams: the stream it is drawn on (SIZE_MAX: none, a host-side wait)
    std::int64_t waitOnStream = -1; // Kineto's wait_on_stream
    std::uint32_t recordCorrelation = 0; // Kineto's wait_on_cuda_event_record_corr_id
    TimeNs start = 0;
    bool streamWait = false; // a device-side wait (cudaStreamWaitEvent)
};

bool isFreeCall(std::string_view name)
{
    // cudaFree and its driver twin synchronize the device before they return (CUDA "API synchronization behavior").
    return name == "cudaFree" || name.starts_with("cuMemFree");
}

PathCategory gpuCategory(const Trace& trace, const Event& e)
{
    if (e.kind == EventKind::Memcpy || e.kind == EventKind::Memset)
        return PathCategory::Memcpy;
    return (trace.nameClasses()[e.name.value] & kCommunicationName) ? PathCategory::Communication
                                                                    : PathCategory::Compute;
}

class GraphBuilder {
public:
    GraphBuilder(const Trace& trace, const PathWindow& window)
        : m_trace(trace)
        , m_w0(window.start)
        , m_w1(std::max(window.start, window.end))
    {
        m_graph.window = window;
        m_graph.window.end = m_w1;
    }

    Graph build();

private:
    TimeNs clamp(TimeNs t) const { return std::clamp(t, m_w0, m_w1); }
    /// Overlaps [w0, w1) (a zero-length event: lies in it).
    bool inWindow(const Event& e) const
    {
        return e.start == e.end ? e.start >= m_w0 && e.start < m_w1 : e.start < m_w1 && e.end > m_w0;
    }
    std::uint32_t addNode(TimeNs time, std::uint32_t op, PathCategory category, bool chained, bool gpu)
    {
        Graph::Node n;
        n.time = time;
        n.op = op;
        n.chainCategory = category;
        n.flags = static_cast<std::uint8_t>((chained ? Graph::kHasChainPred : 0) | (gpu ? Graph::kGpuNode : 0));
        if (chained)
            n.chainWeight = time - m_graph.nodes.back().time;
        m_graph.nodes.push_back(n);
        return static_cast<std::uint32_t>(m_graph.nodes.size() - 1);
    }
    void addEdge(std::uint32_t to, std::uint32_t from, TimeNs weight, PathCategory category, Graph::EdgeKind kind)
    {
        m_pending.push_back({ to, { weight, from, category, kind } });
        ++m_graph.edgeCounts[static_cast<std::size_t>(kind)];
    }
    void scanSyncRecords();
    void buildThread(LaneIndex lane, bool driver);
    void buildStreams();
    void linkGpuOps();
    void linkHostWaits();
    void linkSink();
    void finishEdges();
    void order();
    std::size_t streamOf(DeviceIndex device, std::int64_t stream) const
    {
        for (std::size_t s = 0; s < m_streams.size(); ++s) {
            if (m_streams[s].device == device && m_streams[s].stream == stream)
                return s;
        }
        return SIZE_MAX;
    }
    /// The op of a CPU event of the window, kNone if it is not one.
    std::uint32_t cpuOp(EventRef ref) const
    {
        const auto it = m_laneOps.find(ref.lane.value);
        if (it == m_laneOps.end() || ref.index < it->second.first)
            return Graph::kNone;
        const std::size_t i = ref.index - it->second.first;
        return i < it->second.ops.size() ? it->second.ops[i] : Graph::kNone;
    }

    const Trace& m_trace;
    TimeNs m_w0;
    TimeNs m_w1;
    Graph m_graph;
    std::vector<PendingEdge> m_pending;
    struct LaneOps {
        std::size_t first = 0;
        std::vector<std::uint32_t> ops; // by event index - first
    };
    std::unordered_map<std::uint32_t, LaneOps> m_laneOps; // CPU lanes
    std::vector<StreamOps> m_streams;
    std::unordered_map<std::uint32_t, SyncRecord> m_syncs; // by correlation
    std::unordered_map<std::uint32_t, TimeNs> m_recordStarts; // cudaEventRecord calls the syncs name
    std::vector<std::uint32_t> m_blockingCalls; // ops
    std::uint32_t m_driverBegin = 0; // the driver thread's nodes
    std::uint32_t m_driverEnd = 0;
};

void GraphBuilder::scanSyncRecords()
{
    const ProcessIndex process = m_graph.window.process;
    for (std::uint32_t l = 0; l < m_trace.lanes().size(); ++l) {
        const Lane& lane = m_trace.lanes()[l];
        if (lane.kind != LaneKind::GpuStream || lane.process != process)
            continue;
        m_streams.push_back({ LaneIndex { l }, lane.device, lane.stream, {}, {}, {}, {} });
    }
    for (std::size_t s = 0; s < m_streams.size(); ++s) {
        const Lane& lane = m_trace.lanes()[m_streams[s].lane.value];
        const auto [first, last] = lane.visibleRange(m_w0, m_w1 + 1);
        for (std::size_t i = first; i < last; ++i) {
            const Event& e = lane.events[i];
            if (e.kind != EventKind::Sync || e.end < m_w0 || e.start > m_w1)
                continue;
            SyncRecord r;
            r.stream = lane.stream >= 0 ? s : SIZE_MAX;
            r.start = e.start;
            const std::string_view name = m_trace.name(e);
            r.streamWait = lane.stream >= 0 && name.find("Wait") != std::string_view::npos;
            const std::string_view args = m_trace.argsJson(e);
            if (const auto v = argInteger(args, "wait_on_stream"))
                r.waitOnStream = *v;
            if (const auto v = argInteger(args, "wait_on_cuda_event_record_corr_id"); v && *v > 0)
                r.recordCorrelation = static_cast<std::uint32_t>(*v);
            if (r.recordCorrelation != 0)
                m_recordStarts.emplace(r.recordCorrelation, std::numeric_limits<TimeNs>::min());
            if (r.streamWait && (r.recordCorrelation == 0 || r.waitOnStream < 0)) {
                m_streams[s].unresolvedWaits.push_back(clamp(e.start));
                ++m_graph.eventWaitsUnresolved;
            }
            if (e.correlation != 0)
                m_syncs.emplace(e.correlation, r);
        }
    }
}

void GraphBuilder::buildThread(LaneIndex laneIndex, bool driver)
{
    const Lane& lane = m_trace.lanes()[laneIndex.value];
    const auto [first, last] = lane.visibleRange(m_w0, m_w1 + 1);
    LaneOps& laneOps = m_laneOps[laneIndex.value];
    laneOps.first = first;
    laneOps.ops.assign(last - first, Graph::kNone);
    const std::uint32_t laneBegin = static_cast<std::uint32_t>(m_graph.nodes.size());
    struct Open {
        std::uint32_t op;
        TimeNs end;
    };
    std::vector<Open> stack;
    bool firstNode = true;
    // A boundary at `time`; the interval before it on this thread is the time of `intervalOp` (kNone: outside
    // any range). On the driver thread that time is kept as measured; on another thread, time outside any range
    // is waiting for work, which the driver thread hands over (a wake edge from its latest boundary).
    auto emit = [&](TimeNs time, std::uint32_t intervalOp) {
        const bool idle = intervalOp == Graph::kNone;
        const PathCategory category = idle ? PathCategory::Unexplained : PathCategory::Cpu;
        const std::uint32_t node = addNode(time, intervalOp, category, !firstNode, false);
        const bool wake = !driver && (firstNode || idle);
        if (firstNode || wake) {
            if (!firstNode)
                m_graph.nodes[node].chainWeight = 0;
            std::uint32_t from = Graph::kNone;
            if (wake && m_driverEnd > m_driverBegin) {
                const auto begin = m_graph.nodes.begin() + m_driverBegin;
                const auto end = m_graph.nodes.begin() + m_driverEnd;
                const auto it
                    = std::upper_bound(begin, end, time, [](TimeNs t, const Graph::Node& n) { return t < n.time; });
                if (it != begin)
                    from = static_cast<std::uint32_t>(it - 1 - m_graph.nodes.begin());
            }
            if (from != Graph::kNone)
                addEdge(node, from, time - m_graph.nodes[from].time, PathCategory::Cpu, Graph::EdgeKind::Wake);
            else if (firstNode)
                addEdge(node, 0, time - m_w0, PathCategory::Unexplained, Graph::EdgeKind::Source);
        }
        firstNode = false;
        return node;
    };
    auto close = [&]() {
        const std::uint32_t op = stack.back().op;
        m_graph.ops[op].endNode = emit(stack.back().end, op);
        stack.pop_back();
    };
    for (std::size_t i = first; i < last; ++i) {
        const Event& e = lane.events[i];
        if (e.kind == EventKind::NvtxMark || !inWindow(e))
            continue;
        const TimeNs start = clamp(e.start);
        TimeNs end = clamp(e.end);
        while (!stack.empty() && stack.back().end <= start)
            close();
        if (!stack.empty())
            end = std::min(end, stack.back().end); // a child that outlives its parent ends with it
        const std::uint32_t op = static_cast<std::uint32_t>(m_graph.ops.size());
        m_graph.ops.push_back({ EventRef { laneIndex, static_cast<std::uint32_t>(i) }, e.name,
            stack.empty() ? Graph::kNone : stack.back().op, Graph::kNone, Graph::kNone });
        laneOps.ops[i - first] = op;
        m_graph.ops[op].startNode = emit(start, stack.empty() ? Graph::kNone : stack.back().op);
        stack.push_back({ op, end });
        if ((e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi)) {
            if (e.correlation != 0) {
                if (const auto it = m_recordStarts.find(e.correlation); it != m_recordStarts.end())
                    it->second = e.start;
            }
            if ((m_trace.nameClasses()[e.name.value] & kSyncCallName) || isFreeCall(m_trace.name(e)))
                m_blockingCalls.push_back(op);
        }
    }
    while (!stack.empty())
        close();
    if (driver) {
        m_driverBegin = laneBegin;
        m_driverEnd = static_cast<std::uint32_t>(m_graph.nodes.size());
    }
}

void GraphBuilder::buildStreams()
{
    for (StreamOps& stream : m_streams) {
        const Lane& lane = m_trace.lanes()[stream.lane.value];
        const auto [first, last] = lane.visibleRange(m_w0, m_w1 + 1);
        bool chained = false;
        TimeNs prefix = std::numeric_limits<TimeNs>::min();
        for (std::size_t i = first; i < last; ++i) {
            const Event& e = lane.events[i];
            if (!isGpuActivity(e.kind) || !inWindow(e))
                continue;
            const TimeNs start = clamp(e.start);
            const TimeNs end = clamp(e.end);
            if (chained && start < m_graph.nodes.back().time)
                chained = false; // overlapping ops on one stream: no order between them
            const std::uint32_t op = static_cast<std::uint32_t>(m_graph.ops.size());
            const EventRef ref { stream.lane, static_cast<std::uint32_t>(i) };
            m_graph.ops.push_back({ ref, e.name, Graph::kNone, Graph::kNone, Graph::kNone });
            m_graph.ops[op].startNode = addNode(start, op, PathCategory::Launch, chained, true);
            m_graph.nodes.back().chainWeight = 0; // set by linkGpuOps
            m_graph.ops[op].endNode = addNode(end, op, gpuCategory(m_trace, e), true, true);
            chained = true;
            const auto launch = m_trace.launchStartOf(ref);
            prefix = std::max(prefix, launch ? std::min(*launch, e.start) : e.start);
            stream.ops.push_back(op);
            stream.launchPrefix.push_back(prefix);
            stream.ends.push_back(end);
        }
    }
}

void GraphBuilder::linkGpuOps()
{
    // Event waits first, by the op they hold back.
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> waitsOf; // S node -> recorded work's E nodes
    for (const auto& [correlation, sync] : m_syncs) {
        if (!sync.streamWait || sync.stream == SIZE_MAX || sync.recordCorrelation == 0 || sync.waitOnStream < 0)
            continue;
        const StreamOps& waiting = m_streams[sync.stream];
        const std::size_t recorded = streamOf(waiting.device, sync.waitOnStream);
        const auto record = m_recordStarts.find(sync.recordCorrelation);
        if (recorded == SIZE_MAX || record == m_recordStarts.end()
            || record->second == std::numeric_limits<TimeNs>::min()) {
            ++m_graph.eventWaitsUnresolved;
            m_streams[sync.stream].unresolvedWaits.push_back(clamp(sync.start));
            continue;
        }
        const StreamOps& source = m_streams[recorded];
        const std::uint32_t r = source.lastBefore(record->second, std::numeric_limits<TimeNs>::max());
        // The op the wait holds back: the first on the waiting stream that starts at or after the wait.
        const auto next = std::lower_bound(waiting.ops.begin(), waiting.ops.end(), clamp(sync.start),
            [&](std::uint32_t op, TimeNs t) { return m_graph.nodes[m_graph.ops[op].startNode].time < t; });
        if (r == Graph::kNone || next == waiting.ops.end())
            continue;
        waitsOf[m_graph.ops[*next].startNode].push_back(m_graph.ops[source.ops[r]].endNode);
    }

    for (StreamOps& stream : m_streams) {
        std::sort(stream.unresolvedWaits.begin(), stream.unresolvedWaits.end());
        TimeNs previousStart = m_w0;
        for (const std::uint32_t op : stream.ops) {
            const std::uint32_t s = m_graph.ops[op].startNode;
            const TimeNs t = m_graph.nodes[s].time;
            // A stream wait enqueued since the op before started holds this op back (its work is unknown).
            const auto wait
                = std::lower_bound(stream.unresolvedWaits.begin(), stream.unresolvedWaits.end(), previousStart);
            const bool heldByUnknownWait = wait != stream.unresolvedWaits.end() && *wait < t;
            previousStart = t;
            // Candidates: (ready time, from node, kind). The latest ready binds with the measured delay.
            struct Candidate {
                TimeNs ready;
                std::uint32_t from;
                Graph::EdgeKind kind;
                TimeNs ownCost; // the delay a launch keeps when it does not bind
            };
            std::vector<Candidate> candidates;
            const bool chained = m_graph.nodes[s].flags & Graph::kHasChainPred;
            if (chained)
                candidates.push_back({ m_graph.nodes[s - 1].time, s - 1, Graph::EdgeKind::Source, 0 });
            if (const auto launch = m_trace.launchOf(m_graph.ops[op].event)) {
                const std::uint32_t call = cpuOp(*launch);
                if (call != Graph::kNone) {
                    const Graph::Op& c = m_graph.ops[call];
                    const TimeNs ready = m_graph.nodes[c.startNode].time;
                    if (ready <= t)
                        candidates.push_back(
                            { ready, c.startNode, Graph::EdgeKind::Launch, m_graph.nodes[c.endNode].time - ready });
                }
            }
            if (const auto it = waitsOf.find(s); it != waitsOf.end()) {
                for (const std::uint32_t e : it->second) {
                    if (m_graph.nodes[e].time <= t)
                        candidates.push_back({ m_graph.nodes[e].time, e, Graph::EdgeKind::EventWait, 0 });
                }
            }
            if (candidates.empty()) {
                addEdge(s, 0, t - m_w0, PathCategory::Unexplained, Graph::EdgeKind::Source);
                continue;
            }
            // Ties go to the launch (listed after stream order): the GPU was ready when the host issued it.
            std::size_t binding = 0;
            for (std::size_t c = 1; c < candidates.size(); ++c) {
                if (candidates[c].ready >= candidates[binding].ready)
                    binding = c;
            }
            const TimeNs delay = t - candidates[binding].ready;
            PathCategory category
                = candidates[binding].kind == Graph::EdgeKind::EventWait ? PathCategory::Sync : PathCategory::Launch;
            if (heldByUnknownWait)
                category = PathCategory::Sync;
            for (std::size_t c = 0; c < candidates.size(); ++c) {
                const Candidate& k = candidates[c];
                const bool binds = c == binding;
                if (k.kind == Graph::EdgeKind::Source) {
                    m_graph.nodes[s].chainWeight = binds ? delay : 0;
                    m_graph.nodes[s].chainCategory = category;
                } else {
                    const TimeNs weight
                        = binds ? delay : (k.kind == Graph::EdgeKind::Launch ? std::min(t - k.ready, k.ownCost) : 0);
                    addEdge(s, k.from, weight,
                        binds ? category
                              : (k.kind == Graph::EdgeKind::EventWait ? PathCategory::Sync : PathCategory::Launch),
                        k.kind);
                }
            }
        }
    }
}

void GraphBuilder::linkHostWaits()
{
    std::vector<std::pair<TimeNs, std::uint32_t>> waits; // (call start, edge index in m_pending)
    for (const std::uint32_t call : m_blockingCalls) {
        const Graph::Op& c = m_graph.ops[call];
        const Event& e = m_trace.event(c.event);
        const TimeNs h0 = m_graph.nodes[c.startNode].time;
        const TimeNs h1 = m_graph.nodes[c.endNode].time;
        TimeNs launchedBy = e.start;
        std::size_t only = SIZE_MAX;
        if (const auto it = m_syncs.find(e.correlation); e.correlation != 0 && it != m_syncs.end()) {
            const SyncRecord& sync = it->second;
            const auto record
                = sync.recordCorrelation ? m_recordStarts.find(sync.recordCorrelation) : m_recordStarts.end();
            if (sync.waitOnStream >= 0 && record != m_recordStarts.end()
                && record->second != std::numeric_limits<TimeNs>::min()) {
                const DeviceIndex device = sync.stream != SIZE_MAX
                    ? m_streams[sync.stream].device
                    : (m_streams.empty() ? DeviceIndex {} : m_streams.front().device);
                only = streamOf(device, sync.waitOnStream);
                launchedBy = record->second;
            } else if (sync.stream != SIZE_MAX && !sync.streamWait) {
                only = sync.stream;
            }
        }
        TimeNs best = std::numeric_limits<TimeNs>::min();
        std::uint32_t bestNode = Graph::kNone;
        for (std::size_t s = 0; s < m_streams.size(); ++s) {
            if (only != SIZE_MAX && s != only)
                continue;
            const std::uint32_t k = m_streams[s].lastBefore(launchedBy, h1);
            if (k == Graph::kNone)
                continue;
            const std::uint32_t node = m_graph.ops[m_streams[s].ops[k]].endNode;
            if (m_graph.nodes[node].time > best) {
                best = m_graph.nodes[node].time;
                bestNode = node;
            }
        }
        if (bestNode == Graph::kNone || best <= h0)
            continue; // the call did not wait for the device (or for nothing in the window)
        // The call's own time is what it took after the device was done; the wait before is the device's.
        Graph::Node& end = m_graph.nodes[c.endNode];
        end.chainWeight = std::min(end.chainWeight, h1 - best);
        waits.emplace_back(e.start, static_cast<std::uint32_t>(m_pending.size()));
        addEdge(c.endNode, bestNode, h1 - best, PathCategory::Sync, Graph::EdgeKind::HostWait);
    }
    std::sort(waits.begin(), waits.end());
    for (const auto& w : waits)
        m_graph.hostWaits.push_back(w.second); // pending indices; finishEdges() maps them
}

void GraphBuilder::linkSink()
{
    const std::uint32_t sink = addNode(m_w1, Graph::kNone, PathCategory::Unexplained, false, false);
    std::vector<std::uint32_t> preds;
    const std::uint32_t stepOp = m_graph.window.stepRange ? cpuOp(*m_graph.window.stepRange) : Graph::kNone;
    if (stepOp != Graph::kNone)
        preds.push_back(m_graph.ops[stepOp].endNode);
    else {
        for (const auto& [lane, laneOps] : m_laneOps) {
            for (auto it = laneOps.ops.rbegin(); it != laneOps.ops.rend(); ++it) {
                if (*it != Graph::kNone) {
                    // The thread's last boundary: the end of its outermost last op.
                    std::uint32_t op = *it;
                    while (m_graph.ops[op].parent != Graph::kNone)
                        op = m_graph.ops[op].parent;
                    preds.push_back(m_graph.ops[op].endNode);
                    break;
                }
            }
        }
    }
    for (const StreamOps& stream : m_streams) {
        if (!stream.ops.empty())
            preds.push_back(m_graph.ops[stream.ops.back()].endNode);
    }
    std::uint32_t latest = Graph::kNone;
    for (const std::uint32_t p : preds) {
        addEdge(sink, p, 0, PathCategory::Unexplained, Graph::EdgeKind::Sink);
        if (latest == Graph::kNone || m_graph.nodes[p].time > m_graph.nodes[latest].time)
            latest = p;
    }
    // Nothing ends at the window end (an explicit window past the last event): the rest is idle.
    if (latest == Graph::kNone)
        addEdge(sink, 0, m_w1 - m_w0, PathCategory::Unexplained, Graph::EdgeKind::Tail);
    else if (m_graph.nodes[latest].time < m_w1)
        addEdge(sink, latest, m_w1 - m_graph.nodes[latest].time, PathCategory::Unexplained, Graph::EdgeKind::Tail);
}

void GraphBuilder::finishEdges()
{
    const std::size_t n = m_graph.nodes.size();
    std::vector<std::uint32_t> count(n + 1, 0);
    for (const PendingEdge& p : m_pending)
        ++count[p.to + 1];
    for (std::size_t i = 0; i < n; ++i) {
        count[i + 1] += count[i];
        m_graph.nodes[i].firstEdge = count[i];
    }
    m_graph.edges.resize(m_pending.size());
    std::vector<std::uint32_t> slotOf(m_pending.size());
    for (std::size_t i = 0; i < m_pending.size(); ++i) {
        slotOf[i] = count[m_pending[i].to]++;
        m_graph.edges[slotOf[i]] = m_pending[i].edge;
    }
    for (std::uint32_t& w : m_graph.hostWaits)
        w = slotOf[w];
    m_pending = {};
}

void GraphBuilder::order()
{
    // Kahn over the chain edges and the extra edges. Every edge goes forward in measured time; only zero-delay
    // edges between nodes of one instant can close a cycle, and those are dropped (counted) when one is met.
    Graph& g = m_graph;
    const std::uint32_t n = static_cast<std::uint32_t>(g.nodes.size());
    std::vector<std::uint32_t> indegree(n, 0);
    std::vector<std::uint32_t> outCount(n + 1, 0);
    for (std::uint32_t v = 0; v < n; ++v) {
        indegree[v] = (g.nodes[v].flags & Graph::kHasChainPred ? 1 : 0) + (g.edgeEnd(v) - g.nodes[v].firstEdge);
        for (std::uint32_t e = g.nodes[v].firstEdge; e < g.edgeEnd(v); ++e)
            ++outCount[g.edges[e].from + 1];
    }
    for (std::uint32_t v = 0; v < n; ++v)
        outCount[v + 1] += outCount[v];
    std::vector<std::uint32_t> outs(outCount[n]);
    std::vector<std::uint32_t> fill(outCount.begin(), outCount.end() - 1);
    for (std::uint32_t v = 0; v < n; ++v) {
        for (std::uint32_t e = g.nodes[v].firstEdge; e < g.edgeEnd(v); ++e)
            outs[fill[g.edges[e].from]++] = e;
    }
    std::vector<std::uint32_t> edgeTo(g.edges.size());
    for (std::uint32_t v = 0; v < n; ++v) {
        for (std::uint32_t e = g.nodes[v].firstEdge; e < g.edgeEnd(v); ++e)
            edgeTo[e] = v;
    }
    g.order.clear();
    g.order.reserve(n);
    std::vector<std::uint32_t> ready;
    for (std::uint32_t v = 0; v < n; ++v) {
        if (indegree[v] == 0)
            ready.push_back(v);
    }
    std::vector<bool> done(n, false);
    auto release = [&](std::uint32_t v) {
        if (--indegree[v] == 0)
            ready.push_back(v);
    };
    while (g.order.size() < n) {
        if (ready.empty()) {
            // A cycle among equal instants: drop the zero-delay extra edges into the earliest waiting nodes.
            TimeNs earliest = std::numeric_limits<TimeNs>::max();
            for (std::uint32_t v = 0; v < n; ++v) {
                if (!done[v])
                    earliest = std::min(earliest, g.nodes[v].time);
            }
            for (std::uint32_t v = 0; v < n; ++v) {
                if (done[v] || g.nodes[v].time != earliest)
                    continue;
                for (std::uint32_t e = g.nodes[v].firstEdge; e < g.edgeEnd(v); ++e) {
                    Graph::Edge& edge = g.edges[e];
                    if (!done[edge.from] && edge.kind != Graph::EdgeKind::Source && edge.weight == 0) {
                        edge.kind = Graph::EdgeKind::Source; // kept for the counts, but from the source: inert
                        edge.from = 0;
                        edge.weight = 0;
                        ++g.cycleEdgesDropped;
                        release(v);
                    }
                }
            }
            if (ready.empty())
                break; // cannot happen with forward edges; leave the order short rather than loop
            continue;
        }
        const std::uint32_t v = ready.back();
        ready.pop_back();
        done[v] = true;
        g.order.push_back(v);
        if (v + 1 < n && (g.nodes[v + 1].flags & Graph::kHasChainPred))
            release(v + 1);
        for (std::uint32_t k = outCount[v]; k < outCount[v + 1]; ++k) {
            const std::uint32_t e = outs[k];
            if (g.edges[e].from == v)
                release(edgeTo[e]);
        }
    }
}

Graph GraphBuilder::build()
{
    addNode(m_w0, Graph::kNone, PathCategory::Unexplained, false, false); // the source
    scanSyncRecords();
    // The driver thread: the one holding the step's range, else the process's busiest thread in the window.
    const ProcessIndex process = m_graph.window.process;
    std::optional<LaneIndex> driver;
    if (m_graph.window.stepRange)
        driver = m_graph.window.stepRange->lane;
    // Without a step, the thread that is first at work in the window (more events break a tie): the one that
    // hands work to the others, as a training loop's main thread does.
    std::vector<LaneIndex> threads;
    std::pair<TimeNs, std::size_t> best { std::numeric_limits<TimeNs>::max(), 0 };
    for (std::uint32_t l = 0; l < m_trace.lanes().size(); ++l) {
        const Lane& lane = m_trace.lanes()[l];
        if (lane.kind != LaneKind::CpuThread || lane.process != process)
            continue;
        threads.push_back(LaneIndex { l });
        const auto [first, last] = lane.visibleRange(m_w0, m_w1 + 1);
        for (std::size_t i = first; i < last && !m_graph.window.stepRange; ++i) {
            if (!inWindow(lane.events[i]))
                continue;
            const TimeNs start = clamp(lane.events[i].start);
            if (start < best.first || (start == best.first && last - first > best.second)) {
                best = { start, last - first };
                driver = LaneIndex { l };
            }
            break;
        }
    }
    if (driver)
        buildThread(*driver, true);
    for (const LaneIndex lane : threads) {
        if (!driver || lane.value != driver->value)
            buildThread(lane, false);
    }
    buildStreams();
    linkGpuOps();
    linkHostWaits();
    linkSink();
    finishEdges();
    order();
    return std::move(m_graph);
}

} // namespace

DependencyGraph buildDependencyGraph(const Trace& trace, const PathWindow& window)
{
    return GraphBuilder(trace, window).build();
}

std::size_t DependencyGraph::bytes() const
{
    return nodes.capacity() * sizeof(Node) + edges.capacity() * sizeof(Edge) + ops.capacity() * sizeof(Op)
        + order.capacity() * sizeof(std::uint32_t) + hostWaits.capacity() * sizeof(std::uint32_t);
}

} // namespace gapscope
