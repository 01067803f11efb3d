// SPDX-License-Identifier: MIT
#pragma once

// The job the viewer shows when several ranks are open: each rank's summary (core/summary), the job analysis of
// their collectives (core/analysis/collectives.h), and where each rank's utilization per time bin comes from (its
// devices' busy intervals when its trace is open, its summary's bins otherwise). Built once off the GUI thread and
// shared read-only; the heatmap of utilization per bin at a zoom is computed from it, also off the GUI thread.

#include "core/analysis/analysis.h"
#include "core/analysis/collectives.h"
#include "core/summary/rank_summary.h"

#include <QImage>

#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

namespace gapscope::timeline {

struct JobData {
    /// One per input, in the order the analysis got them (process order, or the summary files' order).
    std::vector<RankSummary> summaries;
    /// Per input: its devices' busy intervals (a trace is open), or empty (the summary's bins are used).
    std::vector<std::vector<IntervalSet>> busy;
    /// Per input: the process of the open trace it is, or none (from a summary file).
    std::vector<std::optional<ProcessIndex>> processes;
    JobAnalysis analysis;
    /// Whether the ranks come from summary files only (no lanes).
    bool fromSummaries = false;
    /// The summary files' names (fromSummaries), for the view's message.
    std::vector<std::string> files;

    /// Rows of the overview and the Ranks dock: one per analysed rank (JobAnalysis::perRank), ranks ascending.
    std::size_t rankCount() const { return analysis.perRank.size(); }
    const RankSummary& summaryOfRow(std::size_t row) const { return summaries[analysis.perRank[row].input]; }
    std::optional<ProcessIndex> processOfRow(std::size_t row) const { return processes[analysis.perRank[row].input]; }
    /// The row of the straggler, if there is one.
    std::optional<std::size_t> stragglerRow() const;
    /// The earliest window start and latest window end over the ranks' devices.
    std::optional<std::pair<TimeNs, TimeNs>> timeSpan() const;
};

/// The job of an analysed trace of several processes: one summary per process (summarizeProcess over `result`,
/// whose gaps must include the device gaps), each device's busy intervals, and the job analysis. None when the
/// trace has fewer than two processes or no GPU activity. Checks `stop` between processes.
std::shared_ptr<const JobData> buildJobFromTrace(
    const Trace& trace, const AnalysisResult& result, std::stop_token stop = {});

/// The job of rank summaries (read from `.summary.json` files).
std::shared_ptr<const JobData> buildJobFromSummaries(
    std::vector<RankSummary> summaries, std::vector<std::string> files);

/// Utilization per time bin of every rank over [start, end) cut into `columns` equal bins: row-major, one row per
/// JobData row, each value the busy fraction of the bin averaged over the rank's devices, or a negative value
/// where the rank has no data (outside its summary's bins).
struct JobHeatmap {
    /// Unique per computed heatmap (newHeatmapId()): what a painter's cached image is keyed by.
    std::uint64_t id = 0;
    TimeNs start = 0;
    TimeNs end = 1;
    int columns = 0;
    int rows = 0;
    std::vector<float> values;
    /// The values as colours (one pixel per bin and rank), made where the heatmap is computed (off the GUI thread)
    /// by JobOverviewPainter::makeImage; null: the painter makes it on first paint.
    QImage image;
    float at(int row, int column) const
    {
        return values[static_cast<std::size_t>(row) * static_cast<std::size_t>(columns) + column];
    }
};

/// A new heatmap id (never 0), from a process-wide counter.
std::uint64_t newHeatmapId();

/// Computes the heatmap (from busy intervals: the exact busy time per bin; from summary bins: each summary bin's
/// busy time spread evenly over it). Returns an empty heatmap (0 rows) when stopped.
JobHeatmap computeJobHeatmap(const JobData& job, TimeNs start, TimeNs end, int columns, std::stop_token stop = {});

/// The busy time of [start, end) cut into `bins` equal bins of one device's busy intervals, added to `out`.
void addBusyPerBin(const IntervalSet& busy, TimeNs start, TimeNs end, std::vector<double>& out);
/// The same from a summary's bins (busy spread evenly inside each summary bin); `covered` gets the length of each
/// output bin that the summary's bins cover.
void addSummaryBusyPerBin(
    const DeviceSummary& device, TimeNs start, TimeNs end, std::vector<double>& out, std::vector<double>& covered);

} // namespace gapscope::timeline
