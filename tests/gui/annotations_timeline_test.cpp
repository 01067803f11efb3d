// SPDX-License-Identifier: MIT
// Notes on the timeline: a right click on a gap band explains it, its bracket sits over its range in
// the strip above the lanes, a click on the bracket selects the note, the tooltip names its hypothesis.
#include "annotations_test_support.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_editor.h"
#include "app/annotations/annotation_session.h"
#include "app/mainwindow/gaps_dock.h"
#include "app/timeline/annotation_layer.h"
#include "app/timeline/timeline_view.h"

#include <QAction>
#include <QApplication>
#include <QHelpEvent>
#include <QMenu>
#include <QTest>
#include <QTimer>
#include <QToolTip>

#include <cmath>

using namespace gapscope;
using namespace gapscope::test;
using namespace gapscope::timeline;

namespace {

/// Index into AnalysisResult::gaps of the demo's longest gap.
std::optional<std::size_t> longestGap(const app::MainWindow& window)
{
    const auto& gaps = window.analysis()->gaps;
    for (std::size_t i = 0; i < gaps.size(); ++i) {
        if (gaps[i].start == kDemoLongestGapStart && gaps[i].end == kDemoLongestGapEnd && !gaps[i].stream)
            return i;
    }
    return std::nullopt;
}

} // namespace

TEST(AnnotationsTimelineTest, RightClickOnAGapBandExplainsIt)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1600, 1000)));
    const auto gap = longestGap(window);
    ASSERT_TRUE(gap.has_value());
    window.showGap(*gap);
    TimelineView* view = window.timelineView();
    const auto band = view->gapBandRect(*gap);
    ASSERT_TRUE(band.has_value());

    // The menu a right click opens: run it, read its entries, choose "Explain This Gap…".
    QStringList entries;
    QStringList shares;
    QTimer::singleShot(0, &window, [&entries, &shares] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        ASSERT_NE(menu, nullptr);
        for (QAction* action : menu->actions()) {
            entries << action->text();
            for (const QAction* share : action->menu() ? action->menu()->actions() : QList<QAction*> {})
                shares << share->text();
        }
        menu->actions().first()->trigger();
        menu->close();
    });
    QTest::mouseClick(view->canvas(), Qt::RightButton, {}, band->center());
    // Then the critical path's what-if of the gap's cause (after a separator, whose text is empty), by how much.
    EXPECT_EQ(entries,
        (QStringList { QStringLiteral("Explain This Gap\u2026"), QString(),
            QStringLiteral("What if this gap's cause (enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__) "
                           "took less?") }));
    EXPECT_EQ(shares,
        (QStringList { QStringLiteral("25 % less"), QStringLiteral("50 % less"), QStringLiteral("75 % less"),
            QStringLiteral("Removed (no time at all)") }));
    app::AnnotationController* controller = window.annotations()->controller();
    ASSERT_EQ(controller->annotations().size(), 1u);
    EXPECT_EQ(controller->annotations()[0].start, kDemoLongestGapStart);
    EXPECT_EQ(controller->annotations()[0].gap->cause, "host");
    EXPECT_EQ(controller->selectedId().toStdString(), controller->annotations()[0].id);
    EXPECT_EQ(window.annotations()->editor()->annotationId(), controller->selectedId());

    // With a range selected, the menu offers to annotate it too.
    window.timelineState()->selectRange(std::make_pair(kDemoLongestGapStart, kDemoLongestGapStart + 1'000'000));
    QMenu* menu = window.annotations()->timelineMenu(view->gapBandRect(*gap)->center(), &window);
    QStringList texts;
    for (QAction* action : menu->actions())
        texts << action->text();
    EXPECT_EQ(texts,
        (QStringList { QStringLiteral("Explain This Gap\u2026"), QStringLiteral("Annotate Range (1.000 ms)\u2026") }));
    delete menu;
}

TEST(AnnotationsTimelineTest, TheBracketLiesOverTheRangeAndAClickSelectsItsNote)
{
    QTemporaryDir dir;
    const QString trace = copyDemoTrace(dir);
    ASSERT_FALSE(trace.isEmpty());
    app::MainWindow window;
    ASSERT_TRUE(showAndOpen(window, trace, QSize(1600, 1000)));
    const auto gap = longestGap(window);
    ASSERT_TRUE(gap.has_value());
    app::AnnotationSession* session = window.annotations();
    const QString id = session->explainGap(*gap);
    ASSERT_FALSE(id.isEmpty());

    TimelineView* view = window.timelineView();
    const TimelineScene scene = view->scene();
    ASSERT_EQ(scene.annotations.size(), 1u);
    EXPECT_EQ(scene.annotations[0].id, id);
    EXPECT_EQ(scene.annotations[0].start, kDemoLongestGapStart);
    EXPECT_EQ(scene.annotations[0].end, kDemoLongestGapEnd);
    EXPECT_EQ(
        scene.annotations[0].colour, QColor(QLatin1String(annotationStatusColour(AnnotationStatus::Open).data())));
    EXPECT_TRUE(scene.annotations[0].hypothesis.contains(QStringLiteral("starves the GPU")));
    // The strip pushes the lanes down: the gap band starts under it.
    const int strip = annotationStripHeight(scene);
    ASSERT_GT(strip, 0);
    EXPECT_GE(view->gapBandRect(*gap)->top(), scene.rulerHeight + strip);

    // Zoomed to the note with a tenth of context: the bracket spans the middle 10/12 of the lanes.
    const auto rects = annotationBracketRects(scene);
    ASSERT_EQ(rects.size(), 1u);
    ASSERT_TRUE(rects[0].has_value());
    const QRect bracket = *rects[0];
    EXPECT_NEAR(bracket.left() - scene.labelWidth, scene.axis.width / 12.0, 2.0);
    EXPECT_NEAR(bracket.right() - scene.labelWidth, scene.axis.width * 11.0 / 12.0, 2.0);
    EXPECT_GE(bracket.top(), scene.rulerHeight);
    EXPECT_LE(bracket.bottom(), scene.rulerHeight + strip);

    // A click on the bracket selects its note (after something else was chosen), without moving the view.
    session->controller()->select({});
    ASSERT_TRUE(session->editor()->annotationId().isEmpty());
    const auto visible = window.timelineState()->visibleRange();
    QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, bracket.center());
    EXPECT_EQ(session->controller()->selectedId(), id);
    EXPECT_EQ(session->editor()->annotationId(), id);
    EXPECT_EQ(window.timelineState()->visibleRange(), visible);
    EXPECT_TRUE(view->annotationMarks()[0].selected);

    // Its tooltip: title, hypothesis, range.
    QHelpEvent help(QEvent::ToolTip, bracket.center(), view->canvas()->mapToGlobal(bracket.center()));
    QApplication::sendEvent(view->canvas(), &help);
    const QString tip = QToolTip::text();
    EXPECT_TRUE(tip.startsWith(scene.annotations[0].title)) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("Hypothesis: CPU-side"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("62.34 ms"))) << tip.toStdString();
    QToolTip::hideText();

    // A click on the lanes still selects what is under it there (the band, now below the strip).
    QTest::mouseClick(view->canvas(), Qt::LeftButton, {}, view->gapBandRect(*gap)->center());
    EXPECT_EQ(window.timelineState()->selectedGap(), gap);
}
