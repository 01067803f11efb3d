// SPDX-License-Identifier: MIT
#pragma once

// The bookkeeping of repeated runs of one program (`gapscope record --runs N -o DIR` and the Record dialog's
// "Runs"): the name and start time of each run's trace, what became of the run, and the runs manifest
// (core/experiment/runs_manifest.h) that `diff` reads to tell the runs of the folder apart. Both recorders fill
// the manifest through these functions, so a folder from either compares the same way.

#include "capture/launcher/program_recorder.h"
#include "core/experiment/runs_manifest.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gapscope::capture {

/// The manifest of a series of `options`' program: program, arguments and kinds; no runs yet.
RunsManifest seriesManifest(const RecordOptions& options);

/// Run `k` (1-based) of a series, starting now: its trace's name inside the folder ("run-3.gapscope") and its
/// start time.
ManifestRun beginSeriesRun(std::size_t k);

/// What became of a run. `exit`: how the program ended, nullopt when it never ran or its recording could not
/// be gathered (then no trace was written). `problem`: why the trace is missing or incomplete ("" when the trace
/// was written). A run fails on a problem, a non-zero exit or a signal; a failed run is left out of comparisons.
void endSeriesRun(
    ManifestRun& run, const std::optional<ProgramExit>& exit, double wallSeconds, const std::string& problem);

/// What the recorder changed in the environment the program got (`programEnvironment`, "NAME=value" lines),
/// against this process's own: set (a value) or unset (nullopt), in the program's order, unset ones last.
std::vector<std::pair<std::string, std::optional<std::string>>> environmentChanges(
    const std::vector<std::string>& programEnvironment);

/// The line that ends a series: how many of `requested` runs were recorded into `folder`, which failed, and
/// how to compare two such folders.
std::string seriesSummaryLine(const RunsManifest& manifest, std::size_t requested, const std::string& folder);

} // namespace gapscope::capture
