// SPDX-License-Identifier: MIT
#include "core/annotations/predicted_change.h"

#include "core/analysis/compare_text.h"
#include "core/analysis/nearest_rank.h"
#include "core/model/time_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gapscope {

namespace {

double fractionOf(TimeNs part, TimeNs whole)
{
    return whole != 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

std::string factorText(double factor)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", factor);
    return buffer;
}

std::string windowText(const PredictedChange& p)
{
    if (!p.steps)
        return "over the window [" + std::to_string(p.windowStartNs) + ", " + std::to_string(p.windowEndNs) + ") ns";
    return "over " + std::to_string(p.windowCount) + " step" + (p.windowCount == 1 ? "" : "s") + " (warm-up "
        + std::to_string(p.warmupSteps) + " excluded)";
}

} // namespace

PredictedChange predictedChangeOf(const WhatIfChanges& changes, const std::vector<PathWindow>& windows,
    const std::vector<WhatIfOutcome>& outcomes, int warmupSteps, std::string made)
{
    PredictedChange p;
    for (const ScaleRule& rule : changes.scales)
        p.scales.push_back({ rule.pattern, rule.factor });
    for (const std::size_t n : changes.dropSyncs)
        p.droppedSyncs.push_back(static_cast<std::int64_t>(n));
    p.launchDelayCapNs = changes.launchDelayCapNs;
    p.steps = !windows.empty() && windows.front().kind == WindowKind::Steps;
    p.warmupSteps = p.steps ? warmupSteps : 0;
    p.windowCount = static_cast<std::int64_t>(windows.size());
    if (!windows.empty()) {
        p.windowStartNs = windows.front().start;
        p.windowEndNs = windows.back().end;
    }
    std::vector<TimeNs> measured;
    std::vector<TimeNs> predicted;
    for (const WhatIfOutcome& outcome : outcomes) {
        measured.push_back(outcome.measuredNs);
        predicted.push_back(outcome.predictedNs);
    }
    // Nearest rank, as `whatif` prints its p50.
    p.measuredP50Ns = nearestRankPercentile(measured, 0.5);
    p.predictedP50Ns = nearestRankPercentile(predicted, 0.5);
    p.made = std::move(made);
    return p;
}

std::string describeChanges(const PredictedChange& p)
{
    std::string text;
    const auto add = [&](const std::string& part) { text += (text.empty() ? "" : ", ") + part; };
    for (const PredictedScale& scale : p.scales)
        add("'" + scale.pattern + "' took " + factorText(scale.factor) + "x");
    for (const std::int64_t n : p.droppedSyncs)
        add("host wait " + std::to_string(n) + " dropped");
    if (p.launchDelayCapNs)
        add("launch delays at most " + formatDuration(*p.launchDelayCapNs));
    return text.empty() ? std::string("no change") : text;
}

std::string describePrediction(const PredictedChange& p)
{
    return "What-if (" + describeChanges(p) + ") " + windowText(p) + ": step p50 " + formatDuration(p.measuredP50Ns)
        + " -> " + formatDuration(p.predictedP50Ns) + " (" + signedDuration(p.changeNs()) + ", "
        + signedPercent(fractionOf(p.changeNs(), p.measuredP50Ns)) + ").";
}

PredictionCheck checkPrediction(const PredictedChange& prediction, const StepComparison& measured)
{
    PredictionCheck c;
    c.predictedChangeNs = prediction.changeNs();
    c.predictedFraction = fractionOf(c.predictedChangeNs, prediction.measuredP50Ns);
    c.measuredChangeNs = measured.deltaP50Ns;
    c.measuredFraction = measured.deltaP50Fraction;
    c.errorNs = c.measuredChangeNs - c.predictedChangeNs;
    c.interval95 = measured.interval95;
    const std::string predictedText = signedDuration(c.predictedChangeNs);
    std::string text = "Predicted step p50 change " + predictedText + " (" + signedPercent(c.predictedFraction)
        + "), measured " + signedDuration(c.measuredChangeNs) + " (" + signedPercent(c.measuredFraction)
        + "): the prediction is off by " + signedDuration(c.errorNs);
    if (!measured.test || !c.interval95) {
        text += "; not checked against an interval (" + (measured.reason.empty() ? "no test" : measured.reason) + ").";
        c.text = std::move(text);
        return c;
    }
    const BootstrapInterval& i = *c.interval95;
    const std::string interval = "[" + signedDuration(i.low) + ", " + signedDuration(i.high) + "]";
    c.insideInterval = c.predictedChangeNs >= i.low && c.predictedChangeNs <= i.high;
    if (*c.insideInterval)
        text += ", inside the measured 95 % interval " + interval + ": the model of the step held.";
    else
        text += ". The model of the step was wrong: predicted " + predictedText + ", measured "
            + signedDuration(c.measuredChangeNs) + " " + interval + ".";
    c.text = std::move(text);
    return c;
}

} // namespace gapscope
