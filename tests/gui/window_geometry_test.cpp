// SPDX-License-Identifier: MIT
// The viewer opens maximized the first time (a 1920x1080 screen gets the whole screen, not 1140x680), then at the
// geometry the user left it at.
#include "app/mainwindow/window_geometry.h"
#include "tests/temp_dir.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>

#include <gtest/gtest.h>

using namespace gapscope;

TEST(WindowGeometry, MaximizedTheFirstTimeThenWhereTheUserLeftIt)
{
    test::TempDir dir;
    const QString file = QString::fromStdString(dir.file("settings.ini"));
    {
        QSettings settings(file, QSettings::IniFormat);
        QMainWindow window;
        app::showWithRememberedGeometry(window, settings);
        EXPECT_TRUE(window.isMaximized());
        window.showNormal();
        window.setGeometry(100, 120, 900, 640);
        app::saveWindowGeometry(window, settings);
    }
    QSettings settings(file, QSettings::IniFormat);
    QMainWindow window;
    app::showWithRememberedGeometry(window, settings);
    EXPECT_FALSE(window.isMaximized());
    EXPECT_EQ(window.geometry().size(), QSize(900, 640));
}
