// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/analysis.h"

#include <vector>

namespace gapscope {

/// The steps of one process from the CPU ranges that define them (any order), by the rule in steps.cpp.
std::vector<Step> stepsOfProcess(
    const Trace& trace, ProcessIndex process, std::vector<EventRef> ranges, int warmupSteps);

} // namespace gapscope
