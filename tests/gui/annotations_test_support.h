// SPDX-License-Identifier: MIT
#pragma once

// Helpers of the annotations GUI tests: a temporary copy of the bundled demo trace (so that the
// repository never gets a sidecar), loading it into a main window, and reading a sidecar back.

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/mainwindow/analysis_docks.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/mainwindow/main_window.h"
#include "core/annotations/annotation_store.h"

#include <QAction>
#include <QFile>
#include <QSignalSpy>
#include <QSize>
#include <QString>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

namespace gapscope::test {

/// The longest device gap of the demo trace (ResNet-50, PyTorch profiler): 62.339 ms, host-bound
/// (the data loader), from ts 1623142624177.570 ms to 1623142624239.909 ms (main_window_test.cpp).
inline constexpr TimeNs kDemoLongestGapStart = 1'623'142'624'177'570'000;
inline constexpr TimeNs kDemoLongestGapEnd = 1'623'142'624'239'909'000;

/// XDG_DATA_HOME (where the user's notes folder is) for one test, the old value put back.
class ScopedDataHome {
public:
    explicit ScopedDataHome(const QString& folder)
        : m_had(qEnvironmentVariableIsSet("XDG_DATA_HOME"))
        , m_old(qgetenv("XDG_DATA_HOME"))
    {
        qputenv("XDG_DATA_HOME", folder.toLocal8Bit());
    }
    ~ScopedDataHome()
    {
        if (m_had)
            qputenv("XDG_DATA_HOME", m_old);
        else
            qunsetenv("XDG_DATA_HOME");
    }
    ScopedDataHome(const ScopedDataHome&) = delete;
    ScopedDataHome& operator=(const ScopedDataHome&) = delete;

private:
    bool m_had;
    QByteArray m_old;
};

/// Copies the demo trace into `dir`; returns the copy's path (empty on failure).
inline QString copyDemoTrace(const QTemporaryDir& dir)
{
    const QString demo = app::MainWindow::demoTracePath();
    if (demo.isEmpty())
        return {};
    const QString copy = dir.filePath(QStringLiteral("demo.pt.trace.json.gz"));
    return QFile::copy(demo, copy) ? copy : QString();
}

inline bool openAndWait(app::MainWindow& window, const QString& file)
{
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles({ file });
    return shown.wait(60'000);
}

/// Shows the window at `size` and loads `file` into it, as a user opening a trace does.
inline bool showAndOpen(app::MainWindow& window, const QString& file, QSize size)
{
    window.resize(size);
    window.show();
    return openAndWait(window, file);
}

/// The notes in a sidecar file, or a test failure when it cannot be read.
inline std::vector<Annotation> readNotes(const QString& path)
{
    auto document = AnnotationStore::readFile(path.toStdString());
    EXPECT_TRUE(document.ok()) << (document.ok() ? std::string() : document.error().toString());
    return document.ok() ? document.value().annotations : std::vector<Annotation> {};
}

inline QByteArray fileBytes(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

/// Explains the longest gap the way a user does: first row of the Gaps dock, then its Explain button.
inline QString explainLongestGapFromTheDock(app::MainWindow& window)
{
    QTableView* gaps = window.analysisDocks()->gapsDock()->table();
    EXPECT_GT(gaps->model()->rowCount(), 0);
    QTest::mouseClick(gaps->viewport(), Qt::LeftButton, {}, gaps->visualRect(gaps->model()->index(0, 0)).center());
    EXPECT_TRUE(window.analysisDocks()->gapsDock()->explainAction()->isEnabled());
    window.analysisDocks()->gapsDock()->explainAction()->trigger();
    return window.annotations()->controller()->selectedId();
}

} // namespace gapscope::test
