// SPDX-License-Identifier: MIT
#pragma once

// The comparison part of the main window (File › Compare With…): loading NEW under the trace on screen (BASE),
// aligning the two blocks on a counted step, the Diff dock and the diff's job off the GUI thread, and what the
// Diff dock's rows select on the timeline. The window hands it each trace it shows. docs/comparing-in-the-viewer.md.

#include "app/mainwindow/latest_job.h"
#include "app/timeline/timeline_data.h"
#include "core/analysis/comparison_diff.h"

#include <QObject>
#include <QStringList>

#include <functional>
#include <optional>
#include <utility>

class QAction;
class QDockWidget;
class QMainWindow;
class QSpinBox;
class QToolBar;

namespace gapscope::timeline {
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class DiffDock;
class TraceLoader;

class ComparisonController : public QObject {
    Q_OBJECT
public:
    /// `options`: the options of the viewer's analyses now (WindowSelector::analysisOptions()).
    ComparisonController(QMainWindow* window, timeline::TimelineView* view, TraceLoader* loader,
        std::function<AnalysisOptions()> options);

    /// The diff of the comparison on screen.
    DiffDock* dock() const { return m_dock; }
    QDockWidget* dockWidget() const { return m_dockWidget; }
    /// "Align on step N" (N from 1; 0 reads "window start"); shown in the toolbar while comparing.
    QSpinBox* alignSpinBox() const { return m_alignStep; }
    /// Makes the align control in the toolbar, hidden until a comparison is shown.
    void addToToolBar(QToolBar* tools);

    /// A load finished: with a comparison the align control shows its steps and the diff is computed off the GUI
    /// thread (diffShown() follows); without, the Diff dock says how to compare.
    void setTrace(const timeline::LoadedTrace& loaded);
    /// Summaries replaced the trace on screen: there is nothing left to compare, align or highlight.
    void clearTrace();
    /// Loads NEW off the GUI thread and shows it under the trace on screen (BASE), both blocks aligned on the first
    /// counted step (or the window start). Comparing again replaces NEW.
    quint64 compareWith(const QStringList& newFiles);
    /// Aligns the blocks of the comparison on counted step `step` (0: the first), or on the window starts.
    quint64 alignOn(std::optional<std::size_t> step);
    /// Aligns the comparison again on the same step, as the window's warm-up count moves the counted steps (no
    /// re-read). False when no comparison is shown.
    bool realign();
    /// Highlights a kernel's occurrences in both blocks (a Diff dock kernel row); returns how many each block holds
    /// (BASE, NEW).
    std::pair<std::size_t, std::size_t> highlightKernel(const QString& name);
    /// Draws the gap bands of the device (matched as the diff matches it) in both blocks as selected.
    void selectDevice(std::optional<int> rank, int deviceId, int newDeviceId);

signals:
    /// A comparison load started: NEW read for the first time (`newRun`), or the same two aligned again.
    void loadStarted(bool newRun);
    /// The Diff dock shows the diff of the comparison on screen.
    void diffShown();

private:
    void updateControls();
    void startDiff();

    QMainWindow* m_window;
    timeline::TimelineView* m_view;
    TraceLoader* m_loader;
    std::function<AnalysisOptions()> m_options;
    DiffDock* m_dock;
    QDockWidget* m_dockWidget;
    QSpinBox* m_alignStep = nullptr;
    QAction* m_alignAction = nullptr;
    LatestJob m_diffJob;
    timeline::LoadedTrace m_loaded;
};

} // namespace gapscope::app
