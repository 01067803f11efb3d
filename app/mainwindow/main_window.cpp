// SPDX-License-Identifier: MIT
#include "app/mainwindow/main_window.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/compare/diff_dock.h"
#include "app/export/picture_export_job.h"
#include "app/job/job_session.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/kernels_dock.h"
#include "app/mainwindow/search_bar.h"
#include "app/mainwindow/window_selector.h"
#include "app/models/event_details.h"
#include "app/record/record_dialog.h"
#include "app/timeline/timeline_view.h"

#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStatusBar>
#include <QTextBrowser>
#include <QTimer>
#include <QToolBar>

namespace gapscope::app {

namespace {

constexpr int kMaxRecentFiles = 10;
// The most of the window's width (Details) or height (Gaps) a dock keeps when the window is resized.
constexpr double kMaxDockShare = 0.28;
const char* const kDemoFile = "resnet50_num_workers_0.pt.trace.json.gz";
// What the viewer opens (core's loadTraceFile recognises each by its content; .nsys-rep through nsys).
const char* const kTraceFileFilter
    = "Traces (*.json *.json.gz *.gz *.gapscope *.sqlite *.nsys-rep *.qdrep);;All files (*)";

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_state(new timeline::TimelineState(this))
    , m_view(new timeline::TimelineView(m_state, this))
    , m_loader(new TraceLoader(this))
{
    setWindowTitle(tr("GapScope"));
    // The Job overview (several ranks) sits above the lanes (app/job/job_session.h).
    m_job = new JobSession(this, m_view, m_state);
    setCentralWidget(m_job->timelineArea());
    connect(m_job, &JobSession::message, this, [this](const QString& m) { statusBar()->showMessage(m, 8000); });
    connect(m_job, &JobSession::failed, this, &MainWindow::onLoadFailed);
    connect(m_job, &JobSession::detailsChanged, this, [this](const QString& html) {
        m_details->setHtml(html);
        m_detailsDock->raise();
    });
    connect(m_job, &JobSession::jobShown, this, [this] {
        // Summaries replace the trace on screen (the lanes are emptied already): its docks and figures go too.
        if (!m_job->job() || !m_job->job()->fromSummaries || !m_loaded.trace)
            return;
        m_loader->dropAnalyses();
        m_loaded = {};
        m_analysis = {};
        m_rangeAnalysis = {};
        m_annotations->setTrace(m_loaded);
        m_search->setTrace(nullptr);
        m_gapsDock->setData(nullptr, {});
        m_kernelsDock->setResult(nullptr, nullptr);
        updateFigures();
        showSummary();
        setWindowTitle(tr("GapScope"));
    });
    setAcceptDrops(true);
    resize(1500, 900);
    createDocks();
    createActions();
    createStatusBar();

    connect(m_loader, &TraceLoader::loadProgress, this, [this](quint64, int percent, const QString& text) {
        m_progress->setRange(0, 100);
        m_progress->setValue(percent);
        m_progressLabel->setText(text);
    });
    connect(m_loader, &TraceLoader::loadFinished, this, [this](quint64, auto outcome) { onLoadFinished(outcome); });
    connect(
        m_loader, &TraceLoader::loadFailed, this, [this](quint64, const QString& message) { onLoadFailed(message); });
    connect(m_loader, &TraceLoader::loadCanceled, this, [this] {
        setLoadingUi(false);
        statusBar()->showMessage(tr("Loading canceled"), 5000);
    });
    connect(m_loader, &TraceLoader::analysisFinished, this,
        [this](
            quint64, AnalysisPurpose purpose, const timeline::AnalysisSnapshot& a) { onAnalysisFinished(purpose, a); });
    connect(m_state, &timeline::TimelineState::selectionChanged, this, &MainWindow::onSelectionChanged);
    connect(m_state, &timeline::TimelineState::historyChanged, this, [this] {
        m_backAction->setEnabled(m_state->canGoBack());
        m_forwardAction->setEnabled(m_state->canGoForward());
    });
    connect(m_view, &timeline::TimelineView::hoverMessage, this,
        [this](const QString& m) { statusBar()->showMessage(m, 4000); });
    connect(m_view, &timeline::TimelineView::rangeSelected, this,
        [this](timeline::TimeRange range) { m_windowSelector->setSelectedRange(range); });
    showSummary();
}

MainWindow::~MainWindow() = default;

QString MainWindow::demoTracePath()
{
    const QStringList candidates {
        QCoreApplication::applicationDirPath() + QStringLiteral("/../share/gapscope/demo/") + QLatin1String(kDemoFile),
#ifdef GAPSCOPE_SOURCE_RESOURCES_DIR
        QStringLiteral(GAPSCOPE_SOURCE_RESOURCES_DIR "/demo/") + QLatin1String(kDemoFile),
#endif
    };
    for (const QString& candidate : candidates) {
        if (QFileInfo::exists(candidate))
            return QDir::cleanPath(candidate);
    }
    return {};
}

void MainWindow::createDocks()
{
    m_gapsDock = new GapsDock(this);
    auto* gaps = new QDockWidget(tr("Gaps"), this);
    gaps->setObjectName(QStringLiteral("gapsDock"));
    gaps->setWidget(m_gapsDock);
    addDockWidget(Qt::BottomDockWidgetArea, gaps);

    m_kernelsDock = new KernelsDock(this);
    auto* kernels = new QDockWidget(tr("Kernels"), this);
    kernels->setObjectName(QStringLiteral("kernelsDock"));
    kernels->setWidget(m_kernelsDock);
    addDockWidget(Qt::BottomDockWidgetArea, kernels);
    tabifyDockWidget(gaps, kernels);
    gaps->raise();

    m_diffDock = new DiffDock(this);
    m_diffDockWidget = new QDockWidget(tr("Diff"), this);
    m_diffDockWidget->setObjectName(QStringLiteral("diffDock"));
    m_diffDockWidget->setWidget(m_diffDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_diffDockWidget);
    tabifyDockWidget(kernels, m_diffDockWidget);
    connect(m_diffDock, &DiffDock::kernelActivated, this, [this](const QString& name) { highlightKernel(name); });
    connect(m_diffDock, &DiffDock::deviceActivated, this, &MainWindow::selectComparedDevice);

    m_details = new QTextBrowser(this);
    m_details->setOpenLinks(false);
    auto* details = new QDockWidget(tr("Details"), this);
    details->setObjectName(QStringLiteral("detailsDock"));
    details->setWidget(m_details);
    addDockWidget(Qt::RightDockWidgetArea, details);
    m_annotations = new AnnotationSession(this, m_view, m_state, m_gapsDock);
    addDockWidget(Qt::BottomDockWidgetArea, m_annotations->dockWidget());
    tabifyDockWidget(kernels, m_annotations->dockWidget());
    addDockWidget(Qt::RightDockWidgetArea, m_annotations->editorDockWidget());
    tabifyDockWidget(details, m_annotations->editorDockWidget());
    details->raise();
    gaps->raise();
    addDockWidget(Qt::BottomDockWidgetArea, m_job->ranksDockWidget());
    tabifyDockWidget(kernels, m_job->ranksDockWidget());
    gaps->raise();
    m_detailsDock = details;
    m_gapsDockWidget = gaps;
    resizeDocks({ details }, { 430 }, Qt::Horizontal);
    resizeDocks({ gaps }, { 250 }, Qt::Vertical);

    connect(m_gapsDock, &GapsDock::gapActivated, this, &MainWindow::showGap);
    connect(m_gapsDock, &GapsDock::thresholdChanged, m_view, &timeline::TimelineView::setGapThreshold);
    m_view->setGapThreshold(m_gapsDock->threshold());
    connect(m_kernelsDock, &KernelsDock::kernelActivated, this, [this](const QString& name) {
        if (!m_loaded.trace)
            return;
        if (const auto longest = models::longestKernelNamed(*m_loaded.trace, name.toStdString()))
            showTraceEvent(*longest, true);
    });
    connect(m_details, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (!m_loaded.trace)
            return;
        if (const auto ref = models::eventFromLink(url.toString(), *m_loaded.trace))
            showTraceEvent(*ref, false);
    });
}

void MainWindow::createActions()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open..."), this, [this] {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open traces"), {}, tr(kTraceFileFilter));
        if (!files.isEmpty())
            openFiles(files);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("&Add Files to Timeline..."), this, [this] {
        const QStringList files
            = QFileDialog::getOpenFileNames(this, tr("Add traces (other ranks)"), {}, tr(kTraceFileFilter));
        if (!files.isEmpty())
            addFiles(files);
    });
    QAction* compare = file->addAction(tr("&Compare With..."), this, [this] {
        if (!m_loaded.trace) {
            statusBar()->showMessage(
                tr("Open the BASE trace first (File \u203a Open), then compare it with NEW."), 8000);
            return;
        }
        const QStringList files
            = QFileDialog::getOpenFileNames(this, tr("Compare with (NEW run)"), {}, tr(kTraceFileFilter));
        if (!files.isEmpty())
            compareWith(files);
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compare->setToolTip(tr("Show another run (NEW) under this one (BASE), aligned on a step, with the diff"));
    QAction* record = file->addAction(tr("&Record..."), this, &MainWindow::showRecordDialog);
    record->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    connect(m_recentMenu, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu);
    file->addAction(tr("Open &Demo Trace"), this, &MainWindow::openDemo);
    createPartialLoadActions(file);
    file->addSeparator();
    file->addAction(m_annotations->saveNotesAsAction());
    file->addAction(m_annotations->exportHypothesesAction());
    file->addAction(tr("Export &Image..."), this, &MainWindow::exportImage);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_annotations->undoAction());
    edit->addAction(m_annotations->redoAction());
    edit->addSeparator();
    edit->addAction(m_annotations->annotateSelectionAction());
    edit->addAction(m_annotations->explainGapAction());
    edit->addAction(m_annotations->dock()->deleteAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_backAction = view->addAction(tr("&Back"), m_state, &timeline::TimelineState::goBack);
    m_backAction->setShortcuts({ QKeySequence::Back, QKeySequence(Qt::Key_Backspace) });
    m_backAction->setEnabled(false);
    m_forwardAction = view->addAction(tr("&Forward"), m_state, &timeline::TimelineState::goForward);
    m_forwardAction->setShortcuts({ QKeySequence::Forward, QKeySequence(Qt::SHIFT | Qt::Key_Backspace) });
    m_forwardAction->setEnabled(false);
    QAction* fit = view->addAction(tr("&Fit Whole Trace"), m_view, &timeline::TimelineView::fitAll);
    fit->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F));
    QAction* fitWindow
        = view->addAction(tr("Fit &Analysis Window"), m_view, &timeline::TimelineView::fitAnalysisWindow);
    fitWindow->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    fitWindow->setToolTip(tr("Zoom to the window the figures cover (the window selector's), Ctrl+Shift+F"));
    view->addAction(tr("Fit &Selection (F)"), m_view, &timeline::TimelineView::fitSelection);
    QAction* legend = view->addAction(tr("Gap &Legend"));
    legend->setCheckable(true);
    legend->setChecked(true);
    connect(legend, &QAction::toggled, m_gapsDock, &GapsDock::setLegendVisible);
    view->addSeparator();
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        view->addAction(dock->toggleViewAction());

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Navigation"), this, [this] {
        QMessageBox::information(this, tr("Navigation"),
            tr("Wheel or Ctrl+wheel: zoom around the cursor\nShift+wheel, or wheel over the labels: scroll lanes\n"
               "Drag: pan\nShift+drag, right-drag or drag on the ruler: select a range (statistics in Details)\n"
               "W / S: zoom in / out, A / D: pan\nF or double-click: fit the selection or event; Shift+F: whole trace; "
               "Ctrl+Shift+F: the analysis window\n"
               "Alt+Left / Alt+Right: back / forward through zoom history\n"
               "Ctrl+F: find events by name (Enter: next, Shift+Enter: previous, Escape: back to the timeline)\n"
               "Click a group header to collapse or expand it, a deep thread's label to show all its levels."));
    });

    QToolBar* tools = addToolBar(tr("Navigation"));
    tools->setObjectName(QStringLiteral("navigationToolBar"));
    tools->addAction(open);
    tools->addAction(m_backAction);
    tools->addAction(m_forwardAction);
    tools->addAction(fit);
    tools->addAction(fitWindow);
    tools->addAction(m_annotations->annotateSelectionAction());
    tools->addSeparator();
    m_windowSelector = new WindowSelector(this);
    tools->addWidget(m_windowSelector);
    tools->addSeparator();
    m_alignStep = new QSpinBox(this);
    m_alignStep->setPrefix(tr("align on step "));
    m_alignStep->setSpecialValueText(tr("align on window start"));
    m_alignStep->setToolTip(tr("The counted step (warm-up excluded) at which the NEW block starts together with BASE"));
    m_alignAction = tools->addWidget(m_alignStep);
    m_alignAction->setVisible(false);
    connect(m_alignStep, &QSpinBox::valueChanged, this, [this](int value) {
        const auto* compared = m_loaded.comparison.get();
        const std::optional<std::size_t> step
            = value > 0 ? std::optional<std::size_t>(static_cast<std::size_t>(value - 1)) : std::nullopt;
        if (compared && step != compared->alignStep)
            alignComparisonOn(step);
    });
    m_search = new SearchBar(this);
    // In the menu bar's free right end: never folded into the toolbar's overflow menu on a narrow window.
    menuBar()->setCornerWidget(m_search, Qt::TopRightCorner);
    connect(m_windowSelector, &WindowSelector::windowChanged, this, [this] {
        // A comparison is aligned on counted steps, which the warm-up count moves: align it again (no re-read).
        if (m_loaded.comparison)
            alignComparisonOn(m_loaded.comparison->alignStep);
        else if (m_loaded.trace)
            m_loader->analyze(m_loaded.trace, m_loaded.laneSummaries, analysisOptions(), AnalysisPurpose::Main);
    });
    auto* find = new QAction(tr("Find"), this);
    find->setShortcut(QKeySequence::Find);
    connect(find, &QAction::triggered, this, [this] {
        m_search->field()->setFocus();
        m_search->field()->selectAll();
    });
    addAction(find);
    const auto findNext = [this] { m_search->findNext(m_state->selectedEvent(), m_state->visibleRange().first); };
    const auto findPrevious
        = [this] { m_search->findPrevious(m_state->selectedEvent(), m_state->visibleRange().second); };
    auto* next = new QAction(this);
    next->setShortcut(QKeySequence::FindNext);
    connect(next, &QAction::triggered, this, findNext);
    auto* previous = new QAction(this);
    previous->setShortcut(QKeySequence::FindPrevious);
    connect(previous, &QAction::triggered, this, findPrevious);
    addActions({ next, previous });
    connect(m_search, &SearchBar::nextRequested, this, findNext);
    connect(m_search, &SearchBar::previousRequested, this, findPrevious);
    connect(m_search, &SearchBar::found, this, [this](EventRef ref) { showTraceEvent(ref, true); });
    connect(m_search, &SearchBar::leaveRequested, m_view, [this] { m_view->setFocus(Qt::ShortcutFocusReason); });
    connect(m_search, &SearchBar::matchesChanged, m_view, [this] {
        const std::vector<bool>* names = m_search->matchingNames();
        m_view->setHighlightedNames(names ? *names : std::vector<bool> {});
    });
}

void MainWindow::createStatusBar()
{
    m_progressLabel = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(220);
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_cancel, &QPushButton::clicked, m_loader, &TraceLoader::cancelLoad);
    m_figures = new QLabel(this);
    statusBar()->addPermanentWidget(m_figures);
    statusBar()->addPermanentWidget(m_progressLabel);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    setLoadingUi(false);
}

void MainWindow::setLoadingUi(bool loading)
{
    m_progress->setVisible(loading);
    m_cancel->setVisible(loading);
    m_progressLabel->setVisible(loading);
    if (loading) {
        m_progress->setRange(0, 0);
        m_progressLabel->setText(tr("Loading..."));
    }
}

AnalysisOptions MainWindow::analysisOptions() const
{
    AnalysisOptions options;
    options.window = m_windowSelector->spec();
    // The Gaps dock lists device gaps; stream gaps cost about one entry per GPU op.
    options.streamGaps = false;
    return options;
}

quint64 MainWindow::openFiles(const QStringList& files, const ReadFilter& filter)
{
    if (JobSession::areSummaryFiles(files)) {
        m_job->openSummaries(files);
        return 0;
    }
    m_pendingFiles = files;
    m_pendingFilter = filter;
    setLoadingUi(true);
    return m_loader->load(files, analysisOptions(), filter);
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
                         .arg(QLatin1String(kDemoFile)));
        return;
    }
    openFiles({ demo });
}

RecordDialog* MainWindow::showRecordDialog()
{
    if (!m_recordDialog) {
        m_recordDialog = new RecordDialog(this);
        connect(m_recordDialog, &RecordDialog::recordingFinished, this, &MainWindow::offerRecording);
    }
    m_recordDialog->show();
    m_recordDialog->raise();
    m_recordDialog->activateWindow();
    return m_recordDialog;
}

void MainWindow::offerRecording(const QString& file)
{
    if (!m_loaded.trace) {
        openFiles({ file });
        return;
    }
    // A trace is open (and perhaps notes on it): the recording replaces it only if the user says so.
    if (!m_recordingBox) {
        m_recordingBox
            = new QMessageBox(QMessageBox::Question, tr("Open the recording"), {}, QMessageBox::NoButton, this);
        m_recordingBox->setModal(false);
        m_replaceButton = m_recordingBox->addButton(tr("Replace"), QMessageBox::AcceptRole);
        m_sideBySideButton = m_recordingBox->addButton(tr("Open Side by Side"), QMessageBox::ActionRole);
        m_recordingBox->addButton(tr("Keep the Current Trace"), QMessageBox::RejectRole);
        connect(m_recordingBox, &QMessageBox::buttonClicked, this, [this](QAbstractButton* button) {
            const QString recorded = m_recordingBox->property("recording").toString();
            if (button == m_replaceButton)
                openFiles({ recorded });
            else if (button == m_sideBySideButton)
                addFiles({ recorded });
            else
                statusBar()->showMessage(tr("The recording is in %1 (File › Open)").arg(recorded), 15000);
        });
    }
    m_recordingBox->setProperty("recording", file);
    m_recordingBox->setText(tr("The recording is done: %1").arg(QFileInfo(file).fileName()));
    m_recordingBox->setInformativeText(tr("Replace the trace shown now, open the recording beside it, or keep the "
                                          "current trace?"));
    m_recordingBox->show();
}

void MainWindow::onLoadFinished(std::shared_ptr<const LoadOutcome> outcome)
{
    setLoadingUi(false);
    // Analyses still running are of the previous trace: drop them, and forget its results before the
    // view's reset asks for details.
    m_loader->dropAnalyses();
    m_analysis = {};
    m_rangeAnalysis = {};
    m_loaded = outcome->loaded;
    m_windowSelector->setSelectedRange(std::nullopt);
    m_view->setTrace(m_loaded);
    m_job->setTrace(m_loaded);
    m_loadedFilter = m_loaded.comparison ? ReadFilter {} : m_pendingFilter;
    updatePartialLoadControls();
    updateComparisonControls();
    startDiff();
    if (m_loaded.comparison)
        m_diffDockWidget->raise();
    m_annotations->setTrace(m_loaded);
    m_search->setTrace(m_loaded.trace);
    applyAnalysis(outcome->analysis);
    for (const QString& file : m_pendingFiles)
        addRecentFile(file);
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
    message += tr(" in %1 ms").arg(outcome->elapsedMs);
    if (m_loaded.trace->skippedEvents() > 0)
        message += tr("; %n event(s) skipped, see Details", nullptr, static_cast<int>(m_loaded.trace->skippedEvents()));
    else if (!outcome->warnings.isEmpty())
        message += tr("; %n import note(s), see Details", nullptr, static_cast<int>(outcome->warnings.size()));
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
    setLoadingUi(false);
    m_lastError = message;
    if (!m_errorBox) {
        // Non-modal: the viewer stays usable (and tests are not blocked) while the message is up.
        m_errorBox = new QMessageBox(QMessageBox::Warning, tr("Could not open the trace"), {}, QMessageBox::Ok, this);
        m_errorBox->setModal(false);
    }
    m_errorBox->setText(tr("Could not open the trace."));
    m_errorBox->setInformativeText(message);
    offerPartialLoad(message);
    m_errorBox->show();
    statusBar()->showMessage(message, 10000);
    emit loadFailed(message);
}

void MainWindow::onAnalysisFinished(AnalysisPurpose purpose, const timeline::AnalysisSnapshot& analysis)
{
    if (purpose == AnalysisPurpose::Main) {
        applyAnalysis(analysis);
    } else {
        m_rangeAnalysis = analysis;
        onSelectionChanged();
    }
}

void MainWindow::applyAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
    // Gap indices refer to the previous result.
    if (m_state->selectedGap())
        m_state->clearSelection();
    m_view->setAnalysis(m_analysis);
    m_annotations->setAnalysis(m_analysis);
    m_gapsDock->setData(m_loaded.trace, m_analysis);
    m_kernelsDock->setResult(m_loaded.trace, m_analysis.result);
    m_job->setAnalysis(m_analysis);
    updateFigures();
    onSelectionChanged();
    emit analysisShown();
}

void MainWindow::updateFigures()
{
    if (!m_analysis.result || !m_loaded.trace) {
        m_figures->clear();
        return;
    }
    const AnalysisResult& result = *m_analysis.result;
    QStringList parts;
    const std::string_view kind = windowKindName(result.options.window.kind);
    parts << tr("window %1").arg(QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size())));
    for (const DeviceFigures& d : devicesInBlockOrder()) {
        // The same figure, to the same digits, as Details, the utilization lane and `gapscope report`.
        parts << tr("%1: %2 busy of %3 (%4 %)")
                     .arg(blockDeviceName(d), models::durationText(d.busyNs), models::durationText(d.spanNs))
                     .arg(100.0 * d.utilization, 0, 'f', 2);
        if (parts.size() > 4)
            break;
    }
    if (!result.hasGpuActivity)
        parts << tr("no GPU activity in this trace");
    m_figures->setText(parts.join(QStringLiteral(" \u00b7 ")));
}

void MainWindow::addRecentFile(const QString& file)
{
    QSettings settings;
    QStringList recent = settings.value(QStringLiteral("recentFiles")).toStringList();
    const QString path = QFileInfo(file).absoluteFilePath();
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecentFiles)
        recent.removeLast();
    settings.setValue(QStringLiteral("recentFiles"), recent);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = QSettings().value(QStringLiteral("recentFiles")).toStringList();
    for (const QString& file : recent)
        m_recentMenu->addAction(QFileInfo(file).fileName(), this, [this, file] { openFiles({ file }); })
            ->setToolTip(file);
    if (recent.isEmpty())
        m_recentMenu->addAction(tr("(none)"))->setEnabled(false);
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
    if (m_detailsDock && m_detailsDock->isVisible() && !m_detailsDock->isFloating()
        && m_detailsDock->width() > maxWidth)
        resizeDocks({ m_detailsDock }, { maxWidth }, Qt::Horizontal);
    if (m_gapsDockWidget && m_gapsDockWidget->isVisible() && !m_gapsDockWidget->isFloating()
        && m_gapsDockWidget->height() > maxHeight)
        resizeDocks({ m_gapsDockWidget }, { maxHeight }, Qt::Vertical);
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
