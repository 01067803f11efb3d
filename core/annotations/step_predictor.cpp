// SPDX-License-Identifier: MIT
#include "core/annotations/step_predictor.h"

#include "core/analysis/critical_path_outline.h"
#include "core/annotations/predicted_change.h"
#include "core/parallel_for.h"

#include <optional>

namespace gapscope {

StepPredictor::StepPredictor(const Trace& trace, unsigned threads, std::size_t graphBudgetBytes)
{
    CountedStepWindows counted = countedStepWindows(trace, "", std::nullopt);
    m_windows = std::move(counted.windows);
    m_warmupSteps = counted.warmupSteps;
    if (m_windows.empty()) {
        if (const auto gpu = gpuPathWindow(trace))
            m_windows.push_back(*gpu);
    }
    m_graphs.resize(m_windows.size());
    parallelFor(m_windows.size(), threadsOrCores(threads),
        [&](std::size_t i) { m_graphs[i] = buildDependencyGraph(trace, m_windows[i]); });
    std::size_t bytes = 0;
    for (const DependencyGraph& graph : m_graphs)
        bytes += graph.bytes();
    if (bytes > graphBudgetBytes)
        m_graphs.clear();
}

ParseResult<PredictedChange> StepPredictor::predict(
    const Trace& trace, const WhatIfChanges& changes, std::string made, unsigned threads) const
{
    if (m_windows.empty())
        return UsageError { "the trace has no steps and no GPU activity: no window to predict over" };
    // Only the predicted lengths are wanted: the schedule's sink, not the path, its names or the slack.
    std::vector<WhatIfOutcome> outcomes(m_windows.size());
    std::vector<std::optional<UsageError>> errors(m_windows.size());
    parallelFor(m_windows.size(), threadsOrCores(threads), [&](std::size_t i) {
        const auto predictLength = [&](const DependencyGraph& graph) -> std::optional<UsageError> {
            const auto weights = whatIfWeights(trace, graph, changes);
            if (!weights)
                return weights.error();
            const std::vector<TimeNs> t = scheduleNodes(graph, *weights);
            outcomes[i].measuredNs = graph.window.length();
            outcomes[i].predictedNs = t[graph.sink()] - t[graph.source()];
            return std::nullopt;
        };
        errors[i]
            = m_graphs.empty() ? predictLength(buildDependencyGraph(trace, m_windows[i])) : predictLength(m_graphs[i]);
    });
    for (const auto& error : errors) {
        if (error)
            return *error;
    }
    return predictedChangeOf(changes, m_windows, outcomes, m_warmupSteps, std::move(made));
}

} // namespace gapscope
