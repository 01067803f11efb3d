// SPDX-License-Identifier: MIT
#pragma once

// A compact summary of one rank (one process of a trace): its figures, utilization per time bin, its collectives
// with their arrivals, and its longest gaps. Its size grows with the collectives and bins, not the events, so the
// summaries of a thousand ranks fit in one process, which matches their collectives (core/analysis/collectives.h).
// Written and read as JSON (summary_json.h).

#include "core/analysis/analysis.h"
#include "core/analysis/collectives.h"
#include "core/experiment/metric_spec.h"
#include "core/io/common/io_error.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace gapscope {

/// One device of the rank, over the rank's window.
struct DeviceSummary : WindowFigures {
    int id = 0;
    std::string name;
    TimeNs windowStart = 0;
    TimeNs windowEnd = 0;
    /// Busy time per bin: bin i is [binStart + i * binWidth, + binWidth) clipped to the window's end.
    TimeNs binStart = 0;
    TimeNs binWidthNs = 0;
    std::vector<TimeNs> busyPerBin;
};

/// One of the rank's longest device gaps.
struct RankGapSummary {
    int device = 0;
    TimeNs start = 0;
    TimeNs end = 0;
    GapCause cause = GapCause::Unknown;
    /// describeGap()'s line.
    std::string evidence;
};

/// The values of one metric of an experiment (core/experiment/metric_spec.h) in one rank.
struct RankMetric {
    std::string name;
    std::string spec; // MetricSpec::specText()
    std::vector<TimeNs> valuesNs;
};

struct RankSummary {
    /// The trace file the rank came from.
    std::string source;
    std::int64_t pid = 0;
    std::string processName;
    std::optional<int> rank;
    std::optional<int> worldSize;
    /// The options it was measured with (a job compares only ranks measured the same way).
    WindowKind window = WindowKind::Gpu;
    ActivitySet activity = ActivitySet::All;
    std::vector<DeviceSummary> devices;
    /// The launch threshold the gap causes were found with (AnalysisOptions::launchThresholdNs).
    TimeNs launchThresholdNs = AnalysisOptions {}.launchThresholdNs;
    std::size_t steps = 0;
    std::size_t warmupSteps = 0;
    TimeNs stepP50Ns = 0;
    TimeNs stepP95Ns = 0;
    /// The counted (not warm-up) steps' durations in time order, so that `diff` can compare step times from
    /// summaries; empty in a summary written before they were kept.
    std::vector<TimeNs> stepDurationsNs;
    /// `summarize --metric`: each metric's values in this rank, so that `diff` of summaries judges them too.
    std::vector<RankMetric> metrics;
    std::vector<CollectiveOccurrence> collectives;
    std::vector<RankGapSummary> longestGaps;
    std::uint64_t skippedEvents = 0;

    /// Over all devices.
    TimeNs spanNs() const;
    TimeNs busyNs() const;
    TimeNs idleNs() const;
    std::array<TimeNs, kGapCauseCount> idleByCause() const;
    TimeNs exposedCommunicationNs() const;
    /// The view the job analysis reads (it points at `collectives`).
    JobRankInput jobInput() const;
};

struct SummaryOptions {
    /// Utilization bins per device over its window.
    std::size_t bins = 256;
    /// Longest device gaps kept.
    std::size_t longestGaps = 10;
    /// The metrics whose values each summary keeps (RankSummary::metrics).
    std::vector<MetricSpec> metrics;
};

/// The summary of one process of an analysed trace (`result` from analyze() over the same trace; its gap list
/// must hold the device gaps). Reads the process's collectives (findCollectives) and device gaps, not its events.
RankSummary summarizeProcess(
    const Trace& trace, const AnalysisResult& result, ProcessIndex process, const SummaryOptions& options = {});

/// distributedInfo.world_size from a process's file metadata (Process::fileMetadataJson), when present.
std::optional<int> worldSizeOf(const Process& process);

/// The analysis options a summary is made with from a report's: device gaps only, no kernel statistics.
AnalysisOptions summaryAnalysisOptions(AnalysisOptions options);

/// Loads a trace file, analyses it and summarizes each of its processes (the work of one rank in `summarize`
/// and `job`).
IoResult<std::vector<RankSummary>> summarizeTraceFile(
    const std::string& path, const AnalysisOptions& analysis, const SummaryOptions& options = {});

/// Orders summaries by rank (no rank last), then source and pid: the order a job report lists them in.
void sortByRank(std::vector<RankSummary>& summaries);

} // namespace gapscope
