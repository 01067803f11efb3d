// SPDX-License-Identifier: MIT
#pragma once

// What `gapscope critical-path` and `gapscope whatif` share: the windows their options name, and the pieces of
// their text and JSON.

#include "cli/critical_path_options.h"
#include "core/analysis/critical_path.h"
#include "core/io/common/io_error.h"

#include <nlohmann/json_fwd.hpp>

#include <array>
#include <ostream>
#include <string>
#include <vector>

namespace gapscope::cli {

TimeNs nearestRankMedian(std::vector<TimeNs> values);
/// "12.3 %" of part in whole (0 when whole is 0).
std::string percent(TimeNs part, TimeNs whole);
/// "step" for a step window, else the window kind's name ("explicit", "gpu").
std::string_view windowKind(const PathWindow& w);
/// The windows the options name: --window, --step N, or the steps (every one when `all`, else the median one); a
/// trace without steps gives its GPU window.
ParseResult<std::vector<PathWindow>> selectWindows(const Trace& trace, const CriticalPathOptions& options, bool all);
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
/// The trace at `path`, loaded as every command loads one.
IoResult<Trace> loadOne(const std::string& path);

} // namespace gapscope::cli
