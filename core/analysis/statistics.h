// SPDX-License-Identifier: MIT
#pragma once

// The two statistics `gapscope diff` gives its verdict with (DESIGN.md §4 "Comparing two runs"): a two-sided
// Mann–Whitney U test and a percentile bootstrap interval of the difference of medians (or of 95th percentiles,
// for a metric's p95). Pure functions, no I/O;
// both reproducible (the bootstrap draws from a fixed seed with a generator the C++ standard fully specifies).

#include "core/model/event.h"

#include <cstdint>
#include <optional>
#include <span>

namespace gapscope {

/// Below this many values on each side the test uses the exact distribution of U.
inline constexpr std::size_t kMannWhitneyExactBelow = 20;

struct MannWhitneyResult {
    /// U of the first sample: the pairs (a, b) with a > b, plus half the pairs with a == b
    /// (= rank sum of the first sample, mid-ranks for ties, minus n1 (n1 + 1) / 2). 0 <= u <= n1 n2.
    double u = 0.0;
    /// Two-sided p-value, in (0, 1].
    double pValue = 1.0;
    /// True: p from the exact distribution of U given the tied ranks (both sides below
    /// kMannWhitneyExactBelow values); false: the normal approximation with tie correction and
    /// continuity correction.
    bool exact = true;
    /// The standardized statistic of the normal approximation (0 when exact or when every value ties).
    double z = 0.0;
};

/// Two-sided Mann–Whitney U test of `a` against `b`. Exact: p = min(1, 2 min(P(U <= u), P(U >= u))) over the
/// C(n1 + n2, n1) equally likely ways to share the observed mid-ranks between the samples. Normal: mean
/// n1 n2 / 2, variance n1 n2 / 12 ((N + 1) - Σ(t³ - t) / (N (N - 1))) over the tie groups t,
/// z = (|u - mean| - 1/2) / sd, p = erfc(|z| / √2). nullopt when a side is empty.
std::optional<MannWhitneyResult> mannWhitneyU(std::span<const TimeNs> a, std::span<const TimeNs> b);

/// Median as the report's p50: the nearest-rank 50th percentile (for an even count, the lower middle value).
/// Reorders `values`; 0 when empty.
TimeNs medianOf(std::span<TimeNs> values);

struct BootstrapOptions {
    std::size_t resamples = 10'000;
    std::uint64_t seed = 0x6761707363;
    double confidence = 0.95;
};

struct BootstrapInterval {
    TimeNs low = 0;
    TimeNs high = 0;
    bool excludesZero() const { return low > 0 || high < 0; }
};

/// Percentile bootstrap interval of median(fresh) - median(base): each resample takes n values with replacement
/// from each side, and the interval is the (1 - confidence)/2 and (1 + confidence)/2 nearest-rank percentiles of
/// the sorted resampled differences: with 10,000 resamples and 95 %, the 250th and the 9,750th smallest. A
/// resample's median is drawn from its exact law (the k-th smallest of n uniform indices is floor(n B) with
/// B ~ Beta(k, n - k + 1)), two draws per side instead of n, from std::mt19937_64 seeded with options.seed
/// through formulas written here (not the library's distributions), so the same inputs give the same interval
/// on every platform. nullopt when a side is empty.
std::optional<BootstrapInterval> bootstrapMedianDifference(
    std::span<const TimeNs> base, std::span<const TimeNs> fresh, const BootstrapOptions& options = {});

struct PercentileBootstrap {
    BootstrapInterval interval;
    /// Two-sided bootstrap p-value: 2 min(share of resampled differences <= 0, share >= 0), at most 1. An interval
    /// that excludes 0 at 95 % always has p < 0.05.
    double pValue = 1.0;
};

/// The same for any nearest-rank percentile (`fraction` 0.95: the 95th): the resampled percentile of a side of
/// n values is its ceil(fraction n)-th smallest, drawn from its exact law as above. fraction 0.5 gives
/// bootstrapMedianDifference()'s interval, draw for draw. nullopt when a side is empty.
std::optional<PercentileBootstrap> bootstrapPercentileDifference(
    std::span<const TimeNs> base, std::span<const TimeNs> fresh, double fraction, const BootstrapOptions& options = {});

} // namespace gapscope
