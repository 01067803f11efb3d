// SPDX-License-Identifier: MIT
#pragma once

// The critical path drawn over the timeline: an outline around each stretch of the path on its lane, and an arrow
// for each hand-over from one lane to the next (core/analysis/critical_path_outline.h), nothing else of the graph.
// A layer over the timeline's canvas (CanvasOverlay): zoom, pan and scrolling move it with the lanes.

#include "app/timeline/canvas_overlay.h"
#include "core/analysis/critical_path_outline.h"

#include <memory>
#include <optional>

namespace gapscope::timeline {
class TimelineView;
struct TimelineScene;
} // namespace gapscope::timeline

namespace gapscope::app {

class CriticalPathOverlay : public timeline::CanvasOverlay {
    Q_OBJECT
public:
    explicit CriticalPathOverlay(timeline::TimelineView* view);

    /// The outline to draw (null: none).
    void setOutline(std::shared_ptr<const PathOutline> outline);
    const PathOutline* outline() const { return m_outline.get(); }
    /// The colour of the outlines and arrows.
    static QColor pathColour();
    /// Where a stretch of the path is outlined (viewport coordinates): its op's depth row from its start to its end,
    /// at least 3 px wide; nullopt when the lane is not laid out.
    static std::optional<QRectF> stretchRect(const timeline::TimelineScene& scene, const PathOutlineSegment& segment);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const PathOutline> m_outline;
};

} // namespace gapscope::app
