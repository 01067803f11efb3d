// SPDX-License-Identifier: MIT
#pragma once

// A folder of repeated runs (`gapscope record --runs N -o DIR`, the Record dialog's Runs N) as one side of a
// comparison in the viewer: every good run's trace counts towards the verdict, as `gapscope diff DIR_A DIR_B`
// pools them, and the run whose step p50 is the median of the runs' is the one shown.

#include "core/analysis/analysis.h"
#include "core/analysis/compared_traces.h"
#include "core/io/common/io_error.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace gapscope {

struct RunsFolder {
    std::string folder;
    /// The trace of each run that did not fail, in run order (paths under `folder`).
    std::vector<std::string> runFiles;
    /// Each of runFiles' number among all the manifest's runs, from 1.
    std::vector<std::size_t> runNumbers;
    /// How many runs the manifest lists, failed ones included.
    std::size_t manifestRuns = 0;
};

/// The runs of a folder with a runs manifest (kRunsManifestName); nullopt when `path` is no such folder (a trace
/// file, or a folder of one job's per-rank files). An error when the manifest cannot be read or every run failed.
IoResult<std::optional<RunsFolder>> readRunsFolder(const std::string& path);

/// The run to show: the one whose step p50 is the median of the runs' (the lower of the middle two of an even
/// count; a run without steps counts as longest). Precondition: at least one run.
std::size_t medianRun(const std::vector<std::vector<TimeNs>>& stepDurationsPerRun);

/// "run 2 of 3, the median": the run's number among the manifest's runs (failed ones counted).
std::string medianRunText(const RunsFolder& runs, std::size_t shown);

/// Reads and analyses each run, one at a time, by the rules the comparison's verdict uses (comparisonDiffOptions()
/// of `viewer`), and picks the median run to show. `progress(run, runs)` is called before each run is read; a
/// stop request ends it with the error "canceled".
IoResult<ComparedSideRuns> pickShownRun(const RunsFolder& runs, const AnalysisOptions& viewer,
    const std::stop_token& stop, const std::function<void(std::size_t run, std::size_t runs)>& progress = {});

} // namespace gapscope
