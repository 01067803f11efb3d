// SPDX-License-Identifier: MIT
#include "core/analysis/percentile.h"

#include <algorithm>
#include <cmath>

namespace gapscope {

TimeNs percentile(std::vector<TimeNs>& values, double p)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const double rank = std::ceil(p / 100.0 * static_cast<double>(values.size()));
    const auto index = static_cast<std::size_t>(std::clamp(rank, 1.0, static_cast<double>(values.size()))) - 1;
    return values[index];
}

} // namespace gapscope
