// SPDX-License-Identifier: MIT
#pragma once

// The figures of docs/definitions.md: windows, busy/idle, gaps and their causes, exposed time, steps,
// kernel statistics, launch delay. Pure functions of a (finished, immutable) Trace; no Qt, no I/O.

#include "core/analysis/gap.h"
#include "core/analysis/interval_set.h"
#include "core/analysis/lane_summaries.h"
#include "core/analysis/window_figures.h"
#include "core/model/call_names.h"
#include "core/model/trace.h"

#include <array>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace gapscope {

enum class WindowKind : std::uint8_t { Gpu, Trace, Steps, Explicit };
enum class ActivitySet : std::uint8_t { All, Kernels };

std::string_view windowKindName(WindowKind kind); // "gpu", "trace", "steps", "explicit"
std::string_view activitySetName(ActivitySet set); // "all", "kernels"
std::string_view gapCauseName(GapCause cause); // "sync", "host", "launch", "dependency", "unknown"

struct WindowSpec {
    WindowKind kind = WindowKind::Gpu;
    /// Steps window: number of leading steps (per process) excluded as warm-up.
    int warmupSteps = 0;
    /// Explicit window [start, end).
    TimeNs explicitStart = 0;
    TimeNs explicitEnd = 0;
};

struct AnalysisOptions {
    WindowSpec window;
    ActivitySet activity = ActivitySet::All;
    /// Gaps at most this long whose launch came before the gap are `launch` gaps.
    TimeNs launchThresholdNs = 30'000;
    /// NVTX ranges (and user_annotation ranges) in whose name this ECMAScript regex finds a match
    /// (std::regex_search) are steps too (empty: only ProfilerStep#N). An invalid pattern is a warning.
    std::string stepPattern;
    /// Restrict the analysis to this range of the trace's processes (nullopt: all).
    std::optional<ProcessIndex> process;
    /// List stream gaps (with causes) after the device gaps. A realistic trace has about one stream gap per
    /// GPU op, so on traces of millions of events this costs far more than the device figures.
    bool streamGaps = true;
    /// Fill AnalysisResult::kernels.
    bool kernelStatistics = true;
    /// A device with at least this many events on its streams is measured in time slices joined at cuts, on
    /// several threads (the figures are the same either way; SIZE_MAX: always in one).
    std::size_t parallelFromEvents = 1'000'000;
    /// The threads that measure a device in slices (0: as many as the machine runs at once). Each thread
    /// takes the next slice when done with one, eight slices per thread, so that a thread slowed by the rest of
    /// the machine holds up little.
    unsigned threads = 0;
    /// How many of the longest device gaps the analysis ranks as it finds them (AnalysisResult::
    /// longestDeviceGaps): what a report lists then costs no second pass over millions of gaps.
    std::size_t rankedDeviceGaps = 100;
    /// Asked to stop (a viewer's Cancel, or a newer request): analyze() returns after the device it is
    /// measuring, with AnalysisResult::stopped set and the figures incomplete.
    std::stop_token stop;
    // Gap evidence (and its summary line) is worked out on demand, for the gaps someone looks at:
    // gapEvidence(), describeGap().
};

/// The window actually used for one process: one range (kept as an IntervalSet so that figures can be
/// computed over any set of ranges).
struct Window {
    WindowKind kind = WindowKind::Gpu;
    IntervalSet ranges;
    TimeNs start() const; // first range start, 0 if empty
    TimeNs end() const; // last range end, 0 if empty
    TimeNs length() const; // total length of the ranges
};

struct Step {
    ProcessIndex process;
    std::string name;
    TimeNs start = 0;
    TimeNs end = 0;
    /// The CPU range that defines it (ProfilerStep#N or the NVTX range).
    EventRef cpuRange;
    bool warmup = false;
};

/// Why a gap is believed to have happened: the events that overlapped it. Evidence, not a verdict.
/// Not stored with the gaps (a trace can have millions): gapEvidence() works it out for one gap.
struct GapEvidence {
    /// N: the GPU op that ended the gap (first activity starting at or after the gap end on the device, or
    /// on the stream for a stream gap).
    std::optional<EventRef> closingOp;
    /// L: the API call that launched N (by correlation id).
    std::optional<EventRef> launch;
    /// For `sync`: the host synchronizing call that began before the gap and was running during it.
    std::optional<EventRef> syncCall;
    /// For `host`: the innermost CPU/NVTX range on L's thread that covers most of the gap.
    std::optional<EventRef> hostRange;
    /// For `dependency`: the cudaStreamWaitEvent (or cuStreamWaitEvent) enqueued on L's thread just before L.
    std::optional<EventRef> awaitedWait;
    /// For `host` and `sync` (L began after the gap did): the CPU samples of L's thread inside the gap, when that
    /// thread was sampled there.
    struct Samples {
        std::uint32_t count = 0;
        /// The functions with the most self samples, most first (topSampledFunctions()).
        std::vector<SampledFunction> top;
    };
    std::optional<Samples> samples;
    /// The first allocation or free on the gap's device inside the gap: point `point` of counter track `track`
    /// (a memory lane), whose step from the point before is the bytes allocated (+) or freed (−).
    struct CounterStep {
        std::uint32_t track = 0;
        std::uint32_t point = 0;
    };
    std::optional<CounterStep> memoryChange;
    /// One line a person can read: "cudaStreamSynchronize on thread 1234 from -2.100 ms to +3.000 µs; ...",
    /// times relative to the gap start (describeGap()).
    std::string summary;
};

/// The figures of one device over its process's window.
struct DeviceFigures : WindowFigures {
    DeviceIndex device;
    ProcessIndex process;
    Window window;
};

/// Step durations of one process, warm-up steps excluded (docs/definitions.md).
struct StepStats {
    ProcessIndex process;
    std::size_t count = 0; // steps measured
    std::size_t warmup = 0; // leading steps excluded as warm-up
    TimeNs meanNs = 0;
    TimeNs p50Ns = 0; // nearest-rank percentiles
    TimeNs p95Ns = 0;
};

struct KernelStats {
    std::string name;
    std::size_t count = 0;
    TimeNs totalNs = 0;
    TimeNs meanNs = 0;
    TimeNs p50Ns = 0;
    TimeNs p95Ns = 0;
    TimeNs maxNs = 0;
};

struct AnalysisResult {
    AnalysisOptions options;
    /// One window per process (index = ProcessIndex); empty ranges when a process has nothing to measure.
    std::vector<Window> windows;
    std::vector<DeviceFigures> devices;
    /// The analysis was asked to stop (AnalysisOptions::stop) before it was done: do not use the figures.
    bool stopped = false;
    /// Device gaps, then stream gaps, each in time order per device/stream.
    GapList gaps;
    /// Indices in `gaps` of the longest device gaps over all devices, longest first, equal durations in list
    /// order: options.rankedDeviceGaps of them, or every device gap if there are fewer.
    std::vector<std::size_t> longestDeviceGaps;
    std::vector<Step> steps;
    /// One entry per analyzed process that has steps.
    std::vector<StepStats> stepStats;
    /// Kernels clipped to nothing: whole kernels whose start lies in the window, sorted by total desc.
    std::vector<KernelStats> kernels;
    bool hasGpuActivity = false;
    /// Problems with the options (e.g. an invalid step pattern); the analysis went on without the bad part.
    std::vector<std::string> warnings;
};

/// The step statistics of one process, nullptr when it has no steps.
const StepStats* stepStatsFor(const AnalysisResult& result, ProcessIndex process);

/// Runs the whole analysis.
AnalysisResult analyze(const Trace& trace, const AnalysisOptions& options);
/// The same with the trace's lane summaries built already (LaneSummaries(trace)): what a viewer that analyzes
/// one trace again and again (a new window, a new range) hands in, instead of a pass over every event each time.
AnalysisResult analyze(const Trace& trace, const LaneSummaries& lanes, const AnalysisOptions& options);

/// Steps of every process (docs/definitions.md "Steps"), warm-up flagged per options.window.warmupSteps.
std::vector<Step> findSteps(const Trace& trace, const std::string& stepPattern, int warmupSteps);

/// The window for one process.
Window computeWindow(const Trace& trace, ProcessIndex process, const WindowSpec& spec, ActivitySet activity,
    const std::vector<Step>& steps);

/// Union of the device's GPU activity (by the activity set), clipped to nothing.
IntervalSet deviceBusy(const Trace& trace, DeviceIndex device, ActivitySet activity);

/// Per-name statistics of the kernels whose start lies in their process's window (`windows` indexed by
/// process), sorted by total time descending; p50/p95 are nearest-rank percentiles.
std::vector<KernelStats> kernelStatistics(
    const Trace& trace, const std::vector<Window>& windows, std::optional<ProcessIndex> only = std::nullopt);

/// The evidence of a gap that analyze() found: its closing op, that op's launch, and per cause the sync call
/// or host range, with the summary line (`launchThresholdNs`: the one the analysis used). The cost of a few
/// lookups in the trace (a sync call: a walk over the calls open at the gap start).
GapEvidence gapEvidence(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs = 30'000);

/// The one-line GapEvidence::summary of a gap that analyze() classified (with the same launch threshold).
std::string describeGap(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs = 30'000);

/// The indices in `gaps` of its `count` longest (device gaps only, when `deviceGapsOnly`), longest first, equal
/// durations in list order. One pass over the gaps with a heap of `count`: the longest of millions cost no sort
/// of them all.
std::vector<std::size_t> longestGaps(const GapList& gaps, std::size_t count, bool deviceGapsOnly);
/// longestGaps(result.gaps, count, true), from the analysis's ranking when it holds that many.
std::vector<std::size_t> longestDeviceGaps(const AnalysisResult& result, std::size_t count);

/// Start of a GPU op minus the start of the API call that launched it; nullopt without a launch.
std::optional<TimeNs> launchDelay(const Trace& trace, EventRef gpuOp);

/// Exposed-time breakdown of one device over a window (docs/definitions.md): sums exactly to window.length().
ExposedTime exposedTime(const Trace& trace, DeviceIndex device, const Window& window);

// isSynchronizingCall(name) and isCommunicationKernel(name): core/model/call_names.h, whose classifyNames() of
// every name TraceBuilder::finish() keeps in Trace::nameClasses(), which the lane summaries (lane_summaries.h),
// NameClasses and the collectives read.

} // namespace gapscope
