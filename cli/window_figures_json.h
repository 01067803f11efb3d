// SPDX-License-Identifier: MIT
#pragma once

// The JSON of one device's window figures, as `report --json` (from a trace or from summaries) and
// `diff --json` give them.

#include "core/analysis/window_figures.h"

#include <nlohmann/json_fwd.hpp>

namespace gapscope::cli {

/// { span_ns, busy_ns, idle_ns, utilization, gap_count, idle_by_cause_ns { CAUSE: ns }, exposed_ns { compute,
/// communication, memcpy, idle } }: the figure keys of a device's object, which its writer adds to.
nlohmann::json windowFiguresJson(const WindowFigures& figures);
/// The same keys for the change between two sets of figures.
nlohmann::json windowFiguresJson(const WindowFiguresDelta& delta);

} // namespace gapscope::cli
