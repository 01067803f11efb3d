// SPDX-License-Identifier: MIT
#pragma once

// Record…'s "Runs: N" (N > 1): the program recorded N times, one after the other, into one folder, one trace
// per run and the runs manifest rewritten after each run — the folder `gapscope record --runs N -o DIR` writes,
// which `gapscope diff BASE_DIR NEW_DIR` compares as N runs a side. The dialog starts each run's RecordSession;
// this keeps what the runs left.

#include "app/record/record_session.h"
#include "core/experiment/runs_manifest.h"

#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace gapscope::app {

class RecordSeries {
public:
    /// `folder`: made by the caller; `runs` >= 2.
    RecordSeries(const capture::RecordOptions& options, QString folder, int runs);

    int runs() const { return m_runs; }
    /// The run under way or the last one ended, from 1; 0 before the first.
    int current() const { return m_current; }
    bool hasMoreRuns() const { return m_current < m_runs && !m_stopped; }
    /// After Stop: the run under way is the last (as Ctrl-C ends `record --runs` after the current run).
    void stop() { m_stopped = true; }
    bool stopped() const { return m_stopped; }
    const QString& folder() const { return m_folder; }
    const RunsManifest& manifest() const { return m_manifest; }

    /// Starts the bookkeeping of the next run; returns where its trace goes.
    QString beginNextRun();
    /// The current run ended with `outcome` (its program got `environment`). Rewrites the manifest; returns the
    /// message when it could not be written.
    std::optional<QString> endRun(const RecordingOutcome& outcome, const std::vector<std::string>& environment);
    /// The current run's program could not start (`why`); rewrites the manifest as endRun() does.
    std::optional<QString> endRunNotStarted(const QString& why);

    /// The trace of the newest run that did not fail; empty when every run failed.
    QString lastGoodRun() const;
    /// What `gapscope record --runs` prints at the end: runs recorded, failed ones, how to compare.
    QString summaryLine() const;

private:
    std::optional<QString> writeManifest();

    RunsManifest m_manifest;
    QString m_folder;
    int m_runs = 0;
    int m_current = 0;
    bool m_stopped = false;
};

} // namespace gapscope::app
