// SPDX-License-Identifier: MIT
#pragma once

// The main window: the timeline in the middle, the Gaps, Kernels and Details docks around it, and
// the loading of traces off the GUI thread with progress and Cancel. A failed load shows a
// non-modal dialog naming the file and the place, and leaves the previous trace on screen.

#include "app/export/export_image_dialog.h"
#include "app/mainwindow/trace_loader.h"
#include "core/analysis/comparison_diff.h"

#include <QMainWindow>

class QAbstractButton;
class QDockWidget;
class QLabel;
class QMenu;
class QMessageBox;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTextBrowser;

namespace gapscope::timeline {
class TimelineState;
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class AnnotationSession;
class DiffDock;
class GapsDock;
class JobSession;
class KernelsDock;
class RecordDialog;
class SearchBar;
class WindowSelector;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads files into one timeline (one process group each), replacing what is shown once done; `filter`
    /// keeps only part of them (a trace too large to load whole: app/mainwindow/partial_load_controller.cpp).
    quint64 openFiles(const QStringList& files, const ReadFilter& filter = {});
    /// What the trace on screen was loaded with: a partial load's filter, or none.
    const ReadFilter& loadedFilter() const { return m_loadedFilter; }
    /// "Load GPU Lanes Only" in the error message of a trace too large for memory (hidden otherwise).
    QAbstractButton* gpuOnlyButton() const { return m_gpuOnlyButton; }
    /// File › Load Selected Range with All Lanes: enabled on a partial load with a range selected.
    QAction* loadRangeAction() const { return m_loadRangeAction; }
    /// Loads the files shown now plus these, side by side.
    quint64 addFiles(const QStringList& files);
    void openDemo();
    /// File › Compare With…: loads NEW off the GUI thread and shows it under the trace on screen (BASE), both
    /// blocks aligned on the first counted step (or the window start). Comparing again replaces NEW.
    quint64 compareWith(const QStringList& newFiles);
    /// Aligns the blocks of the comparison on counted step `step` (0: the first), or on the window starts.
    quint64 alignComparisonOn(std::optional<std::size_t> step);
    /// "Align on step N" (N from 1; 0 reads "window start"); shown while comparing.
    QSpinBox* alignSpinBox() const { return m_alignStep; }
    /// File › Record…: shows the record dialog (created on first use); a recording it finishes opens here.
    RecordDialog* showRecordDialog();
    RecordDialog* recordDialog() const { return m_recordDialog; }
    /// The bundled demo trace: next to the installed binary or in the source tree; empty if missing.
    static QString demoTracePath();

    timeline::TimelineView* timelineView() const { return m_view; }
    timeline::TimelineState* timelineState() const { return m_state; }
    GapsDock* gapsDock() const { return m_gapsDock; }
    KernelsDock* kernelsDock() const { return m_kernelsDock; }
    /// The job of several ranks: Job overview, Ranks dock.
    JobSession* jobSession() const { return m_job; }
    /// The diff of the comparison on screen (File › Compare With…).
    DiffDock* diffDock() const { return m_diffDock; }
    /// Highlights a kernel's occurrences in both blocks of a comparison (a Diff dock kernel row); returns how many
    /// each block holds (BASE, NEW).
    std::pair<std::size_t, std::size_t> highlightKernel(const QString& name);
    /// Draws the gap bands of the device (matched as the diff matches it) in both blocks as selected.
    void selectComparedDevice(std::optional<int> rank, int deviceId);
    QTextBrowser* detailsPanel() const { return m_details; }
    SearchBar* searchBar() const { return m_search; }
    WindowSelector* windowSelector() const { return m_windowSelector; }
    /// The notes of the trace on screen: Annotations and Note docks, undo, explain a gap, export.
    AnnotationSession* annotations() const { return m_annotations; }
    bool isLoading() const { return m_loader->isLoading(); }
    QString lastError() const { return m_lastError; }
    QMessageBox* errorDialog() const { return m_errorBox; }
    std::shared_ptr<const Trace> trace() const { return m_loaded.trace; }
    std::shared_ptr<const AnalysisResult> analysis() const { return m_analysis.result; }
    /// The comparison on screen (File › Compare With…), null when one run is shown.
    std::shared_ptr<const ComparedTraces> comparedTraces() const { return m_loaded.comparison; }
    const timeline::LoadedTrace& loadedTrace() const { return m_loaded; }
    /// File › Export Image...: asks what, how big and where, then exportImageTo().
    void exportImage();
    /// Draws the picture (app/export) on a worker thread with a busy cursor; imageExported() follows.
    /// False (and a status-bar message) when the choice has nothing to draw.
    bool exportImageTo(const picture::ExportImageChoice& choice);
    /// The size, range and file the Export Image dialog starts from: the last export's (remembered across
    /// sessions); nullopt before the first.
    std::optional<picture::ExportImageChoice> lastExportChoice() const;
    /// A recording finished: opens it, or with a trace on screen asks whether to replace it, open the
    /// recording side by side or keep the current trace (recordingPrompt()).
    void offerRecording(const QString& file);
    QMessageBox* recordingPrompt() const { return m_recordingBox; }
    /// Selects a gap and shows it as a click in the Gaps dock would.
    void showGap(std::size_t gap);
    void showTraceEvent(EventRef event, bool zoom);

signals:
    /// A load finished and its trace is on screen.
    void traceShown();
    /// A load failed; the message names the file and the place.
    void loadFailed(const QString& message);
    /// The figures of a new window are shown.
    void analysisShown();
    /// The Diff dock shows the diff of the comparison on screen.
    void diffShown();
    /// An image export finished: `error` is empty on success, else it names the file and the problem.
    void imageExported(const QString& path, const QString& error);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void fitDocksToWindow();
    void createActions();
    void createDocks();
    void createStatusBar();
    void onLoadFinished(std::shared_ptr<const LoadOutcome> outcome);
    void onLoadFailed(const QString& message);
    void onAnalysisFinished(AnalysisPurpose purpose, const timeline::AnalysisSnapshot& analysis);
    void applyAnalysis(const timeline::AnalysisSnapshot& analysis);
    void onSelectionChanged();
    void showSummary();
    void updateFigures();
    void setLoadingUi(bool loading);
    void updateComparisonControls();
    void startDiff();
    void createPartialLoadActions(QMenu* file);
    /// Adds "Load GPU Lanes Only" to the error message when the load was refused for lack of memory.
    void offerPartialLoad(const QString& message);
    void updatePartialLoadControls();
    /// The analysis's devices, BASE's first in a comparison, and their names with the block ("Base GPU 0").
    std::vector<DeviceFigures> devicesInBlockOrder() const;
    QString blockDeviceName(const DeviceFigures& d) const;
    void addRecentFile(const QString& file);
    void rebuildRecentMenu();
    AnalysisOptions analysisOptions() const;

    timeline::TimelineState* m_state;
    timeline::TimelineView* m_view;
    TraceLoader* m_loader;
    GapsDock* m_gapsDock = nullptr;
    KernelsDock* m_kernelsDock = nullptr;
    JobSession* m_job = nullptr;
    DiffDock* m_diffDock = nullptr;
    QDockWidget* m_diffDockWidget = nullptr;
    LatestJob m_diffJob;
    QTextBrowser* m_details = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QDockWidget* m_gapsDockWidget = nullptr;
    SearchBar* m_search = nullptr;
    WindowSelector* m_windowSelector = nullptr;
    AnnotationSession* m_annotations = nullptr;
    QMenu* m_recentMenu = nullptr;
    QAction* m_backAction = nullptr;
    QAction* m_forwardAction = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_cancel = nullptr;
    QLabel* m_progressLabel = nullptr;
    QLabel* m_figures = nullptr;
    QSpinBox* m_alignStep = nullptr;
    QAction* m_alignAction = nullptr;
    QMessageBox* m_errorBox = nullptr;
    QMessageBox* m_recordingBox = nullptr;
    QAbstractButton* m_replaceButton = nullptr;
    QAbstractButton* m_sideBySideButton = nullptr;
    RecordDialog* m_recordDialog = nullptr;
    QString m_lastError;
    QStringList m_pendingFiles;
    ReadFilter m_pendingFilter;
    ReadFilter m_loadedFilter;
    QAbstractButton* m_gpuOnlyButton = nullptr;
    QAction* m_loadRangeAction = nullptr;

    timeline::LoadedTrace m_loaded;
    timeline::AnalysisSnapshot m_analysis;
    timeline::AnalysisSnapshot m_rangeAnalysis;
};

} // namespace gapscope::app
