// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

namespace gapscope {

/// The rank (1-based, in ascending order) of the nearest-rank percentile `fraction` of `n` > 0 values.
inline std::size_t nearestRank(std::size_t n, double fraction)
{
    const auto rank = static_cast<std::size_t>(std::ceil(fraction * static_cast<double>(n)));
    return std::clamp<std::size_t>(rank, 1, n);
}

/// Nearest-rank percentile (the smallest value with at least `fraction` of the values at or below it, as
/// percentile() in percentile.h) by selection instead of a full sort: for the kernel statistics of traces
/// with millions of kernels. Reorders `values`; 0 when empty.
template <typename T> T nearestRankPercentile(std::span<T> values, double fraction)
{
    if (values.empty())
        return 0;
    const std::size_t rank = nearestRank(values.size(), fraction);
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(rank - 1), values.end());
    return values[rank - 1];
}
/// The same over a whole vector.
inline TimeNs nearestRankPercentile(std::vector<TimeNs>& values, double fraction)
{
    return nearestRankPercentile(std::span<TimeNs>(values), fraction);
}

} // namespace gapscope
