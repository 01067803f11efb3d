// SPDX-License-Identifier: MIT
#include "app/critical_path/critical_path_overlay.h"

#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_view.h"

#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace gapscope::app {

CriticalPathOverlay::CriticalPathOverlay(timeline::TimelineView* view)
    : CanvasOverlay(view)
{ }

std::optional<QRectF> CriticalPathOverlay::stretchRect(
    const timeline::TimelineScene& scene, const PathOutlineSegment& s)
{
    using timeline::TimelinePainter;
    const Event& event = scene.trace->event(s.event);
    const auto top = scene.layout->laneDepthTop(s.event.lane, event.depth);
    if (!top)
        return std::nullopt;
    const double x0 = TimelinePainter::axisXToScreen(scene, scene.axis.timeToX(s.start));
    double x1 = TimelinePainter::axisXToScreen(scene, scene.axis.timeToX(s.end));
    x1 = std::max(x1, x0 + 3.0);
    const int y = TimelinePainter::contentYToScreen(scene, *top);
    return QRectF(x0, y + 1, x1 - x0, scene.layout->metrics().depthRowHeight - 2);
}

QColor CriticalPathOverlay::pathColour()
{
    return QColor(0xd6, 0x27, 0x28);
}

void CriticalPathOverlay::setOutline(std::shared_ptr<const PathOutline> outline)
{
    m_outline = std::move(outline);
    showLayer(m_outline != nullptr);
}

void CriticalPathOverlay::paintEvent(QPaintEvent*)
{
    if (!m_outline)
        return;
    const timeline::TimelineScene scene = view()->scene();
    if (!scene.trace || !scene.layout)
        return;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setClipRect(timeline::TimelinePainter::lanesRect(scene));
    // Consecutive stretches on one lane are one run of the path: one box around them (over the depth rows they
    // use), so that a run of many short kernels or nested host ops reads as one piece, and hand-overs join the boxes.
    const auto& segments = m_outline->segments;
    std::vector<std::optional<QRectF>> rects(segments.size());
    std::vector<QRectF> runs;
    const TimeNs t0 = scene.axis.start;
    const TimeNs t1 = scene.axis.end;
    std::optional<QRectF> run;
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const bool newRun = i == 0 || segments[i].event.lane != segments[i - 1].event.lane;
        if (newRun && run) {
            runs.push_back(*run);
            run.reset();
        }
        if (segments[i].end < t0 || segments[i].start > t1)
            continue;
        rects[i] = stretchRect(scene, segments[i]);
        if (rects[i])
            run = run ? run->united(*rects[i]) : *rects[i];
    }
    if (run)
        runs.push_back(*run);
    QColor fill = pathColour();
    fill.setAlpha(40);
    painter.setPen(QPen(pathColour(), 2.0));
    painter.setBrush(fill);
    for (const QRectF& r : runs)
        painter.drawRect(r);
    QPen arrow(pathColour(), 1.5);
    painter.setPen(arrow);
    for (const PathHandOver& h : m_outline->handOvers) {
        if (!rects[h.from] && !rects[h.to])
            continue;
        const auto from = rects[h.from] ? rects[h.from] : stretchRect(scene, segments[h.from]);
        const auto to = rects[h.to] ? rects[h.to] : stretchRect(scene, segments[h.to]);
        if (!from || !to)
            continue;
        const QPointF a(from->right(), from->center().y());
        const QPointF b(to->left(), to->center().y());
        painter.drawLine(a, b);
        // The head at the dependent end.
        const double angle = std::atan2(b.y() - a.y(), b.x() - a.x());
        const double size = 7.0;
        QPainterPath head;
        head.moveTo(b);
        head.lineTo(b - QPointF(size * std::cos(angle - 0.45), size * std::sin(angle - 0.45)));
        head.lineTo(b - QPointF(size * std::cos(angle + 0.45), size * std::sin(angle + 0.45)));
        head.closeSubpath();
        painter.fillPath(head, pathColour());
    }
}

} // namespace gapscope::app
