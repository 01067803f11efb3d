// SPDX-License-Identifier: MIT
#pragma once

// `gapscope diff`: two sides (BASE and NEW), each one or more runs of one program, each run a (finished) trace
// (one process, or the ranks of one job) analyzed with the same options. What changed, side by side, and a
// verdict on step time that claims no more than the data shows (DESIGN.md §4 "Comparing two runs";
// the exact rules: docs/definitions.md). Pure functions: no I/O.

#include "core/analysis/analysis.h"
#include "core/analysis/statistics.h"

#include <array>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gapscope {

/// The change from `a` to `b`: b - a, field by field.
WindowFiguresDelta figuresDelta(const WindowFigures& a, const WindowFigures& b);

/// A device matched across the sides by (rank, device ordinal); a run of one process has rank key -1 unless
/// the trace names its rank, and a side whose runs all hold one process matches the other side's one process
/// whatever their ranks, device by device in ordinal order (rank 3's GPU 3 with rank 1's GPU 1).
struct DeviceDiff {
    std::optional<int> rank; // BASE's, else NEW's
    /// NEW's (nullopt: NEW lacks the device or names no rank); differs from `rank` only for single processes.
    std::optional<int> newRank;
    int deviceId = 0; // BASE's ordinal, else NEW's
    /// NEW's ordinal (deviceId when NEW lacks the device); differs from deviceId only for single processes, matched
    /// by the device's place among their devices.
    int newDeviceId = 0;
    std::string baseName; // Device::name ("" unknown)
    std::string newName;
    /// Mean over the runs of the side that have the device; nullopt: no run of that side has it.
    std::optional<WindowFigures> base;
    std::optional<WindowFigures> fresh;
};

/// The counted (warm-up excluded) steps of one side.
struct StepSide {
    std::size_t runs = 0;
    /// Step durations of every run, pooled (each run's processes in order, each in time order).
    std::vector<TimeNs> durations;
    std::size_t warmup = 0; // steps excluded as warm-up, all runs
    TimeNs meanNs = 0;
    TimeNs p50Ns = 0; // nearest-rank, as the report's
    TimeNs p95Ns = 0;
    /// p50 of each run's counted steps (runs without steps are left out).
    std::vector<TimeNs> runMediansNs;
    /// max / min of runMediansNs - 1: the run-to-run spread; nullopt with fewer than two runs with steps.
    std::optional<double> runSpread;
};

enum class Verdict : std::uint8_t { Faster, Slower, NoDetectableChange, NoVerdict };
/// "faster", "slower", "no detectable change", "no verdict".
std::string_view verdictName(Verdict verdict);

struct StepComparison {
    StepSide base;
    StepSide fresh;
    /// p50(NEW) - p50(BASE) of the pooled steps, and the same as a fraction of p50(BASE) (0 when it is 0).
    TimeNs deltaP50Ns = 0;
    double deltaP50Fraction = 0.0;
    std::optional<MannWhitneyResult> test; // U of BASE against NEW
    std::optional<BootstrapInterval> interval95; // of median(NEW) - median(BASE)
    /// Several runs per side: whether the ranges [min, max] of the two sides' run medians are disjoint.
    std::optional<bool> runMediansSeparate;
    Verdict verdict = Verdict::NoVerdict;
    /// Why the verdict is what it is, in one sentence (for `no verdict`: what is missing).
    std::string reason;
    /// What the verdict cannot know (one run per side: run-to-run noise is unknown); "" when nothing.
    std::string caveat;
};

struct KernelSide {
    std::size_t count = 0; // per run (mean over the side's runs, rounded)
    TimeNs totalNs = 0; // per run (mean over the side's runs)
    TimeNs meanNs = 0; // total / count
    TimeNs p50Ns = 0; // one run: its p50; several: the median of the runs' p50s
};
struct KernelDiff {
    std::string name;
    std::optional<KernelSide> base; // nullopt: a new kernel
    std::optional<KernelSide> fresh; // nullopt: gone
    std::int64_t deltaCount() const;
    TimeNs deltaTotalNs() const;
};

/// A device gap of one run, described for people.
struct GapSummary {
    std::size_t run = 0; // index among the side's runs
    std::optional<int> rank;
    int deviceId = 0;
    TimeNs startFromWindowNs = 0; // gap start minus its process's window start
    TimeNs durationNs = 0;
    GapCause cause = GapCause::Unknown;
    std::string evidence; // describeGap()
};

/// An import warning of one run of a side (ImportWarning::toString() writes it).
struct ImportNote {
    std::size_t run = 0;
    ImportWarning warning;
};

struct CompareOptions {
    /// Longest gaps listed per side.
    std::size_t longestGaps = 10;
    BootstrapOptions bootstrap;
    /// Step counts whose ratio exceeds this are "very different" (a warning).
    double stepCountRatioWarning = 2.0;
};

/// What compareRuns() needs of one analyzed run, a few kilobytes: taken right after the analysis, so that the
/// trace can be freed before the next run is loaded (two runs never need to be in memory at once).
struct RunSummary {
    /// How the user named the run (a file or a folder), for messages.
    std::string label;
    AnalysisOptions analysis;
    std::size_t processCount = 0;
    std::vector<int> ranks; // the ranks the trace names, ascending
    struct Device {
        std::optional<int> rank;
        /// The process's rank, or -1 - its index when it has none (processes without ranks match by order).
        int rankKey = 0;
        int deviceId = 0;
        std::string name;
        WindowFigures figures;
    };
    std::vector<Device> devices;
    std::vector<TimeNs> stepDurations; // counted steps, in the order of AnalysisResult::steps
    std::size_t warmupSteps = 0;
    std::vector<KernelStats> kernels;
    std::vector<GapSummary> longestGaps; // `run` is 0; compareRuns() numbers them
    std::vector<ImportNote> importNotes;
    /// Bit 1 << EventKind of each kind of event the trace holds: what its collector was set to record.
    std::uint32_t recordedKinds = 0;
    std::vector<std::string> gpuModels; // distinct Device::name, sorted
    std::uint64_t droppedRecords = 0;
    bool hasGpuActivity = false;
    std::vector<std::string> analysisWarnings;
};

/// The summary of one run. Preconditions: `result` is analyze(trace, ...).
RunSummary summarizeRun(
    const Trace& trace, const AnalysisResult& result, std::string label, const CompareOptions& options = {});

struct RunDiff {
    AnalysisOptions analysis; // the options every run was analyzed with (the first base run's)
    std::vector<std::string> baseRuns;
    std::vector<std::string> newRuns;
    std::vector<DeviceDiff> devices;
    StepComparison steps;
    /// Sorted by |change in total time| descending, then name; new and gone kernels included.
    std::vector<KernelDiff> kernels;
    std::vector<GapSummary> baseGaps; // longest first, over the side's runs
    std::vector<GapSummary> newGaps;
    std::vector<ImportNote> baseImport; // import warnings and skipped-event counts of each run
    std::vector<ImportNote> newImport;
    /// Why the sides may not compare: different recorded event kinds (collector settings), GPU models, rank
    /// sets, very different step counts, dropped records, analysis warnings.
    std::vector<std::string> warnings;
};

/// Steps verdict alone (DESIGN.md §4): one run per side, MWU and bootstrap; several runs per side, the pooled
/// test plus disjoint ranges of run medians. `baseRuns` / `newRuns`: the counted step durations of each run.
StepComparison compareSteps(const std::vector<std::vector<TimeNs>>& baseRuns,
    const std::vector<std::vector<TimeNs>>& newRuns, const BootstrapOptions& bootstrap = {});

/// The whole comparison. Preconditions: each side has at least one run, all analyzed with the same options.
RunDiff compareRuns(
    std::span<const RunSummary> base, std::span<const RunSummary> fresh, const CompareOptions& options = {});

/// The counted step durations of a run (all its processes), in the order of AnalysisResult::steps.
std::vector<TimeNs> countedStepDurations(const AnalysisResult& result);

} // namespace gapscope
