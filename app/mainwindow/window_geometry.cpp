// SPDX-License-Identifier: MIT
#include "app/mainwindow/window_geometry.h"

#include <QMainWindow>
#include <QSettings>

namespace gapscope::app {

namespace {

const char* const kGeometryKey = "mainWindow/geometry";

} // namespace

void showWithRememberedGeometry(QMainWindow& window, QSettings& settings)
{
    const QByteArray geometry = settings.value(QLatin1String(kGeometryKey)).toByteArray();
    if (geometry.isEmpty() || !window.restoreGeometry(geometry)) {
        window.showMaximized();
        return;
    }
    window.show();
}

void saveWindowGeometry(const QMainWindow& window, QSettings& settings)
{
    settings.setValue(QLatin1String(kGeometryKey), window.saveGeometry());
}

} // namespace gapscope::app
