// SPDX-License-Identifier: MIT
// The ruler's tooltip gives the time under the pointer to the pixel, however far into the trace: zoomed to a few
// microseconds a second in, it reads "+1017.00… ms", not "+1.017 s".
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"
#include "test_paths.h"

#include <QApplication>
#include <QHelpEvent>
#include <QRegularExpression>
#include <QToolTip>

#include <gtest/gtest.h>

using namespace gapscope;

TEST(RulerTooltip, ZoomedToMicrosecondsTheTimeIsGivenToThePixel)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { test::dataFile(test::kResnet50Trace) }));
    timeline::TimelineView* view = window.timelineView();
    const TimeNs origin = window.timelineState()->bounds().first;
    // 2 µs across the lanes, 1.017 s into the trace: about 1.6 ns a pixel.
    view->zoomToRange(origin + 1'017'000'000, origin + 1'017'002'000, 0.0);
    QApplication::processEvents();
    const timeline::TimelineScene scene = view->scene();
    const QPoint pos(scene.labelWidth + scene.axis.width / 2, 5);
    const TimeNs t = scene.axis.xToTime(pos.x() - scene.labelWidth);
    QHelpEvent help(QEvent::ToolTip, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &help);
    const QString text = QToolTip::text();
    ASSERT_TRUE(text.contains(QStringLiteral("absolute %1 ns").arg(t))) << text.toStdString();
    const QRegularExpressionMatch m
        = QRegularExpression(QStringLiteral("^\\+(\\d+)\\.(\\d+) ms from the trace start")).match(text);
    ASSERT_TRUE(m.hasMatch()) << text.toStdString();
    // Whole ms and the decimals a 2 ns pixel needs (six: to the nanosecond).
    EXPECT_EQ(m.captured(1), QStringLiteral("1017"));
    ASSERT_EQ(m.captured(2).size(), 6) << text.toStdString();
    const TimeNs shown = 1'017'000'000 + m.captured(2).toLongLong();
    EXPECT_LE(std::abs(shown - (t - origin)), 1) << text.toStdString();
}

TEST(RulerTooltip, AStepOfTheStripGivesItsSpanItsCpuRangeAndTheRuleBetweenThem)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { test::dataFile(test::kResnet50Trace) }));
    timeline::TimelineView* view = window.timelineView();
    // ProfilerStep#6: the step lasts 175.2 ms (the TensorBoard plugin's 175153 µs), its CPU range 174.0 ms
    // (173992 µs, the range's `dur`): the step goes on to the end of the last GPU op the range launched.
    const Step* step = nullptr;
    for (const Step& s : window.analysis()->steps)
        step = s.name == "ProfilerStep#6" ? &s : step;
    ASSERT_NE(step, nullptr);
    view->zoomToRange(step->start, step->end, 0.1);
    QApplication::processEvents();
    const timeline::TimelineScene scene = view->scene();
    const int x = scene.labelWidth + static_cast<int>(scene.axis.timeToX((step->start + step->end) / 2));
    const QPoint pos(x, scene.rulerHeight - timeline::TimelinePainter::kStepStripHeight / 2);
    QHelpEvent help(QEvent::ToolTip, pos, view->viewport()->mapToGlobal(pos));
    QApplication::sendEvent(view->viewport(), &help);
    const QString text = QToolTip::text();
    EXPECT_TRUE(text.startsWith(QStringLiteral("ProfilerStep#6: "))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("(175.2 ms)\nIts CPU range: "))) << text.toStdString();
    EXPECT_TRUE(text.contains(QStringLiteral("(174.0 ms)\nA step runs from the end of the step before")))
        << text.toStdString();
}
