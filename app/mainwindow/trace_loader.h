// SPDX-License-Identifier: MIT
#pragma once

// Loading and analysis off the GUI thread. Each kind of request (a load, the main analysis, a range's) is a
// LatestJob: a newer request or Cancel asks the running one to stop (the readers and analyze() check a
// std::stop_token) and drops its result; results come back as immutable shared objects on the GUI thread.

#include "app/mainwindow/latest_job.h"
#include "app/timeline/timeline_data.h"
#include "core/analysis/compared_traces.h"
#include "core/io/common/read_filter.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <memory>
#include <stop_token>
#include <variant>

namespace gapscope::app {

/// What a finished load hands to the GUI.
struct LoadOutcome {
    timeline::LoadedTrace loaded;
    timeline::AnalysisSnapshot analysis;
    /// Import warnings, one line each (skipped events and where).
    QStringList warnings;
    qint64 elapsedMs = 0;
};

/// What an analysis is for: only the latest job of each purpose is delivered.
enum class AnalysisPurpose {
    Main, // the window selector's window: docks, bands, status bar
    Range, // a selected range's figures (Details)
};

/// Reads the files (one process group each), analyses them and builds the timeline index.
/// Runs on the calling thread; `progress(percent, text)` is called between steps. A stop request (or
/// `progress` returning false) abandons the load soon: the readers check `stop` at each window of content
/// or chunk, analyze() after each device. The result is then the error "canceled".
using ProgressCallback = std::function<bool(int percent, const QString& text)>;
using LoadResult = std::variant<std::shared_ptr<const LoadOutcome>, QString>;
/// `filter` keeps part of each file (only its GPU lanes, a time range: core/io/common/read_filter.h).
LoadResult loadAndAnalyze(const QStringList& files, const AnalysisOptions& options, const ProgressCallback& progress,
    std::stop_token stop = {}, const ReadFilter& filter = {});

/// What File › Compare With… loads: NEW (read from `newFiles` unless `fresh` holds it already: a new alignment)
/// next to the BASE trace on screen.
struct ComparisonRequest {
    std::shared_ptr<const Trace> base;
    std::vector<std::string> baseFiles;
    /// BASE opened as a folder of repeated runs; null otherwise.
    std::shared_ptr<const ComparedSideRuns> baseRuns;
    std::shared_ptr<const Trace> fresh;
    /// Trace files, or one folder of repeated runs (its median run is shown, all of them count towards the verdict).
    QStringList newFiles;
    /// With `fresh`: NEW's runs when it was read from a folder of repeated runs.
    ComparedSideRuns newRuns;
    /// The counted step to align on (0: the first); nullopt: the window starts.
    std::optional<std::size_t> alignStep = 0;
};

/// Reads NEW (when needed), aligns it (alignComparison()), combines the two traces (combineComparedTraces()),
/// analyses and indexes the combination: a LoadOutcome whose LoadedTrace has the two blocks and the comparison.
LoadResult loadAndCompare(const ComparisonRequest& request, const AnalysisOptions& options,
    const ProgressCallback& progress, std::stop_token stop = {});

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    /// Starts loading; a load still running is stopped. Returns the job id.
    quint64 load(const QStringList& files, const AnalysisOptions& options, const ReadFilter& filter = {});
    /// Starts loading a comparison (loadAndCompare()) as load() does: same progress, Cancel and signals.
    quint64 loadComparison(const ComparisonRequest& request, const AnalysisOptions& options);
    /// Re-runs the analysis of a loaded trace (another window, a selected range) with its lane summaries (null:
    /// built for this analysis); a running analysis of the same purpose is stopped.
    quint64 analyze(std::shared_ptr<const Trace> trace, std::shared_ptr<const LaneSummaries> summaries,
        const AnalysisOptions& options, AnalysisPurpose purpose);
    /// Stops every analysis still running (the trace they are about was replaced).
    void dropAnalyses();
    /// Stops the current load: its result will be dropped.
    void cancelLoad();
    bool isLoading() const { return m_loading; }

signals:
    void loadProgress(quint64 job, int percent, const QString& text);
    void loadFinished(quint64 job, std::shared_ptr<const gapscope::app::LoadOutcome> outcome);
    void loadFailed(quint64 job, const QString& message);
    void loadCanceled(quint64 job);
    void analysisFinished(
        quint64 job, gapscope::app::AnalysisPurpose purpose, gapscope::timeline::AnalysisSnapshot analysis);

private:
    quint64 startLoad(std::function<LoadResult(const ProgressCallback& progress, std::stop_token stop)> work);
    LatestJob& analysisJob(AnalysisPurpose purpose)
    {
        return purpose == AnalysisPurpose::Main ? m_mainAnalysis : m_rangeAnalysis;
    }

    LatestJob m_load;
    LatestJob m_mainAnalysis;
    LatestJob m_rangeAnalysis;
    bool m_loading = false;
};

} // namespace gapscope::app
