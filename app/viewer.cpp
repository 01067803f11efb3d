// SPDX-License-Identifier: MIT
#include "app/viewer.h"

#include "app/annotations/annotation_session.h"
#include "app/compare/comparison_controller.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "app/mainwindow/window_geometry.h"
#include "app/viewer_arguments.h"

#include <QApplication>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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

    const auto read = readViewerArguments(std::vector<std::string>(argv + 1, argv + argc));
    if (!read) {
        std::fputs(read.error().text.c_str(), read.error().exitCode == 0 ? stdout : stderr);
        return read.error().exitCode;
    }
    const ViewerArguments& arguments = read.value();
    const std::string_view demo = "demo";
    const std::string_view screenshot = "screenshot";
    const std::string_view longestGap = "select-longest-gap";
    const std::string_view explainGap = "explain-longest-gap";
    const std::string_view size = "size";
    const std::string_view compare = "compare";

    app::MainWindow window;
    if (arguments.isSet(size)) {
        const QStringList parts = QString::fromStdString(arguments.value(size)).split(QLatin1Char('x'));
        window.resize(parts[0].toInt(), parts[1].toInt()); // checked: WxH (checkWindowSize)
    }
    QStringList compareWith;
    for (const std::string& run : arguments.values(compare))
        compareWith << QString::fromStdString(run);
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
    if (arguments.isSet(screenshot))
        scheduleScreenshot(window, QString::fromStdString(arguments.value(screenshot)), arguments.isSet(longestGap),
            arguments.isSet(explainGap), !compareWith.isEmpty());
    else if (arguments.isSet(longestGap) || arguments.isSet(explainGap))
        QObject::connect(
            &window, &app::MainWindow::traceShown, &window, [&window, explain = arguments.isSet(explainGap)] {
                if (window.analysisDocks()->gapsDock()->model()->rowCount() == 0)
                    return;
                window.showGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
                if (explain)
                    window.annotations()->explainGap(window.analysisDocks()->gapsDock()->model()->gapAt(0));
            });
    if (arguments.isSet(size) || arguments.isSet(screenshot)) {
        window.show(); // the size asked for
    } else {
        QSettings settings;
        showWithRememberedGeometry(window, settings);
        QObject::connect(&application, &QApplication::aboutToQuit, &window, [&window] {
            QSettings settings;
            saveWindowGeometry(window, settings);
        });
    }
    QStringList files;
    for (const std::string& trace : arguments.traces)
        files << QString::fromStdString(trace);
    if (!files.isEmpty())
        window.openFiles(files);
    else if (arguments.isSet(demo))
        window.openDemo();
    else if (arguments.isSet(screenshot))
        QTimer::singleShot(300, &window, [&window, file = QString::fromStdString(arguments.value(screenshot))] {
            window.grab().save(file);
            QApplication::exit(0);
        });
    return QApplication::exec();
}

} // namespace gapscope
