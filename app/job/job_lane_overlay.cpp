// SPDX-License-Identifier: MIT
#include "app/job/job_lane_overlay.h"

#include <QEvent>
#include <QPainter>
#include <QScrollBar>

namespace gapscope::timeline {

namespace {

const QColor kSpread(20, 90, 200);

} // namespace

JobLaneOverlay::JobLaneOverlay(TimelineView* view)
    : QWidget(view->canvas())
    , m_view(view)
{
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setGeometry(view->canvas()->rect());
    view->canvas()->installEventFilter(this);
    connect(view->verticalScrollBar(), &QScrollBar::valueChanged, this, qOverload<>(&QWidget::update));
    hide();
}

void JobLaneOverlay::setSpread(std::optional<ArrivalSpread> spread)
{
    m_spread = std::move(spread);
    setVisible(m_spread.has_value());
    raise();
    update();
}

bool JobLaneOverlay::eventFilter(QObject* watched, QEvent* event)
{
    // The canvas repaints its children with it (zoom, pan); only its size is followed here.
    if (watched == m_view->canvas() && event->type() == QEvent::Resize)
        setGeometry(m_view->canvas()->rect());
    return QWidget::eventFilter(watched, event);
}

void JobLaneOverlay::paintEvent(QPaintEvent*)
{
    if (!m_spread)
        return;
    const TimelineScene scene = m_view->scene();
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
