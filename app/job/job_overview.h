// SPDX-License-Identifier: MIT
#pragma once

// The Job overview widget above the lanes: paints a JobOverviewScene on the timeline's time axis (the state's
// visible range over the lanes' width, aligned with the lanes' time area), zooms and pans that axis with the wheel
// and drags, and turns clicks into a rank row or a collective marker. Its heatmap is computed elsewhere (off the
// GUI thread) and handed in; until the new one comes, the previous one is drawn where its range falls.

#include "app/job/job_overview_painter.h"
#include "app/timeline/timeline_state.h"

#include <QWidget>

#include <memory>

namespace gapscope::timeline {

class JobOverview : public QWidget {
    Q_OBJECT
public:
    /// `lanes` is the timeline's canvas: the time area starts `labelWidth` pixels into it.
    JobOverview(TimelineState* state, QWidget* lanes, int labelWidth, QWidget* parent = nullptr);

    /// The timeline's label column was resized: the time area starts `labelWidth` pixels into the canvas.
    void setLabelWidth(int labelWidth)
    {
        m_labelWidth = labelWidth;
        update();
    }
    void setJob(std::shared_ptr<const JobData> job);
    const std::shared_ptr<const JobData>& job() const { return m_job; }
    void setHeatmap(std::shared_ptr<const JobHeatmap> heatmap);
    const std::shared_ptr<const JobHeatmap>& heatmap() const { return m_heatmap; }
    void setSelectedCollective(std::optional<std::size_t> collective);
    std::optional<std::size_t> selectedCollective() const { return m_selected; }

    /// The frame as it would be painted now.
    JobOverviewScene scene() const;
    /// The time axis of the heatmap area, and the number of bins a heatmap for it should have.
    TimeAxis axis() const;
    int timeLeft() const;
    /// Widget coordinates of a rank row's centre and of a collective's marker (for tests and clicks).
    QPoint rowCentre(std::size_t row) const;
    std::optional<QPoint> markerPoint(std::size_t collective) const;

signals:
    void rankClicked(std::size_t row);
    void collectiveClicked(std::size_t collective);
    /// The axis or the width changed: a heatmap for axis() is wanted.
    void heatmapWanted();

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    NavigationLimits limits() const;

    TimelineState* m_state;
    QWidget* m_lanes;
    int m_labelWidth;
    std::shared_ptr<const JobData> m_job;
    std::shared_ptr<const JobHeatmap> m_heatmap;
    std::optional<std::size_t> m_selected;
    JobOverviewPainter m_painter;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_dragging = false;
};

} // namespace gapscope::timeline
