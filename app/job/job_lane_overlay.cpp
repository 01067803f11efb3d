// SPDX-License-Identifier: MIT
#include "app/job/job_lane_overlay.h"

#include <QPainter>

namespace gapscope::timeline {

namespace {

const QColor kSpread(20, 90, 200);

} // namespace

JobLaneOverlay::JobLaneOverlay(TimelineView* view)
    : CanvasOverlay(view)
{ }

void JobLaneOverlay::setSpread(std::optional<ArrivalSpread> spread)
{
    m_spread = std::move(spread);
    showLayer(m_spread.has_value());
}

void JobLaneOverlay::paintEvent(QPaintEvent*)
{
    if (!m_spread)
        return;
    const TimelineScene scene = view()->scene();
    if (!scene.trace)
        return;
    QPainter painter(this);
    const QRect lanes = TimelinePainter::lanesRect(scene);
    painter.setClipRect(lanes);
    painter.setRenderHint(QPainter::Antialiasing, false);
    // The matched kernels, outlined.
    painter.setPen(QPen(kSpread, 2));
    painter.setBrush(Qt::NoBrush);
    for (const EventRef& kernel : m_spread->kernels) {
        if (const auto rect = TimelinePainter::eventRect(scene, kernel))
            painter.drawRect(rect->adjusted(-1, -1, 1, 1));
    }
    const double x0 = TimelinePainter::axisXToScreen(scene, scene.axis.timeToX(m_spread->firstArrival));
    const double x1
        = std::max(x0 + 1.0, TimelinePainter::axisXToScreen(scene, scene.axis.timeToX(m_spread->lastArrival)));
    // Dashed lines down the lanes at the first and the last arrival.
    painter.setPen(QPen(kSpread, 1, Qt::DashLine));
    painter.drawLine(QPointF(x0, lanes.top()), QPointF(x0, lanes.bottom()));
    painter.drawLine(QPointF(x1, lanes.top()), QPointF(x1, lanes.bottom()));
    // The bracket at the top of the lanes, with its label.
    const int y = lanes.top() + 4;
    painter.setPen(QPen(kSpread, 2));
    painter.drawLine(QPointF(x0, y), QPointF(x1, y));
    painter.drawLine(QPointF(x0, y), QPointF(x0, y + 8));
    painter.drawLine(QPointF(x1, y), QPointF(x1, y + 8));
    QFont font = painter.font();
    font.setPixelSize(11);
    font.setBold(true);
    painter.setFont(font);
    // Right of the bracket, or where it still fits inside the lanes.
    const double textWidth = painter.fontMetrics().horizontalAdvance(m_spread->label) + 8;
    const double left = std::max<double>(lanes.left() + 2, std::min<double>(x1 + 6, lanes.right() - textWidth));
    const QRectF text(left, y + 2, textWidth, 16);
    painter.fillRect(text, QColor(255, 255, 255, 225));
    painter.drawText(text.adjusted(4, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, m_spread->label);
}

} // namespace gapscope::timeline
