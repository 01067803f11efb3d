// SPDX-License-Identifier: MIT
#pragma once

// Drawn over the timeline's lanes (a transparent child of its canvas): the kernels of a selected collective on
// every rank, outlined, and its arrival spread as a bracket from the first arrival to the last, with dashed lines
// down the lanes at both ends. Reads the view's scene; changes nothing in the view.

#include "app/timeline/canvas_overlay.h"
#include "app/timeline/timeline_view.h"

namespace gapscope::timeline {

struct ArrivalSpread {
    std::vector<EventRef> kernels;
    TimeNs firstArrival = 0;
    TimeNs lastArrival = 0;
    QString label;
};

class JobLaneOverlay : public CanvasOverlay {
    Q_OBJECT
public:
    explicit JobLaneOverlay(TimelineView* view);

    void setSpread(std::optional<ArrivalSpread> spread);
    const std::optional<ArrivalSpread>& spread() const { return m_spread; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::optional<ArrivalSpread> m_spread;
};

} // namespace gapscope::timeline
