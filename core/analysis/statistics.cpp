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

/// A uniform index in [0, n) from one 64-bit draw (Lemire's multiply-and-reject): the same sequence on every
/// platform, unlike std::uniform_int_distribution, whose algorithm each library chooses.
std::size_t drawIndex(std::mt19937_64& generator, std::uint64_t n)
{
    unsigned __int128 product = static_cast<unsigned __int128>(generator()) * n;
    auto low = static_cast<std::uint64_t>(product);
    if (low < n) {
        const std::uint64_t threshold = (0 - n) % n;
        while (low < threshold) {
            product = static_cast<unsigned __int128>(generator()) * n;
            low = static_cast<std::uint64_t>(product);
        }
    }
    return static_cast<std::size_t>(product >> 64);
}

TimeNs resampledMedian(std::mt19937_64& generator, std::span<const TimeNs> values, std::vector<TimeNs>& scratch)
{
    scratch.resize(values.size());
    for (TimeNs& v : scratch)
        v = values[drawIndex(generator, values.size())];
    return medianOf(scratch);
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
    if (base.empty() || fresh.empty() || options.resamples == 0)
        return std::nullopt;
    std::mt19937_64 generator(options.seed);
    std::vector<TimeNs> scratch;
    std::vector<TimeNs> differences(options.resamples);
    for (TimeNs& difference : differences) {
        const TimeNs baseMedian = resampledMedian(generator, base, scratch);
        const TimeNs freshMedian = resampledMedian(generator, fresh, scratch);
        difference = freshMedian - baseMedian;
    }
    std::sort(differences.begin(), differences.end());
    const auto count = static_cast<double>(differences.size());
    const auto at = [&](double fraction) {
        auto rank = static_cast<std::size_t>(std::ceil(fraction * count - 1e-9));
        rank = std::clamp<std::size_t>(rank, 1, differences.size());
        return differences[rank - 1];
    };
    const double tail = (1.0 - options.confidence) / 2.0;
    return BootstrapInterval { at(tail), at(1.0 - tail) };
}

} // namespace gapscope
