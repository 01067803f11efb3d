// SPDX-License-Identifier: MIT
#pragma once

#include "core/model/event.h"

#include <vector>

namespace gapscope {

/// Percentile by the nearest-rank method (p in [0, 100]): the smallest value such that at least
/// p % of the values are <= it. Sorts `values` in place. 0 for an empty list.
TimeNs percentile(std::vector<TimeNs>& values, double p);

} // namespace gapscope
