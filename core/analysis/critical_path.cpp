// SPDX-License-Identifier: MIT
// The schedule of a dependency graph, its critical path and the slack of the ops off it.
#include "core/analysis/critical_path.h"
#include "core/parallel_for.h"

#include <algorithm>

namespace gapscope {

using Graph = DependencyGraph;

std::string_view pathCategoryName(PathCategory category)
{
    switch (category) {
    case PathCategory::Cpu:
        return "cpu";
    case PathCategory::Launch:
        return "launch";
    case PathCategory::Compute:
        return "compute";
    case PathCategory::Communication:
        return "communication";
    case PathCategory::Memcpy:
        return "memcpy";
    case PathCategory::Sync:
        return "sync";
    case PathCategory::Unexplained:
        return "unexplained";
    }
    return "unexplained";
}

std::string_view pathSegmentName(const Trace& trace, StringId name)
{
    return name.value == 0 ? std::string_view("(outside any range)") : trace.strings().view(name);
}

std::vector<PathWindow> stepPathWindows(const Trace& trace, const std::string& stepPattern, int warmupSteps)
{
    std::vector<PathWindow> windows;
    for (const Step& step : findSteps(trace, stepPattern, warmupSteps)) {
        if (step.warmup)
            continue;
        PathWindow w;
        w.kind = WindowKind::Steps;
        w.process = step.process;
        w.start = step.start;
        w.end = step.end;
        w.name = step.name;
        w.stepRange = step.cpuRange;
        windows.push_back(std::move(w));
    }
    return windows;
}

CountedStepWindows countedStepWindows(
    const Trace& trace, const std::string& stepPattern, std::optional<int> warmupSteps)
{
    CountedStepWindows counted { stepPathWindows(trace, stepPattern, warmupSteps.value_or(kDefaultPathWarmupSteps)),
        warmupSteps.value_or(kDefaultPathWarmupSteps) };
    if (counted.windows.empty() && !warmupSteps && counted.warmupSteps > 0)
        counted = { stepPathWindows(trace, stepPattern, 0), 0 };
    return counted;
}

PathWindow explicitPathWindow(ProcessIndex process, TimeNs start, TimeNs end)
{
    PathWindow w;
    w.kind = WindowKind::Explicit;
    w.process = process;
    w.start = start;
    w.end = std::max(start, end);
    return w;
}

ProcessIndex defaultPathProcess(const Trace& trace)
{
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::GpuStream && std::any_of(lane.events.begin(), lane.events.end(), [](const Event& e) {
                return isGpuActivity(e.kind);
            }))
            return lane.process;
    }
    return ProcessIndex { 0 };
}

PathWeights measuredWeights(const DependencyGraph& graph)
{
    PathWeights w;
    w.chain.resize(graph.nodes.size());
    for (std::size_t i = 0; i < graph.nodes.size(); ++i)
        w.chain[i] = graph.nodes[i].chainWeight;
    w.edges.resize(graph.edges.size());
    for (std::size_t i = 0; i < graph.edges.size(); ++i)
        w.edges[i] = graph.edges[i].weight;
    return w;
}

std::vector<TimeNs> scheduleNodes(const DependencyGraph& graph, const PathWeights& weights)
{
    constexpr TimeNs kUnset = std::numeric_limits<TimeNs>::min();
    std::vector<TimeNs> t(graph.nodes.size(), kUnset);
    for (const std::uint32_t v : graph.order) {
        TimeNs best = kUnset;
        const Graph::Node& n = graph.nodes[v];
        if (n.flags & Graph::kHasChainPred)
            best = t[v - 1] + weights.chain[v];
        for (std::uint32_t e = n.firstEdge; e < graph.edgeEnd(v); ++e) {
            if (weights.edges[e] != PathWeights::kDropped)
                best = std::max(best, t[graph.edges[e].from] + weights.edges[e]);
        }
        t[v] = best == kUnset ? graph.window.start : best;
    }
    return t;
}

namespace {

/// The latest time each node can reach without delaying the sink (INT64_MAX: it does not lead to the sink).
std::vector<TimeNs> latestTimes(const DependencyGraph& graph, const PathWeights& weights, const std::vector<TimeNs>& t)
{
    constexpr TimeNs kFree = std::numeric_limits<TimeNs>::max();
    std::vector<TimeNs> latest(graph.nodes.size(), kFree);
    latest[graph.sink()] = t[graph.sink()];
    for (auto it = graph.order.rbegin(); it != graph.order.rend(); ++it) {
        const std::uint32_t v = *it;
        if (latest[v] == kFree)
            continue;
        const Graph::Node& n = graph.nodes[v];
        if (n.flags & Graph::kHasChainPred)
            latest[v - 1] = std::min(latest[v - 1], latest[v] - weights.chain[v]);
        for (std::uint32_t e = n.firstEdge; e < graph.edgeEnd(v); ++e) {
            if (weights.edges[e] != PathWeights::kDropped)
                latest[graph.edges[e].from] = std::min(latest[graph.edges[e].from], latest[v] - weights.edges[e]);
        }
    }
    return latest;
}

} // namespace

CriticalPath criticalPathOf(
    const DependencyGraph& graph, const PathWeights& weights, const std::vector<TimeNs>& t, const PathOptions& options)
{
    CriticalPath path;
    path.window = graph.window;
    path.start = t[graph.source()];
    path.lengthNs = t[graph.sink()] - t[graph.source()];
    // Back from the sink along the edge that bound each node: extra edges first (the build lists the binding
    // dependency of a GPU op there), then the chain.
    std::vector<PathSegment> reversed;
    std::uint32_t v = graph.sink();
    while (v != graph.source()) {
        const Graph::Node& n = graph.nodes[v];
        std::uint32_t from = Graph::kNone;
        PathSegment segment;
        for (std::uint32_t e = n.firstEdge; e < graph.edgeEnd(v); ++e) {
            if (weights.edges[e] != PathWeights::kDropped && t[graph.edges[e].from] + weights.edges[e] == t[v]) {
                from = graph.edges[e].from;
                segment.category = graph.edges[e].category;
                // An extra edge is named by the op it leads to (the GPU op launched or held, the call that waited).
                segment.op = n.op;
                break;
            }
        }
        if (from == Graph::kNone) {
            if (!(n.flags & Graph::kHasChainPred))
                break; // cannot happen in a schedule of this graph: every node but the source has a predecessor
            from = v - 1;
            segment.category = n.chainCategory;
            segment.op = n.op;
        }
        segment.start = t[from];
        segment.end = t[v];
        segment.name = segment.op == Graph::kNone ? StringId {} : graph.ops[segment.op].name;
        if (segment.end > segment.start)
            reversed.push_back(segment);
        v = from;
    }
    for (auto it = reversed.rbegin(); it != reversed.rend(); ++it) {
        path.byCategory[static_cast<std::size_t>(it->category)] += it->end - it->start;
        if (!path.segments.empty() && path.segments.back().category == it->category
            && path.segments.back().name == it->name && path.segments.back().end == it->start) {
            path.segments.back().end = it->end;
            continue;
        }
        path.segments.push_back(*it);
    }
    // The path starts at the source and ends at the sink, so the categories hold every instant between.
    // By (name, category): the segments' keys sorted, then summed in runs.
    std::vector<std::pair<std::uint64_t, TimeNs>> keyed;
    keyed.reserve(path.segments.size());
    for (const PathSegment& s : path.segments)
        keyed.emplace_back(
            (std::uint64_t { s.name.value } << 8) | static_cast<std::uint8_t>(s.category), s.end - s.start);
    std::sort(keyed.begin(), keyed.end());
    for (std::size_t i = 0; i < keyed.size();) {
        NameOnPath n { StringId { static_cast<std::uint32_t>(keyed[i].first >> 8) },
            static_cast<PathCategory>(keyed[i].first & 0xff), 0 };
        const std::uint64_t key = keyed[i].first;
        for (; i < keyed.size() && keyed[i].first == key; ++i)
            n.onPathNs += keyed[i].second;
        path.top.push_back(n);
    }
    std::sort(path.top.begin(), path.top.end(), [](const NameOnPath& a, const NameOnPath& b) {
        return a.onPathNs != b.onPathNs ? a.onPathNs > b.onPathNs : a.name.value < b.name.value;
    });
    if (path.top.size() > options.topNames)
        path.top.resize(options.topNames);

    if (options.slackOps > 0) {
        const std::vector<TimeNs> latest = latestTimes(graph, weights, t);
        std::vector<OpSlack> off;
        for (const Graph::Op& op : graph.ops) {
            const TimeNs slack = latest[op.endNode] - t[op.endNode];
            if (latest[op.endNode] == std::numeric_limits<TimeNs>::max() || slack <= 0)
                continue;
            off.push_back({ op.event, op.name, t[op.startNode], t[op.endNode] - t[op.startNode], slack });
        }
        const std::size_t keep = std::min(off.size(), options.slackOps);
        std::partial_sort(off.begin(), off.begin() + static_cast<std::ptrdiff_t>(keep), off.end(),
            [](const OpSlack& a, const OpSlack& b) {
                return a.duration != b.duration ? a.duration > b.duration : a.start < b.start;
            });
        off.resize(keep);
        path.slack = std::move(off);
    }
    return path;
}

CriticalPath criticalPath(const Trace& trace, const PathWindow& window, const PathOptions& options)
{
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    const PathWeights weights = measuredWeights(graph);
    return criticalPathOf(graph, weights, scheduleNodes(graph, weights), options);
}

std::vector<CriticalPath> criticalPaths(
    const Trace& trace, const std::vector<PathWindow>& windows, const PathOptions& options, unsigned threads)
{
    std::vector<CriticalPath> paths(windows.size());
    parallelFor(windows.size(), threadsOrCores(threads),
        [&](std::size_t i) { paths[i] = criticalPath(trace, windows[i], options); });
    return paths;
}

} // namespace gapscope
