// SPDX-License-Identifier: MIT
#include "app/viewer.h"

#include "app/annotations/annotation_session.h"
#include "app/compare/comparison_controller.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/window_geometry.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <memory>

namespace gapscope {

namespace {

// Debug aid: after the trace is shown (and optionally the longest gap selected), save a picture of
// the window and quit. Used to look at the viewer without a display (Xvfb or offscreen).
void scheduleScreenshot(
    app::MainWindow& window, const QString& file, bool selectLongestGap, bool explainLongestGap, bool comparing)
{
    QObject::connect(&window, &app::MainWindow::traceShown, &window,
        [&window, file, selectLongestGap, explainLongestGap, comparing] {
            // With --compare, the picture waits for the comparison (the second trace shown).
            if (comparing && !window.loadedTrace().comparison)
                return;
            if ((selectLongestGap || explainLongestGap) && window.analysisDocks()->gapsDock()->model()->rowCount() > 0)
                window.showGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
            if (explainLongestGap && window.analysisDocks()->gapsDock()->model()->rowCount() > 0)
                window.annotations()->explainGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
            QTimer::singleShot(300, &window, [&window, file] {
                const bool saved = window.grab().save(file);
                std::fprintf(saved ? stdout : stderr, "%s %s\n", saved ? "saved" : "could not save", qPrintable(file));
                QApplication::exit(saved ? 0 : 1);
            });
        });
    QObject::connect(&window, &app::MainWindow::loadFailed, &window, [&window, file] {
        QTimer::singleShot(300, &window, [&window, file] {
            window.grab().save(file);
            QApplication::exit(1);
        });
    });
}

} // namespace

int runViewer(int argc, char** argv)
{
    QApplication application(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("GapScope"));
    QApplication::setApplicationName(QStringLiteral("gapscope"));
    QApplication::setApplicationVersion(QStringLiteral(GAPSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("GapScope: GPU timeline viewer and idle-gap analysis"));
    parser.addHelpOption();
    parser.addVersionOption();
    for (const ViewerOption& declared : kViewerOptions) {
        QCommandLineOption option(QString::fromLatin1(declared.name), QString::fromUtf8(declared.help));
        if (declared.valueName)
            option.setValueName(QString::fromLatin1(declared.valueName));
        parser.addOption(option);
    }
    const QString demo = QStringLiteral("demo");
    const QString screenshot = QStringLiteral("screenshot");
    const QString longestGap = QStringLiteral("select-longest-gap");
    const QString explainGap = QStringLiteral("explain-longest-gap");
    const QString size = QStringLiteral("size");
    const QString compare = QStringLiteral("compare");
    parser.addPositionalArgument(
        QStringLiteral("trace"), QStringLiteral("Trace files (the ranks of one job)."), QStringLiteral("[TRACE...]"));
    parser.process(application);

    app::MainWindow window;
    if (parser.isSet(size)) {
        const QStringList parts = parser.value(size).split(QLatin1Char('x'));
        if (parts.size() == 2)
            window.resize(parts[0].toInt(), parts[1].toInt());
    }
    const QStringList compareWith = parser.values(compare);
    if (!compareWith.isEmpty()) {
        // Once BASE is on screen (its first showing only), NEW is loaded under it.
        auto started = std::make_shared<bool>(false);
        QObject::connect(&window, &app::MainWindow::traceShown, &window, [&window, compareWith, started] {
            if (*started)
                return;
            *started = true;
            window.comparison()->compareWith(compareWith);
        });
    }
    if (parser.isSet(screenshot))
        scheduleScreenshot(window, parser.value(screenshot), parser.isSet(longestGap), parser.isSet(explainGap),
            !compareWith.isEmpty());
    else if (parser.isSet(longestGap) || parser.isSet(explainGap))
        QObject::connect(&window, &app::MainWindow::traceShown, &window, [&window, explain = parser.isSet(explainGap)] {
            if (window.analysisDocks()->gapsDock()->model()->rowCount() == 0)
                return;
            window.showGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
            if (explain)
                window.annotations()->explainGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
        });
    if (parser.isSet(size) || parser.isSet(screenshot)) {
        window.show(); // the size asked for
    } else {
        QSettings settings;
        showWithRememberedGeometry(window, settings);
        QObject::connect(&application, &QApplication::aboutToQuit, &window, [&window] {
            QSettings settings;
            saveWindowGeometry(window, settings);
        });
    }
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty())
        window.openFiles(files);
    else if (parser.isSet(demo))
        window.openDemo();
    else if (parser.isSet(screenshot))
        QTimer::singleShot(300, &window, [&window, file = parser.value(screenshot)] {
            window.grab().save(file);
            QApplication::exit(0);
        });
    return QApplication::exec();
}

} // namespace gapscope
