// SPDX-License-Identifier: MIT
#pragma once

// The dependency graph of a window of one process and its critical path (docs/critical-path.md,
// docs/definitions.md "Critical path"). The graph is built once per window from the finished trace; the measured
// schedule, a what-if re-schedule (what_if.h) and the path of either are passes over its arrays.

#include "core/analysis/analysis.h"
#include "core/model/trace.h"

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

/// The segment categories of a critical path; every instant of the window is in exactly one.
enum class PathCategory : std::uint8_t { Cpu, Launch, Compute, Communication, Memcpy, Sync, Unexplained };
inline constexpr int kPathCategoryCount = 7;
/// "cpu", "launch", "compute", "communication", "memcpy", "sync", "unexplained": the JSON keys.
std::string_view pathCategoryName(PathCategory category);

/// The window a critical path is computed over: one process, [start, end), a step or an explicit range.
struct PathWindow {
    WindowKind kind = WindowKind::Explicit; // Steps for a step, Explicit for T0:T1
    ProcessIndex process;
    TimeNs start = 0;
    TimeNs end = 0;
    /// The step's name ("ProfilerStep#7"), empty for an explicit window.
    std::string name;
    /// The CPU range that defines the step: its end is the window's CPU end. Absent for an explicit window.
    std::optional<EventRef> stepRange;
    TimeNs length() const { return end - start; }
};

/// One window per counted step of every process (warm-up steps left out), in process then time order.
std::vector<PathWindow> stepPathWindows(const Trace& trace, const std::string& stepPattern, int warmupSteps);

/// The warm-up a path or a what-if leaves out when not told: as many steps as the measured verdict leaves out at the
/// least (noteComparisonOptions), so that a predicted step p50 and the measured one are over the same steps.
inline constexpr int kDefaultPathWarmupSteps = 1;
/// The counted steps and the warm-up they were counted with.
struct CountedStepWindows {
    std::vector<PathWindow> windows;
    int warmupSteps = 0;
};
/// stepPathWindows() with `warmupSteps`, or without it kDefaultPathWarmupSteps; a default that would leave no step
/// of a trace that has steps (a trace of one step) leaves none out instead.
CountedStepWindows countedStepWindows(
    const Trace& trace, const std::string& stepPattern, std::optional<int> warmupSteps);
/// An explicit window of a process: [start, end) clipped to nothing (end <= start gives an empty window).
PathWindow explicitPathWindow(ProcessIndex process, TimeNs start, TimeNs end);
/// The process an explicit window is over when none is named: the first with GPU activity, else process 0.
ProcessIndex defaultPathProcess(const Trace& trace);

/// The graph. Nodes are instants (a start or an end of an op, clipped to the window); the edge from the node
/// before on the same lane (a thread's next boundary, a stream's next op start or end) is implicit and carries
/// `chainWeight`; every other dependency is an Edge stored with the node it leads to. Node 0 is the source (the
/// window start), the last node the sink (the window end).
class DependencyGraph {
public:
    static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();
    enum NodeFlag : std::uint8_t {
        kHasChainPred = 1, // the node before it on its lane leads to it
        kGpuNode = 2,
    };
    struct Node {
        TimeNs time = 0; // measured, clipped to the window
        TimeNs chainWeight = 0; // of the implicit edge from node - 1
        std::uint32_t op = kNone; // the op whose time the chain edge is (innermost open range, the GPU op)
        std::uint32_t firstEdge = 0; // incoming extra edges: [firstEdge, next node's firstEdge)
        PathCategory chainCategory = PathCategory::Unexplained;
        std::uint8_t flags = 0;
    };
    enum class EdgeKind : std::uint8_t { Source, Launch, EventWait, HostWait, Wake, Sink, Tail };
    struct Edge {
        TimeNs weight = 0;
        std::uint32_t from = 0;
        PathCategory category = PathCategory::Unexplained;
        EdgeKind kind = EdgeKind::Source;
    };
    /// An event of the window that owns nodes: a CPU call or range, or a GPU op.
    struct Op {
        EventRef event;
        StringId name;
        std::uint32_t parent = kNone; // enclosing op on the same thread
        std::uint32_t startNode = kNone;
        std::uint32_t endNode = kNone;
    };

    PathWindow window;
    std::vector<Node> nodes;
    std::vector<Edge> edges;
    std::vector<Op> ops;
    /// A topological order of the nodes (source first, sink last).
    std::vector<std::uint32_t> order;
    /// The host-wait edges (indices into `edges`), by the start of their call: `--drop-sync N` names the N-th.
    std::vector<std::uint32_t> hostWaits;
    /// Counts of what the build found, for the report: dependencies found per kind, and what it had to leave out.
    std::array<std::size_t, 7> edgeCounts {}; // by EdgeKind
    std::size_t eventWaitsUnresolved = 0; // a stream wait whose recorded work the trace does not name
    std::size_t cycleEdgesDropped = 0; // zero-delay edges that closed a cycle among equal instants

    std::uint32_t source() const { return 0; }
    std::uint32_t sink() const { return static_cast<std::uint32_t>(nodes.size() - 1); }
    std::uint32_t edgeEnd(std::uint32_t node) const
    {
        return node + 1 < nodes.size() ? nodes[node + 1].firstEdge : static_cast<std::uint32_t>(edges.size());
    }
    /// Bytes the graph holds (its vectors' capacities).
    std::size_t bytes() const;
};
static_assert(sizeof(DependencyGraph::Node) == 32, "a graph node is 32 bytes; ops and edges add the rest");
static_assert(sizeof(DependencyGraph::Edge) == 16);
static_assert(sizeof(DependencyGraph::Op) == 24);

/// Builds the graph of a window (docs/critical-path.md lists which edges come from what).
DependencyGraph buildDependencyGraph(const Trace& trace, const PathWindow& window);

/// The weights a schedule is computed with: the graph's measured ones, or a what-if's.
struct PathWeights {
    std::vector<TimeNs> chain; // by node
    std::vector<TimeNs> edges; // by edge; kDropped: the edge is left out
    static constexpr TimeNs kDropped = std::numeric_limits<TimeNs>::min();
};
PathWeights measuredWeights(const DependencyGraph& graph);

/// Every node as early as its incoming edges allow (source at the window start).
std::vector<TimeNs> scheduleNodes(const DependencyGraph& graph, const PathWeights& weights);

struct PathSegment {
    TimeNs start = 0;
    TimeNs end = 0;
    PathCategory category = PathCategory::Unexplained;
    StringId name; // the innermost range, the GPU op, the call waited in; 0: outside any range
    std::uint32_t op = DependencyGraph::kNone;
};
struct NameOnPath {
    StringId name;
    PathCategory category = PathCategory::Unexplained;
    TimeNs onPathNs = 0;
};
struct OpSlack {
    EventRef event;
    StringId name;
    TimeNs start = 0; // in the schedule the path is of
    TimeNs duration = 0;
    TimeNs slackNs = 0;
};

/// A critical path of a schedule: segments in time order from the window start, summing to lengthNs.
struct CriticalPath {
    PathWindow window;
    TimeNs start = 0;
    TimeNs lengthNs = 0; // sink - source of the schedule
    std::array<TimeNs, kPathCategoryCount> byCategory {};
    std::vector<PathSegment> segments; // adjacent segments of one name and category merged
    std::vector<NameOnPath> top; // by time on the path, longest first
    std::vector<OpSlack> slack; // the longest ops off the path (slack > 0) with their slack
};

struct PathOptions {
    std::size_t topNames = 20;
    std::size_t slackOps = 20;
};

/// The path of a schedule (scheduleNodes with these weights): from the sink back along edges with no slack.
CriticalPath criticalPathOf(const DependencyGraph& graph, const PathWeights& weights, const std::vector<TimeNs>& times,
    const PathOptions& options);
/// The measured critical path of a window: build, schedule, path.
CriticalPath criticalPath(const Trace& trace, const PathWindow& window, const PathOptions& options = {});

/// The measured critical path of each window, on up to `threads` threads (0: every core): every step of a trace.
std::vector<CriticalPath> criticalPaths(
    const Trace& trace, const std::vector<PathWindow>& windows, const PathOptions& options = {}, unsigned threads = 0);

/// The name a segment is shown under: the trace's string, or "(outside any range)" for id 0.
std::string_view pathSegmentName(const Trace& trace, StringId name);

} // namespace gapscope
