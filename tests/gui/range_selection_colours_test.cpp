// SPDX-License-Identifier: MIT
// A Shift-dragged range keeps the colours inside it (the host-gap band stays orange, not the grey of an `unknown`
// one under a blue tint) and veils what lies outside it.
#include "app/mainwindow/main_window.h"
#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_palette.h"
#include "app/timeline/timeline_state.h"
#include "app/timeline/timeline_view.h"
#include "gui/main_window_test_support.h"
#include "test_paths.h"

#include <QApplication>
#include <QTest>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

TEST(RangeSelectionColours, InsideTheRangeAHostBandKeepsItsColourAndTheOutsideIsVeiled)
{
    app::MainWindow window;
    window.resize(1400, 900);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { test::dataFile(test::kResnet50Trace) }));
    // The longest gap of the demo run: 62.34 ms, host (the data loader), zoomed so that it fills the lanes' middle.
    const TimeNs gapStart = 1'623'142'624'177'570'000;
    const TimeNs gapEnd = 1'623'142'624'239'909'000;
    TimelineView* view = window.timelineView();
    view->zoomToRange(gapStart - 10'000'000, gapEnd + 10'000'000, 0.0);
    QApplication::processEvents();
    const QImage before = view->canvas()->grab().toImage();
    window.timelineState()->selectRange(TimeRange { gapStart + 15'000'000, gapEnd - 15'000'000 });
    QApplication::processEvents();
    const QImage after = view->canvas()->grab().toImage();
    ASSERT_EQ(before.size(), after.size());

    const TimelineScene scene = view->scene();
    const int left = scene.labelWidth + static_cast<int>(scene.axis.timeToX(gapStart + 15'000'000));
    const int right = scene.labelWidth + static_cast<int>(scene.axis.timeToX(gapEnd - 15'000'000));
    const int gapLeft = scene.labelWidth + static_cast<int>(scene.axis.timeToX(gapStart));
    const int gapRight = scene.labelWidth + static_cast<int>(scene.axis.timeToX(gapEnd));
    int inside = 0;
    int outside = 0;
    int edges = 0;
    for (const LayoutRow& row : view->layout().rows()) {
        if (row.kind != RowKind::StreamLane)
            continue;
        const int y = TimelinePainter::contentYToScreen(scene, row.y) + row.height / 2;
        if (y <= scene.rulerHeight || y >= scene.height)
            continue;
        const QColor band = before.pixelColor((left + right) / 2, y);
        if (band.red() - band.blue() < 50)
            continue; // not in the host band (another device's lane)
        for (int x = left - 1; x <= left + 1; ++x)
            edges += after.pixelColor(x, y) == rangeSelectionEdgeColor() ? 1 : 0;
        // Inside, away from the edge lines: the very pixels of before.
        for (int x = left + 3; x < right - 3; x += 5) {
            EXPECT_EQ(after.pixelColor(x, y), before.pixelColor(x, y)) << "x " << x << " y " << y;
            ++inside;
        }
        // Outside the range but in the gap: the same band, veiled, still more red than blue.
        for (int x = gapLeft + 3; x < left - 3; x += 5) {
            const QColor veiled = after.pixelColor(x, y);
            EXPECT_LT(veiled.lightness(), before.pixelColor(x, y).lightness()) << "x " << x << " y " << y;
            EXPECT_GT(veiled.red() - veiled.blue(), 40) << "x " << x << " " << veiled.name().toStdString();
            ++outside;
        }
        for (int x = right + 3; x < gapRight - 3; x += 5) {
            EXPECT_LT(after.pixelColor(x, y).lightness(), before.pixelColor(x, y).lightness()) << "x " << x;
            ++outside;
        }
    }
    EXPECT_GT(inside, 50);
    EXPECT_GT(outside, 50);
    EXPECT_GT(edges, 0) << "the range's left edge is drawn in its colour";
}
