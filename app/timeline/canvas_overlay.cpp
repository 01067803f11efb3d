// SPDX-License-Identifier: MIT
#include "app/timeline/canvas_overlay.h"

#include "app/timeline/timeline_view.h"

#include <QEvent>
#include <QScrollBar>

namespace gapscope::timeline {

CanvasOverlay::CanvasOverlay(TimelineView* view)
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

void CanvasOverlay::showLayer(bool shown)
{
    setVisible(shown);
    raise();
    update();
}

bool CanvasOverlay::eventFilter(QObject* watched, QEvent* event)
{
    // The canvas repaints its children with it (zoom, pan); only its size is followed here.
    if (watched == m_view->canvas() && event->type() == QEvent::Resize)
        setGeometry(m_view->canvas()->rect());
    return QWidget::eventFilter(watched, event);
}

} // namespace gapscope::timeline
