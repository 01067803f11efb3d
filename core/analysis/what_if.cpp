// SPDX-License-Identifier: MIT
#include "core/analysis/what_if.h"
#include "core/parallel_for.h"

#include <charconv>
#include <cmath>
#include <regex>

namespace gapscope {

using Graph = DependencyGraph;

ParseResult<ScaleRule> parseScaleRule(std::string_view text)
{
    const std::size_t eq = text.rfind('=');
    if (eq == std::string_view::npos || eq == 0)
        return UsageError { "--scale wants REGEX=F (e.g. 'nccl=0.5'), not '" + std::string(text) + "'" };
    const std::string number(text.substr(eq + 1));
    char* end = nullptr;
    const double factor = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(factor) || factor < 0)
        return UsageError { "--scale: '" + number + "' is not a factor >= 0 (in '" + std::string(text) + "')" };
    return ScaleRule { std::string(text.substr(0, eq)), factor };
}

ParseResult<PathWeights> whatIfWeights(const Trace& trace, const DependencyGraph& graph, const WhatIfChanges& changes,
    std::vector<std::size_t>* matchedOps)
{
    PathWeights w = measuredWeights(graph);
    std::vector<std::regex> patterns;
    for (const ScaleRule& rule : changes.scales) {
        try {
            patterns.emplace_back(rule.pattern, std::regex::ECMAScript | std::regex::optimize);
        } catch (const std::regex_error& e) {
            return UsageError { "--scale: '" + rule.pattern + "' is not a valid regex: " + e.what() };
        }
    }
    if (matchedOps)
        matchedOps->assign(changes.scales.size(), 0);
    if (!patterns.empty()) {
        // Each distinct name is matched once; an op's factor is its own times its enclosing ops' (parents come
        // first in `ops`, as a thread's ranges are opened before their children).
        // By string id (dense): each name is matched against the rules the first time an op has it.
        constexpr double kUnmatched = -1.0;
        std::vector<double> byName(trace.strings().size() + 1, kUnmatched);
        std::vector<std::uint32_t> namesSeen;
        std::vector<double> factor(graph.ops.size(), 1.0);
        for (std::size_t o = 0; o < graph.ops.size(); ++o) {
            const Graph::Op& op = graph.ops[o];
            double& f = byName[op.name.value];
            if (f == kUnmatched) {
                f = 1.0;
                const std::string name(trace.strings().view(op.name));
                for (std::size_t p = 0; p < patterns.size(); ++p) {
                    if (std::regex_search(name, patterns[p]))
                        f *= changes.scales[p].factor;
                }
                namesSeen.push_back(op.name.value);
            }
            factor[o] = f * (op.parent == Graph::kNone ? 1.0 : factor[op.parent]);
        }
        if (matchedOps) {
            // Per rule, the ops whose own name it matches: counted per name, then by how many ops have the name.
            std::vector<std::size_t> opsByName(trace.strings().size() + 1, 0);
            for (const Graph::Op& op : graph.ops)
                ++opsByName[op.name.value];
            for (const std::uint32_t id : namesSeen) {
                const std::string name(trace.strings().view(StringId { id }));
                for (std::size_t p = 0; p < patterns.size(); ++p)
                    (*matchedOps)[p] += std::regex_search(name, patterns[p]) ? opsByName[id] : 0;
            }
        }
        for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
            const Graph::Node& n = graph.nodes[v];
            if (n.op == Graph::kNone || factor[n.op] == 1.0 || !(n.flags & Graph::kHasChainPred))
                continue;
            // A GPU op's start node carries the delay before it, not its own time.
            if ((n.flags & Graph::kGpuNode) && graph.ops[n.op].startNode == v)
                continue;
            w.chain[v] = static_cast<TimeNs>(std::llround(static_cast<double>(w.chain[v]) * factor[n.op]));
        }
    }
    if (changes.launchDelayCapNs) {
        const TimeNs cap = std::max<TimeNs>(0, *changes.launchDelayCapNs);
        for (std::size_t v = 0; v < graph.nodes.size(); ++v) {
            if (graph.nodes[v].chainCategory == PathCategory::Launch && (graph.nodes[v].flags & Graph::kGpuNode))
                w.chain[v] = std::min(w.chain[v], cap);
        }
        for (std::size_t e = 0; e < graph.edges.size(); ++e) {
            if (graph.edges[e].kind == Graph::EdgeKind::Launch && graph.edges[e].category == PathCategory::Launch)
                w.edges[e] = std::min(w.edges[e], cap);
        }
    }
    for (const std::size_t n : changes.dropSyncs) {
        if (n >= graph.hostWaits.size())
            return UsageError { "--drop-sync " + std::to_string(n) + ": the window has "
                + std::to_string(graph.hostWaits.size()) + " host waits for the GPU (0 to "
                + std::to_string(graph.hostWaits.size()) + " - 1)" };
        w.edges[graph.hostWaits[n]] = PathWeights::kDropped;
    }
    return w;
}

ParseResult<WhatIfOutcome> whatIf(
    const DependencyGraph& graph, const WhatIfChanges& changes, const Trace& trace, const PathOptions& options)
{
    WhatIfOutcome outcome;
    auto weights = whatIfWeights(trace, graph, changes, &outcome.matchedOps);
    if (!weights)
        return weights.error();
    const std::vector<TimeNs> t = scheduleNodes(graph, *weights);
    outcome.measuredNs = graph.window.length();
    outcome.predicted = criticalPathOf(graph, *weights, t, options);
    outcome.predictedNs = outcome.predicted.lengthNs;
    return outcome;
}

ParseResult<std::vector<WhatIfOutcome>> whatIfWindows(const Trace& trace, const std::vector<PathWindow>& windows,
    const WhatIfChanges& changes, const PathOptions& options, unsigned threads)
{
    std::vector<WhatIfOutcome> outcomes(windows.size());
    std::vector<std::optional<UsageError>> errors(windows.size());
    parallelFor(windows.size(), threadsOrCores(threads), [&](std::size_t i) {
        const DependencyGraph graph = buildDependencyGraph(trace, windows[i]);
        auto outcome = whatIf(graph, changes, trace, options);
        if (outcome)
            outcomes[i] = std::move(*outcome);
        else
            errors[i] = outcome.error();
    });
    for (std::size_t i = 0; i < windows.size(); ++i) {
        if (errors[i])
            return UsageError { (windows[i].name.empty() ? std::string("the window") : windows[i].name) + ": "
                + errors[i]->message };
    }
    return outcomes;
}

} // namespace gapscope
