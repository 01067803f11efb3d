// SPDX-License-Identifier: MIT
#include "core/analysis/statistics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace gapscope {

namespace {

/// Mid-ranks times two (integers: a tie group over ranks r..r+t-1 gets 2r + t - 1 each) of the pooled
/// values, in the order a then b, and the tie term Σ(t³ - t).
struct PooledRanks {
    std::vector<std::int64_t> doubledRanks;
    double tieTerm = 0.0;
};

PooledRanks poolAndRank(std::span<const TimeNs> a, std::span<const TimeNs> b)
{
    const std::size_t n = a.size() + b.size();
    std::vector<std::pair<TimeNs, std::size_t>> pooled;
    pooled.reserve(n);
    for (std::size_t i = 0; i < a.size(); ++i)
        pooled.emplace_back(a[i], i);
    for (std::size_t i = 0; i < b.size(); ++i)
        pooled.emplace_back(b[i], a.size() + i);
    std::sort(pooled.begin(), pooled.end());
    PooledRanks ranks;
    ranks.doubledRanks.resize(n);
    for (std::size_t first = 0; first < n;) {
        std::size_t last = first + 1;
        while (last < n && pooled[last].first == pooled[first].first)
            ++last;
        const auto t = static_cast<std::int64_t>(last - first);
        // Ranks first+1 .. last: their mean is (first + 1 + last) / 2.
        const std::int64_t doubled = static_cast<std::int64_t>(first + 1 + last);
        for (std::size_t k = first; k < last; ++k)
            ranks.doubledRanks[pooled[k].second] = doubled;
        ranks.tieTerm += static_cast<double>(t * t * t - t);
        first = last;
    }
    return ranks;
}

/// P(2R <= observed) and P(2R >= observed) for the doubled rank sum 2R of n1 values drawn without replacement
/// from `doubledRanks`, all C(N, n1) subsets equally likely: counted by dynamic programming over sums.
std::pair<double, double> exactTails(
    const std::vector<std::int64_t>& doubledRanks, std::size_t n1, std::int64_t observed)
{
    std::int64_t total = 0;
    for (std::int64_t r : doubledRanks)
        total += r;
    const auto sums = static_cast<std::size_t>(total + 1);
    // ways[k][s]: subsets of k of the ranks seen so far whose doubled sum is s. Counts stay below
    // C(38, 19) < 2^36, exact in 64 bits.
    std::vector<std::vector<std::uint64_t>> ways(n1 + 1, std::vector<std::uint64_t>(sums, 0));
    ways[0][0] = 1;
    std::size_t seen = 0;
    for (std::int64_t r : doubledRanks) {
        ++seen;
        const auto rank = static_cast<std::size_t>(r);
        for (std::size_t k = std::min(n1, seen); k >= 1; --k) {
            std::vector<std::uint64_t>& to = ways[k];
            const std::vector<std::uint64_t>& from = ways[k - 1];
            for (std::size_t s = sums - 1; s >= rank; --s) {
                to[s] += from[s - rank];
                if (s == rank)
                    break;
            }
        }
    }
    double below = 0.0;
    double above = 0.0;
    double all = 0.0;
    for (std::size_t s = 0; s < sums; ++s) {
        const auto count = static_cast<double>(ways[n1][s]);
        all += count;
        if (static_cast<std::int64_t>(s) <= observed)
            below += count;
        if (static_cast<std::int64_t>(s) >= observed)
            above += count;
    }
    return { below / all, above / all };
}

/// Random numbers from std::mt19937_64 (whose output the C++ standard fixes) by formulas written here, not by
/// the library's distributions (whose algorithms each standard library chooses), so that a seed gives the same
/// interval everywhere.
class Draws {
public:
    explicit Draws(std::uint64_t seed)
        : m_generator(seed)
    { }
    /// Uniform in (0, 1): 53 random bits, never 0.
    double uniform() { return (static_cast<double>(m_generator() >> 11) + 0.5) * 0x1.0p-53; }
    /// Standard normal (Box-Muller; the second value of each pair is kept for the next call).
    double normal()
    {
        if (m_spare) {
            const double value = *m_spare;
            m_spare.reset();
            return value;
        }
        const double radius = std::sqrt(-2.0 * std::log(uniform()));
        const double angle = 2.0 * 3.14159265358979323846 * uniform();
        m_spare = radius * std::sin(angle);
        return radius * std::cos(angle);
    }
    /// Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang's squeeze and rejection).
    double gamma(double shape)
    {
        const double d = shape - 1.0 / 3.0;
        const double c = 1.0 / std::sqrt(9.0 * d);
        for (;;) {
            double x = 0.0;
            double v = 0.0;
            do {
                x = normal();
                v = 1.0 + c * x;
            } while (v <= 0.0);
            v = v * v * v;
            const double u = uniform();
            if (u < 1.0 - 0.0331 * x * x * x * x || std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v)))
                return d * v;
        }
    }

private:
    std::mt19937_64 m_generator;
    std::optional<double> m_spare;
};

/// The k-th smallest (1-based) of n values drawn with replacement from `sorted`, drawn from its exact law in
/// O(1): the k-th smallest of n uniform indices in [0, n) is floor(n U(k)), where U(k), the k-th smallest of n
/// uniforms on (0, 1), follows Beta(k, n - k + 1) = G1 / (G1 + G2) with G1 ~ Gamma(k), G2 ~ Gamma(n - k + 1).
/// Same law as drawing the n values one by one, at the cost of two draws instead of n and a selection.
TimeNs resampledOrderStatistic(Draws& draws, std::span<const TimeNs> sorted, std::size_t k)
{
    const std::size_t n = sorted.size();
    const double g1 = draws.gamma(static_cast<double>(k));
    const double g2 = draws.gamma(static_cast<double>(n - k + 1));
    const auto index = static_cast<std::size_t>(static_cast<double>(n) * (g1 / (g1 + g2)));
    return sorted[std::min(index, n - 1)];
}

/// The nearest-rank position (1-based) of a percentile among n values, as nearestRankPercentile() takes it.
std::size_t nearestRank(std::size_t n, double fraction)
{
    const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(n)));
    return std::clamp<std::size_t>(rank, 1, n);
}

} // namespace

TimeNs medianOf(std::span<TimeNs> values)
{
    if (values.empty())
        return 0;
    const std::size_t rank = (values.size() + 1) / 2; // ceil(n / 2), 1-based
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank - 1), values.end());
    return values[rank - 1];
}

std::optional<MannWhitneyResult> mannWhitneyU(std::span<const TimeNs> a, std::span<const TimeNs> b)
{
    if (a.empty() || b.empty())
        return std::nullopt;
    const PooledRanks ranks = poolAndRank(a, b);
    const auto n1 = static_cast<std::int64_t>(a.size());
    const auto n2 = static_cast<std::int64_t>(b.size());
    std::int64_t doubledRankSum = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        doubledRankSum += ranks.doubledRanks[i];
    MannWhitneyResult result;
    result.u = static_cast<double>(doubledRankSum - n1 * (n1 + 1)) / 2.0;
    if (a.size() < kMannWhitneyExactBelow && b.size() < kMannWhitneyExactBelow) {
        result.exact = true;
        const auto [below, above] = exactTails(ranks.doubledRanks, a.size(), doubledRankSum);
        result.pValue = std::min(1.0, 2.0 * std::min(below, above));
        return result;
    }
    result.exact = false;
    const double n = static_cast<double>(n1 + n2);
    const double mean = static_cast<double>(n1 * n2) / 2.0;
    const double variance = static_cast<double>(n1 * n2) / 12.0 * ((n + 1.0) - ranks.tieTerm / (n * (n - 1.0)));
    if (variance <= 0.0) {
        result.pValue = 1.0; // every value ties: nothing tells the samples apart
        return result;
    }
    const double distance = std::max(0.0, std::abs(result.u - mean) - 0.5);
    result.z = (result.u >= mean ? distance : -distance) / std::sqrt(variance);
    result.pValue = std::min(1.0, std::erfc(std::abs(result.z) / std::sqrt(2.0)));
    return result;
}

std::optional<BootstrapInterval> bootstrapMedianDifference(
    std::span<const TimeNs> base, std::span<const TimeNs> fresh, const BootstrapOptions& options)
{
    const auto result = bootstrapPercentileDifference(base, fresh, 0.5, options);
    return result ? std::optional<BootstrapInterval>(result->interval) : std::nullopt;
}

std::optional<PercentileBootstrap> bootstrapPercentileDifference(
    std::span<const TimeNs> base, std::span<const TimeNs> fresh, double fraction, const BootstrapOptions& options)
{
    if (base.empty() || fresh.empty() || options.resamples == 0)
        return std::nullopt;
    std::vector<TimeNs> sortedBase(base.begin(), base.end());
    std::vector<TimeNs> sortedFresh(fresh.begin(), fresh.end());
    std::sort(sortedBase.begin(), sortedBase.end());
    std::sort(sortedFresh.begin(), sortedFresh.end());
    const std::size_t baseRank = nearestRank(sortedBase.size(), fraction);
    const std::size_t freshRank = nearestRank(sortedFresh.size(), fraction);
    Draws draws(options.seed);
    std::vector<TimeNs> differences(options.resamples);
    std::size_t atOrBelowZero = 0;
    std::size_t atOrAboveZero = 0;
    for (TimeNs& difference : differences) {
        const TimeNs basePercentile = resampledOrderStatistic(draws, sortedBase, baseRank);
        const TimeNs freshPercentile = resampledOrderStatistic(draws, sortedFresh, freshRank);
        difference = freshPercentile - basePercentile;
        atOrBelowZero += difference <= 0 ? 1 : 0;
        atOrAboveZero += difference >= 0 ? 1 : 0;
    }
    std::sort(differences.begin(), differences.end());
    const auto count = static_cast<double>(differences.size());
    const auto at = [&](double f) {
        auto rank = static_cast<std::size_t>(std::ceil(f * count - 1e-9));
        rank = std::clamp<std::size_t>(rank, 1, differences.size());
        return differences[rank - 1];
    };
    const double tail = (1.0 - options.confidence) / 2.0;
    PercentileBootstrap result;
    result.interval = BootstrapInterval { at(tail), at(1.0 - tail) };
    result.pValue = std::min(1.0, 2.0 * static_cast<double>(std::min(atOrBelowZero, atOrAboveZero)) / count);
    return result;
}

} // namespace gapscope
