// SPDX-License-Identifier: MIT
#pragma once

// A transparent layer over the timeline's canvas, for drawings that read the view's scene when they paint (axis,
// layout, scroll): it keeps the canvas's size and repaints with it (zoom, pan, vertical scroll); mouse events go
// through to the lanes. Subclasses paint; the view knows nothing of them.

#include <QWidget>

namespace gapscope::timeline {

class TimelineView;

class CanvasOverlay : public QWidget {
    Q_OBJECT
public:
    explicit CanvasOverlay(TimelineView* view);

protected:
    TimelineView* view() const { return m_view; }
    /// Shows the layer above the canvas's other children, or hides it.
    void showLayer(bool shown);
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    TimelineView* m_view;
};

} // namespace gapscope::timeline
