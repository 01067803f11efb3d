// SPDX-License-Identifier: MIT
#include "app/mainwindow/main_window.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/compare/comparison_controller.h"
#include "app/critical_path/critical_path_session.h"
#include "app/export/image_export_controller.h"
#include "app/job/job_session.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/cut_short_banner.h"
#include "app/mainwindow/details_panel.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/load_status.h"
#include "app/mainwindow/main_menus.h"
#include "app/mainwindow/partial_load_controller.h"
#include "app/mainwindow/recent_files_menu.h"
#include "app/mainwindow/samples_dock.h"
#include "app/mainwindow/search_bar.h"
#include "app/mainwindow/trace_loader.h"
#include "app/mainwindow/window_selector.h"
#include "app/record/recording_offer.h"
#include "app/timeline/timeline_view.h"
#include "core/io/bundled_demo.h"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileInfo>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTimer>

namespace gapscope::app {

namespace {

// The most of the window's width (Details) or height (Gaps) a dock keeps when the window is resized.
constexpr double kMaxDockShare = 0.28;

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_view(new timeline::TimelineView(new timeline::TimelineState(this), this))
    , m_loader(new TraceLoader(this))
{
    setWindowTitle(tr("GapScope"));
    timeline::TimelineState* state = m_view->state();
    // The Job overview (several ranks) sits above the lanes, the banner of a file cut short above both.
    m_job = new JobSession(this, m_view, state);
    auto* cutShort = new CutShortBanner(this);
    setCentralWidget(cutShort->placeAbove(m_job->timelineArea()));
    setAcceptDrops(true);
    resize(1500, 900);
    // The widgets are made in the order of the focus chain, the docks in the order the View menu lists them.
    const auto options = [this] { return m_windowSelector->analysisOptions(); };
    m_analysisDocks = new AnalysisDocks(this, m_view);
    m_comparison = new ComparisonController(this, m_view, m_loader, options);
    m_details = new DetailsPanel(this, state, m_loader, options, m_analysisDocks->gapsDock());
    m_samples = new SamplesDock(this, state);
    m_annotations = new AnnotationSession(this, m_view, state, m_analysisDocks->gapsDock());
    arrangeDocks();
    // Owned by the window (a child), reached with findChild: it only listens to the window's signals.
    new CriticalPathSession(this, m_view, m_annotations);
    m_partialLoad = new PartialLoadController(this, state);
    m_imageExport = new ImageExportController(this, m_view, m_annotations, m_comparison->dock());
    m_recording = new RecordingOffer(this, [this] { return m_loaded.trace != nullptr; });
    const NavigationActions navigation = buildMainMenus(*this);
    m_windowSelector = new WindowSelector(this);
    buildNavigationToolBar(*this, navigation);
    m_search = new SearchBar(this);
    installSearchBar(this, m_search, m_view);
    m_loadStatus = new LoadStatus(this, m_loader, cutShort);
    connectParts();
    m_details->showSummary();
}

MainWindow::~MainWindow() = default;

timeline::TimelineState* MainWindow::timelineState() const
{
    return m_view->state();
}

bool MainWindow::isLoading() const
{
    return m_loader->isLoading();
}

QString MainWindow::demoTracePath()
{
    return QString::fromStdString(bundledDemoTrace());
}

void MainWindow::arrangeDocks()
{
    QDockWidget* gaps = m_analysisDocks->gapsDockWidget();
    QDockWidget* kernels = m_analysisDocks->kernelsDockWidget();
    QDockWidget* details = m_details->dockWidget();
    addDockWidget(Qt::BottomDockWidgetArea, gaps);
    addDockWidget(Qt::BottomDockWidgetArea, kernels);
    tabifyDockWidget(gaps, kernels);
    gaps->raise();
    addDockWidget(Qt::BottomDockWidgetArea, m_comparison->dockWidget());
    tabifyDockWidget(kernels, m_comparison->dockWidget());
    addDockWidget(Qt::RightDockWidgetArea, details);
    addDockWidget(Qt::BottomDockWidgetArea, m_samples->dockWidget());
    tabifyDockWidget(kernels, m_samples->dockWidget());
    addDockWidget(Qt::BottomDockWidgetArea, m_annotations->dockWidget());
    tabifyDockWidget(kernels, m_annotations->dockWidget());
    addDockWidget(Qt::RightDockWidgetArea, m_annotations->editorDockWidget());
    tabifyDockWidget(details, m_annotations->editorDockWidget());
    details->raise();
    gaps->raise();
    addDockWidget(Qt::BottomDockWidgetArea, m_job->ranksDockWidget());
    tabifyDockWidget(kernels, m_job->ranksDockWidget());
    gaps->raise();
    resizeDocks({ details }, { 430 }, Qt::Horizontal);
    resizeDocks({ gaps }, { 250 }, Qt::Vertical);
}

void MainWindow::connectParts()
{
    connect(m_job, &JobSession::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_job, &JobSession::failed, this, &MainWindow::onLoadFailed);
    connect(m_job, &JobSession::detailsChanged, m_details, &DetailsPanel::showHtml);
    connect(m_job, &JobSession::jobShown, this, &MainWindow::onJobShown);
    connect(m_analysisDocks, &AnalysisDocks::gapActivated, this, &MainWindow::showGap);
    connect(m_analysisDocks, &AnalysisDocks::kernelActivated, this, [this](EventRef k) { showTraceEvent(k, true); });
    connect(m_details, &DetailsPanel::eventLinkActivated, this, [this](EventRef e) { showTraceEvent(e, false); });
    connect(m_search, &SearchBar::found, this, [this](EventRef e) { showTraceEvent(e, true); });
    connect(m_comparison, &ComparisonController::loadStarted, this, [this](bool newRun) {
        if (newRun)
            m_partialLoad->comparisonRequested();
        m_loadStatus->setLoading(true);
    });
    connect(m_partialLoad, &PartialLoadController::openRequested, this,
        [this](const QStringList& files, const ReadFilter& filter) { openFiles(files, filter); });
    connect(m_recording, &RecordingOffer::openRequested, this, [this](const QStringList& files) { openFiles(files); });
    connect(m_recording, &RecordingOffer::addRequested, this, &MainWindow::addFiles);
    connect(m_windowSelector, &WindowSelector::windowChanged, this, [this] {
        // A comparison is aligned on counted steps, which the warm-up count moves: align it again (no re-read).
        if (!m_comparison->realign() && m_loaded.trace)
            m_loader->analyze(
                m_loaded.trace, m_loaded.laneSummaries, m_windowSelector->analysisOptions(), AnalysisPurpose::Main);
    });
    connect(m_loader, &TraceLoader::loadFinished, this, [this](quint64, auto outcome) { onLoadFinished(*outcome); });
    connect(
        m_loader, &TraceLoader::loadFailed, this, [this](quint64, const QString& message) { onLoadFailed(message); });
    connect(m_loader, &TraceLoader::analysisFinished, this,
        [this](quint64, AnalysisPurpose purpose, const timeline::AnalysisSnapshot& analysis) {
            // A range's figures go to Details (DetailsPanel).
            if (purpose == AnalysisPurpose::Main)
                applyAnalysis(analysis);
        });
    connect(m_view->state(), &timeline::TimelineState::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_view, &timeline::TimelineView::hoverMessage, this,
        [this](const QString& m) { statusBar()->showMessage(m, 4000); });
    connect(m_view, &timeline::TimelineView::rangeSelected, this,
        [this](timeline::TimeRange range) { m_windowSelector->setSelectedRange(range); });
}

quint64 MainWindow::openFiles(const QStringList& files, const ReadFilter& filter)
{
    if (JobSession::areSummaryFiles(files)) {
        m_job->openSummaries(files);
        return 0;
    }
    m_partialLoad->loadRequested(files, filter);
    m_loadStatus->setLoading(true);
    return m_loader->load(files, m_windowSelector->analysisOptions(), filter);
}

quint64 MainWindow::addFiles(const QStringList& files)
{
    QStringList all;
    for (const std::string& file : m_loaded.files)
        all << QString::fromStdString(file);
    for (const QString& file : files) {
        if (!all.contains(file))
            all << file;
    }
    return openFiles(all);
}

void MainWindow::openDemo()
{
    const QString demo = demoTracePath();
    if (demo.isEmpty()) {
        onLoadFailed(tr("The demo trace (%1) is not installed next to gapscope nor in the source tree.")
                         .arg(QLatin1String(kBundledDemoFile)));
        return;
    }
    openFiles({ demo });
}

void MainWindow::showGap(std::size_t gap)
{
    if (!m_analysis.result || gap >= m_analysis.result->gaps.size())
        return;
    const Gap& g = m_analysis.result->gaps[gap];
    m_view->state()->selectGap(gap);
    m_view->revealDevice(g.device);
    m_view->revealFlow();
    // Context on both sides: the gap takes two thirds of the view.
    m_view->zoomToRange(g.start, g.end, 0.25);
}

void MainWindow::showTraceEvent(EventRef event, bool zoom)
{
    if (!m_loaded.trace)
        return;
    timeline::TimelineState* state = m_view->state();
    state->selectEvent(event);
    m_view->revealLane(event.lane);
    const Event& e = m_loaded.trace->event(event);
    const auto [start, end] = state->visibleRange();
    if (zoom)
        m_view->zoomToRange(e.start, e.end, 1.0);
    else if (e.end < start || e.start > end)
        m_view->zoomToRange(e.start, e.end, static_cast<double>(end - start) / std::max<TimeNs>(1, 2 * e.duration()));
}

void MainWindow::onLoadFinished(const LoadOutcome& outcome)
{
    m_loadStatus->setLoading(false);
    // Analyses still running are of the previous trace: drop them, and forget its results before the
    // view's reset asks for details.
    m_loader->dropAnalyses();
    m_analysis = {};
    m_loaded = outcome.loaded;
    m_details->setTrace(m_loaded);
    m_samples->setTrace(m_loaded.trace);
    m_windowSelector->setSelectedRange(std::nullopt);
    m_view->setTrace(m_loaded);
    m_job->setTrace(m_loaded);
    m_partialLoad->setTrace(m_loaded);
    m_comparison->setTrace(m_loaded);
    m_annotations->setTrace(m_loaded);
    m_search->setTrace(m_loaded.trace);
    m_loadStatus->showCutShort(m_loaded.trace.get());
    m_imageExport->setTrace(m_loaded);
    applyAnalysis(outcome.analysis);
    for (const QString& file : m_partialLoad->requestedFiles())
        RecentFilesMenu::remember(file);
    QStringList names;
    for (const std::string& file : m_loaded.files)
        names << QFileInfo(QString::fromStdString(file)).fileName();
    if (const auto& compared = m_loaded.comparison) {
        QStringList fresh;
        for (const std::string& file : compared->newFiles)
            fresh << QFileInfo(QString::fromStdString(file)).fileName();
        names = QStringList { tr("%1 vs %2").arg(names.join(QStringLiteral(", ")), fresh.join(QStringLiteral(", "))) };
    }
    setWindowTitle(tr("%1 - GapScope").arg(names.join(QStringLiteral(", "))));
    m_view->setFocus(); // W/A/S/D work right away
    QString message = tr("Loaded %n event(s)", nullptr, static_cast<int>(m_loaded.trace->eventCount()));
    message += tr(" in %1 ms").arg(outcome.elapsedMs);
    if (m_loaded.trace->skippedEvents() > 0)
        message += tr("; %n event(s) skipped, see Details", nullptr, static_cast<int>(m_loaded.trace->skippedEvents()));
    else if (!outcome.warnings.isEmpty())
        message += tr("; %n import note(s), see Details", nullptr, static_cast<int>(outcome.warnings.size()));
    // The notes' sidecar could not be read, or they go elsewhere: say so where the eye goes after a load.
    if (const QString notes = m_annotations->controller()->lastProblem(); !notes.isEmpty())
        message += QStringLiteral("; ") + notes;
    else if (const auto count = m_annotations->controller()->annotations().size(); count > 0)
        message += tr("; %n note(s), see the Annotations dock", nullptr, static_cast<int>(count));
    statusBar()->showMessage(message, 10000);
    emit traceShown();
}

void MainWindow::onLoadFailed(const QString& message)
{
    QMessageBox* box = m_loadStatus->prepareError(message);
    m_partialLoad->offerAfterFailure(box, message);
    box->show();
    statusBar()->showMessage(message, 10000);
    emit loadFailed(message);
}

void MainWindow::onJobShown()
{
    // Summaries replace the trace on screen (the lanes are emptied already): its docks and figures go too.
    if (!m_job->job() || !m_job->job()->fromSummaries || !m_loaded.trace)
        return;
    m_loader->dropAnalyses();
    m_loaded = {};
    m_analysis = {};
    m_details->setTrace(m_loaded);
    m_samples->setTrace(nullptr);
    m_annotations->setTrace(m_loaded);
    m_search->setTrace(nullptr);
    m_loadStatus->showCutShort(nullptr);
    m_analysisDocks->setAnalysis(nullptr, {});
    m_comparison->clearTrace();
    m_partialLoad->clearTrace();
    m_imageExport->setTrace(m_loaded);
    m_imageExport->setAnalysis(m_analysis);
    m_loadStatus->showFigures(m_loaded, m_analysis);
    m_details->showSummary();
    setWindowTitle(tr("GapScope"));
    emit traceClosed();
}

void MainWindow::applyAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
    m_details->setAnalysis(m_analysis);
    // Gap indices refer to the previous result.
    if (m_view->state()->selectedGap())
        m_view->state()->clearSelection();
    m_view->setAnalysis(m_analysis);
    m_annotations->setAnalysis(m_analysis);
    m_analysisDocks->setAnalysis(m_loaded.trace, m_analysis);
    m_imageExport->setAnalysis(m_analysis);
    m_job->setAnalysis(m_analysis);
    m_loadStatus->showFigures(m_loaded, m_analysis);
    onSelectionChanged();
    emit analysisShown();
}

void MainWindow::onSelectionChanged()
{
    if (m_loaded.trace)
        m_analysisDocks->gapsDock()->showGap(m_view->state()->selectedGap());
    m_details->refresh();
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    // Notes a failed save kept in memory go to a recovery file, and the user is told where.
    m_annotations->aboutToClose();
    QMainWindow::closeEvent(event);
}

void MainWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // After the layout has placed the docks at the new size.
    QTimer::singleShot(0, this, &MainWindow::fitDocksToWindow);
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    QTimer::singleShot(0, this, &MainWindow::fitDocksToWindow);
}

void MainWindow::fitDocksToWindow()
{
    // The docks give way first: on a small window the timeline keeps most of the room.
    const int maxWidth = static_cast<int>(width() * kMaxDockShare);
    const int maxHeight = static_cast<int>(height() * kMaxDockShare);
    QDockWidget* details = m_details->dockWidget();
    QDockWidget* gaps = m_analysisDocks->gapsDockWidget();
    if (details->isVisible() && !details->isFloating() && details->width() > maxWidth)
        resizeDocks({ details }, { maxWidth }, Qt::Horizontal);
    if (gaps->isVisible() && !gaps->isFloating() && gaps->height() > maxHeight)
        resizeDocks({ gaps }, { maxHeight }, Qt::Vertical);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList files;
    for (const QUrl& url : event->mimeData()->urls()) {
        if (url.isLocalFile())
            files << url.toLocalFile();
    }
    if (files.isEmpty())
        return;
    event->acceptProposedAction();
    // Ctrl adds the dropped files to what is shown (more ranks); a plain drop replaces it.
    if (event->modifiers() & Qt::ControlModifier)
        addFiles(files);
    else
        openFiles(files);
}

} // namespace gapscope::app
