// SPDX-License-Identifier: MIT
#pragma once

// What `gapscope critical-path` and `gapscope whatif` share: the windows their options name, and the pieces of
// their text and JSON.

#include "cli/critical_path_options.h"
#include "core/analysis/critical_path.h"
#include "core/io/common/io_error.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace gapscope::cli {

TimeNs nearestRankMedian(std::vector<TimeNs> values);
/// "12.3 %" of part in whole (0 when whole is 0).
std::string percent(TimeNs part, TimeNs whole);
/// "step" for a step window, else the window kind's name ("explicit", "gpu").
std::string_view windowKind(const PathWindow& w);
/// The windows the options name and the warm-up their steps were counted with (0 for any other window).
struct SelectedWindows {
    std::vector<PathWindow> windows;
    int warmupSteps = 0;
};
/// The windows the options name: --window, --step N (any step, warm-up or not, unless --warmup), or the counted
/// steps (every one when `all`, else the median one; warm-up as countedStepWindows()); a trace without steps gives
/// its GPU window.
ParseResult<SelectedWindows> selectWindows(const Trace& trace, const CriticalPathOptions& options, bool all);
/// {kind, start_ns, end_ns, pid, name}.
nlohmann::json windowJson(const Trace& trace, const PathWindow& w);
/// {cpu, launch, compute, communication, memcpy, sync, unexplained} in ns.
nlohmann::json categoriesJson(const std::array<TimeNs, kPathCategoryCount>& byCategory);
/// [{name, category, on_path_ns, share}].
nlohmann::json topJson(const Trace& trace, const CriticalPath& path);
/// "ProfilerStep#7 of process 123: [T0, T1) ns, 179.7 ms".
std::string windowLine(const Trace& trace, const PathWindow& w);
/// One line per category: its time and share of `length`.
void writeBreakdown(const std::array<TimeNs, kPathCategoryCount>& byCategory, TimeNs length, std::ostream& out);
/// What both commands start from: their options, the trace and the windows they name.
struct PathCommandInput {
    CriticalPathOptions options;
    Trace trace;
    std::vector<PathWindow> windows;
    int warmupSteps = 0; // the steps' warm-up left out (SelectedWindows)
};
/// Parses `args` for `command` ("critical-path" or "whatif"), loads the trace and selects the windows (every step
/// when `allSteps`). On a problem it says so on `err` (with the usage for a bad command line), sets `exitCode` (2:
/// bad command line or window, 1: the trace cannot be read) and returns nullopt.
std::optional<PathCommandInput> preparePathCommand(
    std::string_view command, const std::vector<std::string>& args, bool allSteps, std::ostream& err, int& exitCode);

} // namespace gapscope::cli
