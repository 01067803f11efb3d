// SPDX-License-Identifier: MIT
#include "core/experiment/metric_comparison.h"

#include "core/analysis/nearest_rank.h"

#include <algorithm>
#include <cstdio>

namespace gapscope {

namespace {

constexpr double kSignificance = 0.05;

std::optional<double> spreadOf(const std::vector<TimeNs>& values)
{
    if (values.size() < 2)
        return std::nullopt;
    const auto [low, high] = std::minmax_element(values.begin(), values.end());
    return *low > 0 ? static_cast<double>(*high) / static_cast<double>(*low) - 1.0 : 0.0;
}

MetricSide summarizeSide(const std::vector<std::vector<TimeNs>>& runs, std::vector<TimeNs>& pooled)
{
    MetricSide side;
    side.runs = runs.size();
    for (const std::vector<TimeNs>& run : runs) {
        pooled.insert(pooled.end(), run.begin(), run.end());
        if (run.empty())
            continue;
        std::vector<TimeNs> copy = run;
        side.runP50sNs.push_back(nearestRankPercentile(copy, 0.50));
        side.runP95sNs.push_back(nearestRankPercentile(copy, 0.95));
    }
    side.n = pooled.size();
    std::vector<TimeNs> copy = pooled;
    side.p50Ns = nearestRankPercentile(copy, 0.50);
    side.p95Ns = nearestRankPercentile(copy, 0.95);
    side.runSpreadP50 = spreadOf(side.runP50sNs);
    side.runSpreadP95 = spreadOf(side.runP95sNs);
    return side;
}

bool rangesSeparate(const std::vector<TimeNs>& a, const std::vector<TimeNs>& b)
{
    const auto [aLow, aHigh] = std::minmax_element(a.begin(), a.end());
    const auto [bLow, bHigh] = std::minmax_element(b.begin(), b.end());
    return *bHigh < *aLow || *bLow > *aHigh;
}

std::string formatP(double p)
{
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, p < 0.0001 ? "%.2g" : "%.4f", p);
    return buffer;
}

double fractionOf(TimeNs delta, TimeNs base)
{
    return base != 0 ? static_cast<double>(delta) / static_cast<double>(base) : 0.0;
}

/// The verdict from the figures, the same rule for p50 and p95: significant (p < 0.05 and an interval that
/// excludes 0) and, with several runs per side, disjoint per-run ranges.
void decide(PercentileVerdict& v, std::string_view percentile, bool severalRuns)
{
    const bool significant = *v.pValue < kSignificance && v.interval95->excludesZero();
    const bool separate = !severalRuns || v.runRangesSeparate.value_or(false);
    const std::string figures = "p = " + formatP(*v.pValue) + ", 95 % interval of the " + std::string(percentile)
        + " difference " + (v.interval95->excludesZero() ? "excludes" : "includes") + " 0";
    if (significant && separate) {
        v.verdict = v.interval95->high < 0 ? Verdict::Faster : Verdict::Slower;
        v.reason = figures
            + (severalRuns ? ", and the ranges of the per-run " + std::string(percentile) + "s do not overlap" : "");
    } else if (!significant) {
        v.verdict = Verdict::NoDetectableChange;
        v.reason = figures + ": the two sides are not told apart at p < 0.05 with an interval that excludes 0";
    } else {
        v.verdict = Verdict::NoDetectableChange;
        v.reason = figures + ", but the ranges of the per-run " + std::string(percentile)
            + "s overlap: the change is within the run-to-run noise";
    }
}

} // namespace

std::optional<Verdict> MetricComparison::direction() const
{
    for (const PercentileVerdict* v : { &p50, &p95 }) {
        if (v->verdict == Verdict::Faster || v->verdict == Verdict::Slower)
            return v->verdict;
    }
    return std::nullopt;
}

MetricComparison compareMetric(const MetricSpec& spec, const std::vector<std::vector<TimeNs>>& baseRuns,
    const std::vector<std::vector<TimeNs>>& newRuns, const BootstrapOptions& bootstrap)
{
    MetricComparison m;
    m.spec = spec;
    std::vector<TimeNs> basePooled;
    std::vector<TimeNs> newPooled;
    m.base = summarizeSide(baseRuns, basePooled);
    m.fresh = summarizeSide(newRuns, newPooled);
    if (basePooled.empty() || newPooled.empty()) {
        const char* side = basePooled.empty() && newPooled.empty() ? "neither side has"
            : basePooled.empty()                                   ? "BASE has no"
                                                                   : "NEW has no";
        for (PercentileVerdict* v : { &m.p50, &m.p95 })
            v->reason = std::string("no verdict is possible: ") + side + " values of " + spec.specText();
        return m;
    }
    const bool severalRuns = baseRuns.size() >= 2 || newRuns.size() >= 2;

    // p50: the step verdict's own test, on this metric's values.
    const StepComparison steps = compareSteps(baseRuns, newRuns, bootstrap);
    m.p50.deltaNs = m.fresh.p50Ns - m.base.p50Ns;
    m.p50.deltaFraction = fractionOf(m.p50.deltaNs, m.base.p50Ns);
    m.p50.interval95 = steps.interval95;
    m.p50.pValue = steps.test->pValue;
    m.p50.runRangesSeparate = steps.runMediansSeparate;
    decide(m.p50, "median", severalRuns);
    m.caveat = steps.caveat;

    m.p95.deltaNs = m.fresh.p95Ns - m.base.p95Ns;
    m.p95.deltaFraction = fractionOf(m.p95.deltaNs, m.base.p95Ns);
    const auto p95 = bootstrapPercentileDifference(basePooled, newPooled, 0.95, bootstrap);
    m.p95.interval95 = p95->interval;
    m.p95.pValue = p95->pValue;
    if (severalRuns)
        m.p95.runRangesSeparate = rangesSeparate(m.base.runP95sNs, m.fresh.runP95sNs);
    decide(m.p95, "p95", severalRuns);
    return m;
}

std::optional<ExperimentDirection> markSideEffects(std::vector<MetricComparison>& metrics)
{
    std::optional<ExperimentDirection> direction;
    for (std::size_t i = 0; i < metrics.size(); ++i) {
        MetricComparison& m = metrics[i];
        if (!direction) {
            if (const auto moved = m.direction())
                direction = ExperimentDirection { *moved, i, m.p50.verdict != *moved };
            continue;
        }
        const Verdict opposite = direction->verdict == Verdict::Faster ? Verdict::Slower : Verdict::Faster;
        m.sideEffect = m.p50.verdict == opposite || m.p95.verdict == opposite;
    }
    return direction;
}

RecordingMix recordingMix(const std::vector<bool>& baseNvtxOnly, const std::vector<bool>& newNvtxOnly)
{
    const auto all = [](const std::vector<bool>& v, bool value) {
        return std::all_of(v.begin(), v.end(), [&](bool b) { return b == value; });
    };
    if (baseNvtxOnly.empty() || newNvtxOnly.empty())
        return RecordingMix::Same;
    if (all(baseNvtxOnly, true) && all(newNvtxOnly, false))
        return RecordingMix::BaseNvtxOnly;
    if (all(baseNvtxOnly, false) && all(newNvtxOnly, true))
        return RecordingMix::NewNvtxOnly;
    const bool baseSame = all(baseNvtxOnly, baseNvtxOnly.front());
    const bool newSame = all(newNvtxOnly, newNvtxOnly.front());
    return baseSame && newSame && baseNvtxOnly.front() == newNvtxOnly.front() ? RecordingMix::Same
                                                                              : RecordingMix::Mixed;
}

} // namespace gapscope
