// SPDX-License-Identifier: MIT
#include "app/mainwindow/main_menus.h"

#include "app/annotations/annotation_session.h"
#include "app/annotations/annotations_dock.h"
#include "app/compare/comparison_controller.h"
#include "app/export/image_export_controller.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/partial_load_controller.h"
#include "app/mainwindow/recent_files_menu.h"
#include "app/mainwindow/window_selector.h"
#include "app/record/recording_offer.h"
#include "app/timeline/timeline_view.h"

#include <QDockWidget>
#include <QFileDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>

#include <vector>

namespace gapscope::app {

namespace {

// What the viewer opens (core's loadTraceFile recognises each by its content; .nsys-rep through nsys).
const char* const kTraceFileFilter
    = "Traces (*.json *.json.gz *.gz *.gapscope *.sqlite *.nsys-rep *.qdrep);;All files (*)";

QStringList askForTraces(MainWindow& window, const QString& title)
{
    return QFileDialog::getOpenFileNames(&window, title, {}, MainWindow::tr(kTraceFileFilter));
}

/// A folder of repeated runs (`gapscope record --runs N -o DIR`, Record's Runs N); empty when none was chosen.
QString askForRunsFolder(MainWindow& window, const QString& title)
{
    return QFileDialog::getExistingDirectory(&window, title);
}

/// Actions that need a trace on screen (to export it, to compare it): greyed until one is shown.
void enableWithTrace(MainWindow& window, std::initializer_list<QAction*> actions)
{
    const auto update = [&window, list = std::vector<QAction*>(actions)] {
        for (QAction* action : list)
            action->setEnabled(window.trace() != nullptr);
    };
    update();
    QObject::connect(&window, &MainWindow::traceShown, &window, update);
    QObject::connect(&window, &MainWindow::traceClosed, &window, update);
}

/// Says what to do when there is no BASE to compare with; true when there is one.
bool hasBase(MainWindow& window)
{
    if (window.trace())
        return true;
    window.statusBar()->showMessage(
        MainWindow::tr("Open the BASE trace first (File \u203a Open), then compare it with NEW."), 8000);
    return false;
}

QAction* buildFileMenu(MainWindow& window)
{
    QMenu* file = window.menuBar()->addMenu(MainWindow::tr("&File"));
    QAction* open = file->addAction(MainWindow::tr("&Open..."), &window, [&window] {
        const QStringList files = askForTraces(window, MainWindow::tr("Open traces"));
        if (!files.isEmpty())
            window.openFiles(files);
    });
    open->setShortcut(QKeySequence::Open);
    file->addAction(MainWindow::tr("&Add Files to Timeline..."), &window, [&window] {
        const QStringList files = askForTraces(window, MainWindow::tr("Add traces (other ranks)"));
        if (!files.isEmpty())
            window.addFiles(files);
    });
    file->addAction(MainWindow::tr("Open R&uns Folder..."), &window, [&window] {
        const QString folder = askForRunsFolder(window, MainWindow::tr("Open a folder of repeated runs"));
        if (!folder.isEmpty())
            window.openFiles({ folder });
    });
    QAction* compare = file->addAction(MainWindow::tr("&Compare With..."), &window, [&window] {
        if (!hasBase(window))
            return;
        const QStringList files = askForTraces(window, MainWindow::tr("Compare with (NEW run)"));
        if (!files.isEmpty())
            window.comparison()->compareWith(files);
    });
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    compare->setToolTip(
        MainWindow::tr("Show another run (NEW) under this one (BASE), aligned on a step, with the diff"));
    QAction* compareRuns = file->addAction(MainWindow::tr("Compare With Runs &Folder..."), &window, [&window] {
        if (!hasBase(window))
            return;
        const QString folder
            = askForRunsFolder(window, MainWindow::tr("Compare with (NEW: a folder of repeated runs)"));
        if (!folder.isEmpty())
            window.comparison()->compareWith({ folder });
    });
    compareRuns->setToolTip(MainWindow::tr("NEW's median run under this one, with the verdict over all of its runs"));
    QAction* record = file->addAction(MainWindow::tr("&Record..."), window.recording(), &RecordingOffer::showDialog);
    record->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    auto* recent = new RecentFilesMenu(MainWindow::tr("Open &Recent"), file);
    file->addMenu(recent);
    QObject::connect(
        recent, &RecentFilesMenu::fileChosen, &window, [&window](const QString& path) { window.openFiles({ path }); });
    file->addAction(MainWindow::tr("Open &Demo Trace"), &window, &MainWindow::openDemo);
    window.partialLoad()->addActions(file);
    file->addSeparator();
    file->addAction(window.annotations()->saveNotesAsAction());
    file->addAction(window.annotations()->exportHypothesesAction());
    QAction* exportImage = file->addAction(
        MainWindow::tr("Export &Image..."), window.imageExport(), &ImageExportController::exportImage);
    enableWithTrace(window, { compare, compareRuns, exportImage });
    file->addSeparator();
    QAction* quit = file->addAction(MainWindow::tr("&Quit"), &window, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    return open;
}

void buildEditMenu(MainWindow& window)
{
    QMenu* edit = window.menuBar()->addMenu(MainWindow::tr("&Edit"));
    AnnotationSession* notes = window.annotations();
    edit->addAction(notes->undoAction());
    edit->addAction(notes->redoAction());
    edit->addSeparator();
    edit->addAction(notes->annotateSelectionAction());
    edit->addAction(notes->explainGapAction());
    edit->addAction(notes->dock()->deleteAction());
}

NavigationActions buildViewMenu(MainWindow& window)
{
    timeline::TimelineView* view = window.timelineView();
    timeline::TimelineState* state = window.timelineState();
    QMenu* menu = window.menuBar()->addMenu(MainWindow::tr("&View"));
    NavigationActions actions;
    actions.back = menu->addAction(MainWindow::tr("&Back"), state, &timeline::TimelineState::goBack);
    actions.back->setShortcuts({ QKeySequence::Back, QKeySequence(Qt::Key_Backspace) });
    actions.back->setEnabled(false);
    actions.forward = menu->addAction(MainWindow::tr("&Forward"), state, &timeline::TimelineState::goForward);
    actions.forward->setShortcuts({ QKeySequence::Forward, QKeySequence(Qt::SHIFT | Qt::Key_Backspace) });
    actions.forward->setEnabled(false);
    QObject::connect(state, &timeline::TimelineState::historyChanged, actions.back,
        [state, back = actions.back, forward = actions.forward] {
            back->setEnabled(state->canGoBack());
            forward->setEnabled(state->canGoForward());
        });
    actions.fit = menu->addAction(MainWindow::tr("&Fit Whole Trace"), view, &timeline::TimelineView::fitAll);
    actions.fit->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F));
    actions.fitWindow
        = menu->addAction(MainWindow::tr("Fit &Analysis Window"), view, &timeline::TimelineView::fitAnalysisWindow);
    actions.fitWindow->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    actions.fitWindow->setToolTip(
        MainWindow::tr("Zoom to the window the figures cover (the window selector's), Ctrl+Shift+F"));
    menu->addAction(MainWindow::tr("Fit &Selection (F)"), view, &timeline::TimelineView::fitSelection);
    QAction* legend = menu->addAction(MainWindow::tr("Gap &Legend"));
    legend->setCheckable(true);
    legend->setChecked(true);
    QObject::connect(legend, &QAction::toggled, window.analysisDocks()->gapsDock(), &GapsDock::setLegendVisible);
    menu->addSeparator();
    for (QDockWidget* dock : window.findChildren<QDockWidget*>())
        menu->addAction(dock->toggleViewAction());
    return actions;
}

void buildHelpMenu(MainWindow& window)
{
    QMenu* help = window.menuBar()->addMenu(MainWindow::tr("&Help"));
    help->addAction(MainWindow::tr("&Navigation"), &window, [&window] {
        QMessageBox::information(&window, MainWindow::tr("Navigation"),
            MainWindow::tr(
                "Wheel or Ctrl+wheel: zoom around the cursor\nShift+wheel, or wheel over the labels: scroll lanes\n"
                "Drag: pan\nShift+drag, right-drag or drag on the ruler: select a range (statistics in Details)\n"
                "W / S: zoom in / out, A / D: pan\nF or double-click: fit the selection or event; Shift+F: whole "
                "trace; Ctrl+Shift+F: the analysis window\n"
                "Alt+Left / Alt+Right: back / forward through zoom history\n"
                "Ctrl+F: find events by name (Enter: next, Shift+Enter: previous, Escape: back to the timeline)\n"
                "Click a group header to collapse or expand it, a deep thread's label to show all its levels."));
    });
}

} // namespace

NavigationActions buildMainMenus(MainWindow& window)
{
    QAction* open = buildFileMenu(window);
    buildEditMenu(window);
    NavigationActions actions = buildViewMenu(window);
    actions.open = open;
    buildHelpMenu(window);
    return actions;
}

void buildNavigationToolBar(MainWindow& window, const NavigationActions& actions)
{
    QToolBar* tools = window.addToolBar(MainWindow::tr("Navigation"));
    tools->setObjectName(QStringLiteral("navigationToolBar"));
    tools->addAction(actions.open);
    tools->addAction(actions.back);
    tools->addAction(actions.forward);
    tools->addAction(actions.fit);
    tools->addAction(actions.fitWindow);
    tools->addAction(window.annotations()->annotateSelectionAction());
    tools->addSeparator();
    tools->addWidget(window.windowSelector());
    tools->addSeparator();
    window.comparison()->addToToolBar(tools);
}

} // namespace gapscope::app
