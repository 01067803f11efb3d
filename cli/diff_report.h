// SPDX-License-Identifier: MIT
#pragma once

// The two forms of `gapscope diff`'s answer: the readable one (verdict line first) and the JSON document
// (fixed keys: docs/json-output.md).

#include "cli/diff_metrics.h"
#include "cli/diff_options.h"
#include "core/analysis/compare.h"

#include <nlohmann/json_fwd.hpp>

#include <ostream>

namespace gapscope::cli {

/// What the report says about one run beyond RunDiff: the files it was read from and its window.
struct DiffRunInfo {
    std::string label;
    std::vector<std::string> files;
    /// The window of its first process that has one (every process of a run is measured the same way).
    Window window;
};

struct DiffSides {
    std::vector<DiffRunInfo> base;
    std::vector<DiffRunInfo> fresh;
};

/// The readable diff; `experiment`: the metrics' verdicts (their section follows the verdict), and in place of the
/// verdict the profiler overhead when one side was recorded with NVTX only.
void writeTextDiff(const RunDiff& diff, const DiffSides& sides, const DiffOptions& options,
    const ExperimentReport& experiment, std::ostream& out);

nlohmann::json diffToJson(const RunDiff& diff, const DiffSides& sides, const DiffOptions& options);

} // namespace gapscope::cli
