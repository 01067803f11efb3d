// SPDX-License-Identifier: MIT
// In a comparison the notes are BASE's: the guide lines of a note's range run down BASE's block only, never
// through NEW's block under it.
#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_session.h"
#include "app/compare/comparison_controller.h"
#include "app/mainwindow/main_window.h"
#include "app/timeline/annotation_layer.h"
#include "app/timeline/timeline_view.h"
#include "core/analysis/compared_traces.h"
#include "gui/main_window_test_support.h"
#include "tests/test_paths.h"

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

/// The screen rows [top, bottom) that the processes [first, end) take on the canvas, clipped to it.
std::pair<int, int> blockRows(const TimelineScene& scene, std::uint32_t first, std::uint32_t end)
{
    int top = scene.height;
    int bottom = 0;
    for (const LayoutRow& row : scene.layout->rows()) {
        if (row.process.value < first || row.process.value >= end)
            continue;
        top = std::min(top, TimelinePainter::contentYToScreen(scene, row.y));
        bottom = std::max(bottom, TimelinePainter::contentYToScreen(scene, row.y + row.height));
    }
    const QRect lanes = TimelinePainter::lanesRect(scene);
    return { std::max(top, lanes.top()), std::min(bottom, lanes.bottom() + 1) };
}

/// Whether the two pictures differ anywhere in column x between rows [top, bottom).
bool columnDiffers(const QImage& a, const QImage& b, int x, int top, int bottom)
{
    for (int y = top; y < bottom; ++y) {
        if (a.pixel(x, y) != b.pixel(x, y))
            return true;
    }
    return false;
}

Annotation noteOver(TimeNs start, TimeNs end, const char* title)
{
    Annotation note;
    note.start = start;
    note.end = end;
    note.title = title;
    return note;
}

} // namespace

TEST(CompareNoteGuides, ANoteOfBaseHasItsGuideLinesInBasesBlockOnly)
{
    // Copies: a note is saved next to BASE, never into tests/data.
    QTemporaryDir dir;
    const QString base = dir.filePath(QStringLiteral("base.pt.trace.json.gz"));
    const QString fresh = dir.filePath(QStringLiteral("new.pt.trace.json.gz"));
    ASSERT_TRUE(QFile::copy(test::dataFile(test::kResnet50Trace), base));
    ASSERT_TRUE(QFile::copy(test::dataFile(test::kResnet50Workers4Trace), fresh));

    app::MainWindow window;
    window.resize(1500, 1100);
    window.show();
    ASSERT_TRUE(test::openAndWait(window, { base }));
    QSignalSpy shown(&window, &app::MainWindow::traceShown);
    window.comparison()->compareWith({ fresh });
    ASSERT_TRUE(shown.wait(60'000));
    const auto compared = window.loadedTrace().comparison;
    ASSERT_NE(compared, nullptr);
    const std::uint32_t newFirst = compared->newFirstProcess;
    const std::uint32_t processCount = static_cast<std::uint32_t>(window.trace()->processes().size());

    TimelineView* view = window.timelineView();
    const TimeAxis axis = view->scene().axis;
    const TimeNs t0 = axis.start;
    const TimeNs span = axis.end - axis.start;
    app::AnnotationController* notes = window.annotations()->controller();
    // One note first, so that the strip of brackets is there in both pictures and the lanes do not move.
    ASSERT_FALSE(notes->create(noteOver(t0 + span / 10, t0 + span / 8, "first"), QStringLiteral("Add")).isEmpty());
    const QImage before = view->canvas()->grab().toImage();
    ASSERT_FALSE(notes->create(noteOver(t0 + span / 2, t0 + span * 6 / 10, "second"), QStringLiteral("Add")).isEmpty());
    const QImage after = view->canvas()->grab().toImage();
    ASSERT_EQ(before.size(), after.size());

    const TimelineScene scene = view->scene();
    ASSERT_EQ(scene.annotations.size(), 2u);
    const auto brackets = annotationBracketRects(scene);
    ASSERT_TRUE(brackets[1].has_value());
    const int guideX = brackets[1]->left();
    const auto [baseTop, baseBottom] = blockRows(scene, 0, newFirst);
    const auto [newTop, newBottom] = blockRows(scene, newFirst, processCount);
    ASSERT_GT(baseBottom - baseTop, 20);
    ASSERT_GT(newBottom - newTop, 20) << "NEW's block is not on screen";
    ASSERT_LE(baseBottom, newTop);

    // The second note's guide is drawn down BASE's block...
    EXPECT_TRUE(columnDiffers(before, after, guideX, baseTop, baseBottom));
    // ...and NEW's block is untouched in that column, as everywhere across the lanes.
    EXPECT_FALSE(columnDiffers(before, after, guideX, newTop, newBottom));
    EXPECT_FALSE(columnDiffers(before, after, brackets[1]->right(), newTop, newBottom));
    bool newBlockChanged = false;
    for (int x = scene.labelWidth; x < scene.width && !newBlockChanged; ++x)
        newBlockChanged = columnDiffers(before, after, x, newTop, newBottom);
    EXPECT_FALSE(newBlockChanged);
}
