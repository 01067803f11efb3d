// SPDX-License-Identifier: MIT
#include "app/timeline/annotation_layer.h"
#include "app/timeline/timeline_palette.h"
#include "timeline/timeline_test_traces.h"

#include <QImage>
#include <QPainter>

#include <gtest/gtest.h>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// Axis [0, 1 ms) over 1000 px right of a 240 px label column: 1 µs per pixel, screen x = 240 + t/1000.
TimelineScene sceneWith(std::vector<AnnotationMark> marks)
{
    TimelineScene scene;
    scene.width = 1240;
    scene.height = 400;
    scene.labelWidth = 240;
    scene.rulerHeight = 34;
    scene.axis = TimeAxis { 0, 1'000'000, 1000.0 };
    scene.annotations = std::move(marks);
    return scene;
}

AnnotationMark mark(const char* id, TimeNs start, TimeNs end, QColor colour = QColor(0xe6, 0x9f, 0x00))
{
    AnnotationMark m;
    m.id = QString::fromLatin1(id);
    m.start = start;
    m.end = end;
    m.title = QStringLiteral("note %1").arg(m.id);
    m.hypothesis = QStringLiteral("the loader is slow because it decodes images on the main thread");
    m.colour = colour;
    return m;
}

} // namespace

TEST(AnnotationLayer, NoAnnotationsNoStrip)
{
    const TimelineScene scene = sceneWith({});
    EXPECT_EQ(annotationStripHeight(scene), 0);
    EXPECT_EQ(TimelinePainter::lanesRect(scene).top(), 34);
    EXPECT_TRUE(annotationBracketRects(scene).empty());
}

TEST(AnnotationLayer, OverlappingNotesStackAndTouchingOnesShareARow)
{
    // a [100, 300) µs; b [200, 400) overlaps a; c [300, 500) starts where a ends (half-open): a's row;
    // d [2, 3) ms is out of view but still takes its row (rows do not depend on the view).
    const TimelineScene scene = sceneWith({ mark("a", 100'000, 300'000), mark("b", 200'000, 400'000),
        mark("c", 300'000, 500'000), mark("d", 2'000'000, 3'000'000) });
    EXPECT_EQ(annotationRows(scene), (std::vector<int> { 0, 1, 0, 0 }));
    EXPECT_EQ(annotationStripHeight(scene), 2 * kAnnotationRowHeight + 3);

    const auto rects = annotationBracketRects(scene);
    ASSERT_EQ(rects.size(), 4u);
    ASSERT_TRUE(rects[0] && rects[1] && rects[2]);
    EXPECT_EQ(*rects[0], QRect(340, 35, 200, kAnnotationRowHeight - 2));
    EXPECT_EQ(*rects[1], QRect(440, 35 + kAnnotationRowHeight, 200, kAnnotationRowHeight - 2));
    EXPECT_EQ(*rects[2], QRect(540, 35, 200, kAnnotationRowHeight - 2));
    EXPECT_FALSE(rects[3]);
}

TEST(AnnotationLayer, ClippedToTheViewAndShortNotesStayClickable)
{
    // Starts before the view: clipped at the lanes' left edge. A zero-length note: 4 px around its time.
    const TimelineScene scene = sceneWith(
        { mark("early", -500'000, 50'000), mark("instant", 600'000, 600'000), mark("after", 1'000'000, 1'200'000) });
    const auto rects = annotationBracketRects(scene);
    ASSERT_TRUE(rects[0] && rects[1]);
    EXPECT_EQ(rects[0]->left(), 240);
    EXPECT_EQ(rects[0]->right(), 289); // columns [240, 290)
    EXPECT_EQ(rects[1]->width(), 4);
    EXPECT_LE(rects[1]->left(), 840);
    EXPECT_GE(rects[1]->right(), 840);
    EXPECT_FALSE(rects[2]); // starts at the view's end
}

TEST(AnnotationLayer, LanesMoveDownByTheStrip)
{
    const TimelineScene scene = sceneWith({ mark("a", 100'000, 300'000), mark("b", 200'000, 400'000) });
    const int strip = 2 * kAnnotationRowHeight + 3;
    EXPECT_EQ(TimelinePainter::lanesTop(scene), 34 + strip);
    EXPECT_EQ(TimelinePainter::lanesRect(scene), QRect(240, 34 + strip, 1000, 400 - 34 - strip));
    EXPECT_EQ(TimelinePainter::contentYToScreen(scene, 0), 34 + strip);
    EXPECT_EQ(TimelinePainter::screenYToContent(scene, 34 + strip + 25), 25);
}

TEST(AnnotationLayer, PaintsBracketsAboveTheLanesAndEventsWhereHitTestingPutsThem)
{
    // makeSmallTrace(): k1 [2000, 3000) on stream 7 (lane 1); a note over [4000, 6000) away from it.
    const Trace trace = test::makeSmallTrace();
    const TimelineIndex index = TimelineIndex::build(trace);
    std::vector<int> depths(trace.lanes().size());
    for (std::uint32_t l = 0; l < depths.size(); ++l)
        depths[l] = index.depthCount(LaneIndex { l });
    const LaneLayout layout = LaneLayout::build(trace, depths, {});
    const QColor supported(0x00, 0x9e, 0x73);
    TimelineScene scene = sceneWith({ mark("n", 4000, 6000, supported) });
    scene.trace = &trace;
    scene.index = &index;
    scene.layout = &layout;
    scene.axis = TimeAxis { 0, 10'000, 1000.0 }; // 10 ns per pixel

    QImage image(scene.width, scene.height, QImage::Format_RGB32);
    QPainter painter(&image);
    DrawListCache cache;
    cache.setAxis(scene.axis);
    TimelinePainter().paint(painter, scene, cache);
    painter.end();

    // The bracket's line (3 px above its bottom) in the status colour, at the middle of [4000, 6000).
    const QRect bracket = *annotationBracketRects(scene)[0];
    EXPECT_EQ(bracket.left(), 240 + 400);
    EXPECT_EQ(image.pixelColor(240 + 500, bracket.bottom() - 3), supported);
    EXPECT_NE(image.pixelColor(240 + 500, bracket.bottom()), supported);
    // The end ticks go down from the line to the bracket's bottom.
    EXPECT_EQ(image.pixelColor(bracket.left(), bracket.bottom()), supported);
    EXPECT_EQ(image.pixelColor(bracket.right(), bracket.bottom()), supported);

    // k1 is drawn at the rectangle eventRect() gives (which hit testing and the view use), below the strip.
    const auto k1 = TimelinePainter::eventRect(scene, EventRef { LaneIndex { 1 }, 0 });
    ASSERT_TRUE(k1);
    EXPECT_GE(k1->top(), TimelinePainter::lanesTop(scene));
    EXPECT_EQ(image.pixelColor(k1->center()), eventColor(trace.lanes()[1].events[0]));
    // Just above k1's row, in the lane spacing of the row above, is not k1's colour.
    EXPECT_NE(image.pixelColor(k1->center().x(), k1->top() - 2), eventColor(trace.lanes()[1].events[0]));

    // Over the lanes the note's range is not tinted (a gap band under it keeps its cause's colour, as in
    // the legend); its edges are thin lines in its colour (x off the ruler's major ticks, every 100 px here,
    // whose faint grid lines cross the lanes).
    const int y = TimelinePainter::contentYToScreen(scene, layout.totalHeight()) + 10;
    ASSERT_LT(y, scene.height);
    EXPECT_EQ(image.pixelColor(240 + 350, y), laneBackground(false));
    EXPECT_EQ(image.pixelColor(240 + 450, y), laneBackground(false));
    QColor edge = supported;
    edge.setAlpha(130);
    const QColor expected = blendOver(laneBackground(false), edge);
    // The right edge (the left one, at x 400, is also a major tick's grid line).
    const QColor edgePixel = image.pixelColor(bracket.right(), y);
    EXPECT_NEAR(edgePixel.red(), expected.red(), 2);
    EXPECT_NEAR(edgePixel.green(), expected.green(), 2);
    EXPECT_NEAR(edgePixel.blue(), expected.blue(), 2);
}

TEST(AnnotationLayer, CalloutsSitBesideTheirRangeWithoutOverlapping)
{
    TimelineScene scene
        = sceneWith({ mark("a", 100'000, 300'000), mark("b", 200'000, 400'000), mark("far", 5'000'000, 6'000'000) });
    const QFont font;
    EXPECT_TRUE(annotationCalloutRects(scene, font)[0] == std::nullopt); // callouts are off
    scene.annotationCallouts = true;
    const auto boxes = annotationCalloutRects(scene, font);
    const auto brackets = annotationBracketRects(scene);
    ASSERT_TRUE(boxes[0] && boxes[1]);
    EXPECT_FALSE(boxes[2]); // out of view
    // Right of the range, 16 px after its end, over the lanes.
    EXPECT_EQ(boxes[0]->left(), brackets[0]->right() + 1 + 16);
    EXPECT_EQ(boxes[1]->left(), brackets[1]->right() + 1 + 16);
    EXPECT_GE(boxes[0]->top(), TimelinePainter::lanesTop(scene));
    EXPECT_FALSE(boxes[0]->intersects(*boxes[1]));
    EXPECT_GT(boxes[1]->top(), boxes[0]->bottom());
}
