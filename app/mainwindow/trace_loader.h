// SPDX-License-Identifier: MIT
#pragma once

// Loading and analysis off the GUI thread. Each request gets a job id; results come back as immutable
// shared objects through queued signals, and a result whose id is no longer the current one (a newer
// request, or Cancel) is dropped.

#include "app/timeline/timeline_data.h"

#include <QObject>
#include <QStringList>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
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

/// Reads the files (one process group each), analyses them and builds the timeline index.
/// Runs on the calling thread; `progress(percent, text)` is called between steps and returning false
/// from it abandons the load (the result is then an error "canceled").
using ProgressCallback = std::function<bool(int percent, const QString& text)>;
std::variant<std::shared_ptr<const LoadOutcome>, QString> loadAndAnalyze(
    const QStringList& files, const AnalysisOptions& options, const ProgressCallback& progress);

class TraceLoader : public QObject {
    Q_OBJECT
public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    /// Starts loading; a load still running is abandoned. Returns the job id.
    quint64 load(const QStringList& files, const AnalysisOptions& options);
    /// Re-runs the analysis of a loaded trace (another window, a selected range). `purpose` tells the
    /// receiver what it was for; only the latest job of each purpose is delivered.
    quint64 analyze(std::shared_ptr<const Trace> trace, const AnalysisOptions& options, int purpose);
    /// Abandons every analysis still running (the trace they are about was replaced).
    void dropAnalyses() { m_currentAnalysis.clear(); }
    /// Abandons the current load: its result will be dropped.
    void cancelLoad();
    bool isLoading() const { return m_loading; }

signals:
    void loadProgress(quint64 job, int percent, const QString& text);
    void loadFinished(quint64 job, std::shared_ptr<const gapscope::app::LoadOutcome> outcome);
    void loadFailed(quint64 job, const QString& message);
    void loadCanceled(quint64 job);
    void analysisFinished(quint64 job, int purpose, gapscope::timeline::AnalysisSnapshot analysis);

private:
    quint64 m_nextJob = 1;
    quint64 m_currentLoad = 0;
    std::map<int, quint64> m_currentAnalysis; // purpose -> job
    bool m_loading = false;
    /// Set on cancel, read by the worker between steps.
    std::shared_ptr<std::atomic<quint64>> m_canceledJob;
};

} // namespace gapscope::app
