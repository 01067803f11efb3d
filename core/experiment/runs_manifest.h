// SPDX-License-Identifier: MIT
#pragma once

// The manifest of a folder of repeated runs (`gapscope record --runs N -o DIR`): what was run, how, and what
// became of each run. `diff` reads it to tell the runs of the folder apart (without it, a folder is one run of a
// job, its per-rank files) and to tell NVTX-only runs from runs with CUPTI. Keys: docs/experiments.md.

#include "core/io/common/io_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gapscope {

/// The manifest's file name inside the folder (not a trace name: the loaders of traces skip it).
inline constexpr std::string_view kRunsManifestName = "gapscope-runs.json";
inline constexpr int kRunsManifestVersion = 1;

struct ManifestRun {
    /// The run's trace, relative to the folder ("run-1.gapscope"); empty when the run left none.
    std::string file;
    /// When the run started: UTC, ISO 8601 to the millisecond, and the same as ns on CLOCK_REALTIME.
    std::string startTime;
    std::int64_t startNs = 0;
    /// How it ended: the exit code when it called exit(), the signal when one ended it.
    std::optional<int> exitCode;
    std::optional<int> signal;
    double wallSeconds = 0.0;
    /// A failed run (non-zero exit, a signal, no trace) is named here and left out of comparisons.
    bool failed = false;
    std::string failure; // why, in words; "" when it did not fail
};

struct RunsManifest {
    int version = kRunsManifestVersion;
    std::string program;
    std::vector<std::string> arguments;
    /// What the recorder changed in the program's environment, in order: a value sets, nullopt unsets.
    std::vector<std::pair<std::string, std::optional<std::string>>> environmentChanges;
    /// The event kinds the collector was set to record, as `--kinds` takes them ("all", "nvtx", "kernel,nvtx").
    std::string kinds;
    std::vector<ManifestRun> runs;

    /// True when the kinds hold no CUDA kind (CUPTI never ran): the low-overhead runs.
    bool nvtxOnly() const;
    /// The traces of the runs that did not fail, relative to the folder, in run order.
    std::vector<std::string> goodRunFiles() const;
};

std::string runsManifestToJson(const RunsManifest& manifest);
/// `file`: where the text came from, for the error.
IoResult<RunsManifest> parseRunsManifest(std::string_view text, const std::string& file);

/// Writes DIR/gapscope-runs.json (replacing it whole, never half-written).
IoResult<void> writeRunsManifest(const std::string& folder, const RunsManifest& manifest);
/// Reads DIR/gapscope-runs.json; nullopt (not an error) when the folder has none.
IoResult<std::optional<RunsManifest>> readRunsManifest(const std::string& folder);

} // namespace gapscope
