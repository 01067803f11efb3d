// SPDX-License-Identifier: MIT
// The verdict on step time (DESIGN.md §4 "Comparing two runs"; the rules in words: docs/definitions.md).
#include "core/analysis/compare.h"
#include "core/analysis/nearest_rank.h"

#include <algorithm>
#include <cstdio>

namespace gapscope {

namespace {

constexpr double kSignificance = 0.05;

StepSide summarizeSide(const std::vector<std::vector<TimeNs>>& runs)
{
    StepSide side;
    side.runs = runs.size();
    for (const std::vector<TimeNs>& run : runs) {
        side.durations.insert(side.durations.end(), run.begin(), run.end());
        if (!run.empty()) {
            std::vector<TimeNs> copy = run;
            side.runMediansNs.push_back(medianOf(copy));
        }
    }
    if (!side.durations.empty()) {
        TimeNs total = 0;
        for (TimeNs d : side.durations)
            total += d;
        side.meanNs = total / static_cast<TimeNs>(side.durations.size());
        std::vector<TimeNs> copy = side.durations;
        side.p50Ns = nearestRankPercentile(copy, 0.50);
        side.p95Ns = nearestRankPercentile(copy, 0.95);
    }
    if (side.runMediansNs.size() >= 2) {
        const auto [low, high] = std::minmax_element(side.runMediansNs.begin(), side.runMediansNs.end());
        side.runSpread = *low > 0 ? static_cast<double>(*high) / static_cast<double>(*low) - 1.0 : 0.0;
    }
    return side;
}

std::string formatP(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.0001 ? "%.2g" : "%.4f", p);
    return buffer;
}

} // namespace

std::string_view verdictName(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Faster:
        return "faster";
    case Verdict::Slower:
        return "slower";
    case Verdict::NoDetectableChange:
        return "no detectable change";
    case Verdict::NoVerdict:
        return "no verdict";
    }
    return "no verdict";
}

StepComparison compareSteps(const std::vector<std::vector<TimeNs>>& baseRuns,
    const std::vector<std::vector<TimeNs>>& newRuns, const BootstrapOptions& bootstrap)
{
    StepComparison c;
    c.base = summarizeSide(baseRuns);
    c.fresh = summarizeSide(newRuns);
    if (c.base.durations.empty() || c.fresh.durations.empty()) {
        const char* side = c.base.durations.empty() && c.fresh.durations.empty() ? "neither side has"
            : c.base.durations.empty()                                           ? "BASE has no"
                                                                                 : "NEW has no";
        c.verdict = Verdict::NoVerdict;
        c.reason = std::string("no verdict is possible: ") + side
            + " counted steps (ProfilerStep#N ranges, or ranges matching --step-pattern, after the warm-up), so "
              "there are no samples to test; only the window figures compare";
        return c;
    }
    c.deltaP50Ns = c.fresh.p50Ns - c.base.p50Ns;
    c.deltaP50Fraction
        = c.base.p50Ns != 0 ? static_cast<double>(c.deltaP50Ns) / static_cast<double>(c.base.p50Ns) : 0.0;
    c.test = mannWhitneyU(c.base.durations, c.fresh.durations);
    c.interval95 = bootstrapMedianDifference(c.base.durations, c.fresh.durations, bootstrap);

    const bool significant = c.test->pValue < kSignificance && c.interval95->excludesZero();
    const bool severalRuns = baseRuns.size() >= 2 || newRuns.size() >= 2;
    bool separate = true;
    if (severalRuns) {
        const auto [baseLow, baseHigh] = std::minmax_element(c.base.runMediansNs.begin(), c.base.runMediansNs.end());
        const auto [newLow, newHigh] = std::minmax_element(c.fresh.runMediansNs.begin(), c.fresh.runMediansNs.end());
        separate = *newHigh < *baseLow || *newLow > *baseHigh;
        c.runMediansSeparate = separate;
    }
    const std::string figures = "p = " + formatP(c.test->pValue) + ", 95 % interval of the median difference "
        + (c.interval95->excludesZero() ? "excludes" : "includes") + " 0";
    if (significant && separate) {
        c.verdict = c.interval95->high < 0 ? Verdict::Faster : Verdict::Slower;
        c.reason = figures + (severalRuns ? ", and the ranges of the per-run medians do not overlap" : "");
    } else {
        c.verdict = Verdict::NoDetectableChange;
        if (!significant)
            c.reason = figures
                + ": the step times of the two sides are not told apart at p < 0.05 with an interval "
                  "that excludes 0";
        else
            c.reason = figures
                + ", but the ranges of the per-run medians overlap: the change is within the "
                  "run-to-run noise";
    }
    if (baseRuns.size() < 2 && newRuns.size() < 2)
        c.caveat = "one run per side: steps within a run are not independent samples of run-to-run noise, which is "
                   "unknown (record two or more runs per side)";
    else if (baseRuns.size() < 2 || newRuns.size() < 2)
        c.caveat = std::string(baseRuns.size() < 2 ? "BASE" : "NEW")
            + " has one run: its run-to-run noise is unknown (record two or more runs per side)";
    return c;
}

} // namespace gapscope
