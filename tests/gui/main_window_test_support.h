// SPDX-License-Identifier: MIT
#pragma once

// What the tests that drive a whole MainWindow share: the path of a test trace, and opening files and
// waiting until the window shows them.

#include "app/mainwindow/main_window.h"
#include "tests/test_paths.h"

#include <QSignalSpy>
#include <QString>
#include <QStringList>

namespace gapscope::test {

inline QString dataFile(const char* relative)
{
    return QString::fromStdString(dataPath(relative));
}

/// Opens the files and waits (at most a minute) for the window to show them; false when it did not.
inline bool openAndWait(app::MainWindow& window, const QStringList& files)
{
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.openFiles(files);
    return shown.wait(60'000);
}

} // namespace gapscope::test
