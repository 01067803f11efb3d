// SPDX-License-Identifier: MIT
#pragma once

// Partial loads in the viewer (docs/hardening.md "Traces larger than memory"): a trace refused for lack of memory
// can be opened with its GPU lanes only, and from there any selected range reloaded with every lane. It keeps what
// the last load asked for (the files, the filter), so that a refused load can be retried in part, and what the
// trace on screen was loaded with.

#include "app/timeline/timeline_data.h"
#include "core/io/common/read_filter.h"

#include <QObject>
#include <QStringList>

class QAbstractButton;
class QAction;
class QMenu;
class QMessageBox;

namespace gapscope::timeline {
class TimelineState;
} // namespace gapscope::timeline

namespace gapscope::app {

class PartialLoadController : public QObject {
    Q_OBJECT
public:
    PartialLoadController(QObject* parent, timeline::TimelineState* state);

    /// Adds File › Load Selected Range with All Lanes: enabled on a partial load with a range selected.
    void addActions(QMenu* file);
    QAction* loadRangeAction() const { return m_loadRange; }
    /// "Load GPU Lanes Only" in the error message of a trace too large for memory (null until one was refused).
    QAbstractButton* gpuOnlyButton() const { return m_gpuOnly; }

    /// A load of these files started (a comparison asks for no file to retry: `files` empty).
    void loadRequested(const QStringList& files, const ReadFilter& filter);
    /// A comparison load started: nothing of it to retry in part or to remember.
    void comparisonRequested();
    /// The files the last load asked for (none for a comparison).
    const QStringList& requestedFiles() const { return m_requestedFiles; }
    /// The load finished and its trace is on screen.
    void setTrace(const timeline::LoadedTrace& loaded);
    /// Summaries replaced the trace on screen: no range of it to reload.
    void clearTrace();
    /// What the trace on screen was loaded with: a partial load's filter, or none.
    const ReadFilter& loadedFilter() const { return m_loadedFilter; }
    /// A load failed: when it was refused for lack of memory, the error message offers the GPU lanes only.
    void offerAfterFailure(QMessageBox* errorBox, const QString& message);

signals:
    /// The user asked to load these files with this filter.
    void openRequested(const QStringList& files, const gapscope::ReadFilter& filter);

private:
    void updateControls();

    timeline::TimelineState* m_state;
    QAction* m_loadRange = nullptr;
    QAbstractButton* m_gpuOnly = nullptr;
    QStringList m_requestedFiles;
    ReadFilter m_requestedFilter;
    ReadFilter m_loadedFilter;
    std::vector<std::string> m_files;
};

} // namespace gapscope::app
