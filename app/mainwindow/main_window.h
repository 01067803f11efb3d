// SPDX-License-Identifier: MIT
#pragma once

// The main window: the timeline in the middle and the parts around it, each a controller of its own (the job's,
// the notes', the comparison's, the details', partial loads, image export, recording). The window loads traces off
// the GUI thread, hands each trace and analysis it shows to its parts, and wires them. A failed load shows a
// non-modal message naming the file and the place, and leaves the previous trace on screen.

#include "app/timeline/timeline_data.h"
#include "core/io/common/read_filter.h"

#include <QMainWindow>
#include <QStringList>

namespace gapscope::timeline {
class TimelineState;
class TimelineView;
} // namespace gapscope::timeline

namespace gapscope::app {

class AnalysisDocks;
class AnnotationSession;
class ComparisonController;
class DetailsPanel;
class SamplesDock;
class ImageExportController;
class JobSession;
class LoadStatus;
struct LoadOutcome;
class PartialLoadController;
class RecordingOffer;
class SearchBar;
class TraceLoader;
class WindowSelector;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    /// Loads files into one timeline (one process group each), replacing what is shown once done; `filter` keeps
    /// only part of them (a trace too large to load whole: PartialLoadController).
    quint64 openFiles(const QStringList& files, const ReadFilter& filter = {});
    /// Loads the files shown now plus these, side by side.
    quint64 addFiles(const QStringList& files);
    void openDemo();
    /// The bundled demo trace: next to the installed binary or in the source tree; empty if missing.
    static QString demoTracePath();
    /// Selects a gap and shows it as a click in the Gaps dock would.
    void showGap(std::size_t gap);
    /// Selects an event and brings its lane and time into view (`zoom`: fitted to it).
    void showTraceEvent(EventRef event, bool zoom);

    /// What is on screen: the trace as loaded (with the blocks and the comparison, if any) and its analysis over
    /// the chosen window.
    const timeline::LoadedTrace& loadedTrace() const { return m_loaded; }
    std::shared_ptr<const Trace> trace() const { return m_loaded.trace; }
    std::shared_ptr<const AnalysisResult> analysis() const { return m_analysis.result; }
    bool isLoading() const;

    timeline::TimelineView* timelineView() const { return m_view; }
    timeline::TimelineState* timelineState() const;
    WindowSelector* windowSelector() const { return m_windowSelector; }
    SearchBar* searchBar() const { return m_search; }
    /// The Gaps and Kernels docks.
    AnalysisDocks* analysisDocks() const { return m_analysisDocks; }
    DetailsPanel* details() const { return m_details; }
    SamplesDock* samplesDock() const { return m_samples; }
    /// The job of several ranks: Job overview, Ranks dock.
    JobSession* jobSession() const { return m_job; }
    /// The notes of the trace on screen: Annotations and Note docks, undo, explain a gap, export.
    AnnotationSession* annotations() const { return m_annotations; }
    /// File › Compare With…, the alignment and the Diff dock.
    ComparisonController* comparison() const { return m_comparison; }
    PartialLoadController* partialLoad() const { return m_partialLoad; }
    ImageExportController* imageExport() const { return m_imageExport; }
    RecordingOffer* recording() const { return m_recording; }
    /// Progress, figures, the banner of a file cut short and the error message of a failed load.
    LoadStatus* loadStatus() const { return m_loadStatus; }

signals:
    /// A load finished and its trace is on screen.
    void traceShown();
    /// The trace on screen went (a job's summaries replaced it): nothing is open to export or compare.
    void traceClosed();
    /// A load failed; the message names the file and the place.
    void loadFailed(const QString& message);
    /// The figures of a new window are shown.
    void analysisShown();

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void arrangeDocks();
    void fitDocksToWindow();
    void connectParts();
    void onLoadFinished(const LoadOutcome& outcome);
    void onLoadFailed(const QString& message);
    void onJobShown();
    void onSelectionChanged();
    void applyAnalysis(const timeline::AnalysisSnapshot& analysis);

    timeline::TimelineView* m_view;
    TraceLoader* m_loader;
    WindowSelector* m_windowSelector = nullptr;
    JobSession* m_job = nullptr;
    AnalysisDocks* m_analysisDocks = nullptr;
    ComparisonController* m_comparison = nullptr;
    DetailsPanel* m_details = nullptr;
    SamplesDock* m_samples = nullptr;
    AnnotationSession* m_annotations = nullptr;
    SearchBar* m_search = nullptr;
    PartialLoadController* m_partialLoad = nullptr;
    ImageExportController* m_imageExport = nullptr;
    RecordingOffer* m_recording = nullptr;
    LoadStatus* m_loadStatus = nullptr;
    timeline::LoadedTrace m_loaded;
    timeline::AnalysisSnapshot m_analysis;
};

} // namespace gapscope::app
