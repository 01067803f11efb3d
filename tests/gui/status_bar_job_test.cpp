// SPDX-License-Identifier: MIT
// The status bar of a job of eight ranks: the permanent figures are one short line (the range of the GPUs'
// utilization), so that a message ("Collective nccl...: skew ...") has room beside them instead of under them.
#include "app/mainwindow/main_window.h"
#include "gui/main_window_test_support.h"

#include <QDir>
#include <QLabel>
#include <QStatusBar>

#include <gtest/gtest.h>

using namespace gapscope;

TEST(StatusBarJob, EightRanksGiveTheRangeOfUtilizationAndLeaveRoomForMessages)
{
    app::MainWindow window;
    window.resize(1400, 800);
    window.show();
    QStringList files;
    const QDir dir(test::dataFile("multirank/param_dlrm"));
    for (const QString& name : dir.entryList({ QStringLiteral("*.json.gz") }))
        files << dir.filePath(name);
    ASSERT_EQ(files.size(), 8);
    ASSERT_TRUE(test::openAndWait(window, files));
    ASSERT_TRUE(window.analysis());
    double low = 1.0;
    double high = 0.0;
    for (const DeviceFigures& d : window.analysis()->devices) {
        low = std::min(low, d.utilization);
        high = std::max(high, d.utilization);
    }
    const QString expected = QStringLiteral("window gpu \u00b7 8 GPUs: utilization %1 % to %2 % (each in Details)")
                                 .arg(100.0 * low, 0, 'f', 2)
                                 .arg(100.0 * high, 0, 'f', 2);
    const QLabel* figures = nullptr;
    for (const QLabel* label : window.statusBar()->findChildren<QLabel*>()) {
        if (label->text().startsWith(QStringLiteral("window ")))
            figures = label;
    }
    ASSERT_NE(figures, nullptr);
    EXPECT_EQ(figures->text(), expected);
    // The rank-by-rank figures of the docs: 24.25 % (rank 7, the straggler) to 65.72 % (rank 1).
    EXPECT_EQ(expected, QStringLiteral("window gpu \u00b7 8 GPUs: utilization 24.25 % to 65.72 % (each in Details)"));
    // Half the status bar at most: a message has the rest.
    EXPECT_LT(figures->width(), window.statusBar()->width() / 2);
}
