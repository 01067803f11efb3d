// SPDX-License-Identifier: MIT
// `gapscope critical-path: the critical path of a step or window` (docs/critical-path.md).
#include "cli/commands.h"
#include "cli/critical_path_report.h"
#include "cli/text_columns.h"
#include "core/io/trace_file.h"
#include "core/model/time_format.h"

#include <nlohmann/json.hpp>

namespace gapscope::cli {

namespace {

void writePathText(const Trace& trace, const DependencyGraph& graph, const CriticalPath& path,
    const PathCommandInput& input, std::ostream& out)
{
    out << "Critical path of " << windowLine(trace, path.window) << "\n";
    if (path.window.kind == WindowKind::Steps && !input.options.step)
        out << "  the median counted step (warm-up " << input.warmupSteps << " excluded)\n";
    const auto count = [&](DependencyGraph::EdgeKind kind) {
        return std::to_string(graph.edgeCounts[static_cast<std::size_t>(kind)]);
    };
    out << "  dependencies: " << count(DependencyGraph::EdgeKind::Launch) << " launches, "
        << count(DependencyGraph::EdgeKind::EventWait) << " event waits, " << count(DependencyGraph::EdgeKind::HostWait)
        << " host waits for the GPU, " << count(DependencyGraph::EdgeKind::Wake) << " thread wake-ups";
    if (graph.eventWaitsUnresolved > 0)
        out << "; " << graph.eventWaitsUnresolved << " stream waits whose recorded work the trace does not name";
    out << "\n\nBy category (sums to the window):\n";
    writeBreakdown(path.byCategory, path.lengthNs, out);
    out << "\nTop " << path.top.size() << " on the path (innermost range, GPU op or waiting call):\n";
    for (const NameOnPath& n : path.top) {
        out << "  " << pad(formatDuration(n.onPathNs), 12) << pad(percent(n.onPathNs, path.lengthNs), 9)
            << pad(std::string(pathCategoryName(n.category)), 15) << pathSegmentName(trace, n.name) << "\n";
    }
    out << "\nSlack of the longest ops off the path (how much longer each could take before the path changes):\n";
    if (path.slack.empty())
        out << "  (none)\n";
    for (const OpSlack& s : path.slack) {
        out << "  " << pad(formatDuration(s.duration), 12) << "slack " << pad(formatDuration(s.slackNs), 12)
            << trace.strings().view(s.name) << "\n";
    }
}

} // namespace

int runCriticalPath(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    int exitCode = 0;
    const auto input = preparePathCommand("critical-path", args, false, err, exitCode);
    if (!input)
        return exitCode;
    const Trace& trace = input->trace;
    const CriticalPathOptions& options = input->options;
    const std::vector<PathWindow>& windows = input->windows;
    const PathWindow& window = windows.front();
    const DependencyGraph graph = buildDependencyGraph(trace, window);
    const PathWeights weights = measuredWeights(graph);
    const CriticalPath path
        = criticalPathOf(graph, weights, scheduleNodes(graph, weights), { options.top, options.top });
    if (!options.json) {
        writePathText(trace, graph, path, *input, out);
        return 0;
    }
    nlohmann::json slack = nlohmann::json::array();
    for (const OpSlack& s : path.slack) {
        slack.push_back({ { "name", trace.strings().view(s.name) }, { "slack_ns", s.slackNs }, { "start_ns", s.start },
            { "duration_ns", s.duration } });
    }
    nlohmann::json segments = nlohmann::json::array();
    for (const PathSegment& s : path.segments) {
        segments.push_back({ { "start_ns", s.start }, { "end_ns", s.end }, { "category", pathCategoryName(s.category) },
            { "name", pathSegmentName(trace, s.name) } });
    }
    const auto count = [&](DependencyGraph::EdgeKind kind) { return graph.edgeCounts[static_cast<std::size_t>(kind)]; };
    const nlohmann::json doc { { "window", windowJson(trace, window) }, { "length_ns", path.lengthNs },
        { "by_category_ns", categoriesJson(path.byCategory) }, { "top", topJson(trace, path) }, { "slack", slack },
        { "dependencies",
            { { "launch", count(DependencyGraph::EdgeKind::Launch) },
                { "event_wait", count(DependencyGraph::EdgeKind::EventWait) },
                { "host_wait", count(DependencyGraph::EdgeKind::HostWait) },
                { "wake", count(DependencyGraph::EdgeKind::Wake) },
                { "unresolved_event_waits", graph.eventWaitsUnresolved } } },
        { "segments", segments }, { "warmup_steps", input->warmupSteps } };
    out << doc.dump(2) << "\n";
    return 0;
}

} // namespace gapscope::cli
