// SPDX-License-Identifier: MIT
#pragma once

// The timeline widget: paints cached draw lists through TimelinePainter and turns mouse and keyboard
// input into zoom, pan and selection on a TimelineState. Knows nothing about loading or docks.

#include "app/timeline/timeline_data.h"
#include "app/timeline/timeline_painter.h"
#include "app/timeline/timeline_state.h"

#include <QAbstractScrollArea>

namespace gapscope::timeline {

class TimelineView : public QAbstractScrollArea {
    Q_OBJECT
public:
    explicit TimelineView(TimelineState* state, QWidget* parent = nullptr);
    /// The zoom, selection and history this view shows and changes.
    TimelineState* state() const { return m_state; }

    /// Shows a new trace: the whole trace is visible, groups expanded.
    void setTrace(const LoadedTrace& loaded);
    /// Gap bands, step markers and the window line come from the analysis.
    void setAnalysis(const AnalysisSnapshot& analysis);
    void setGapThreshold(TimeNs threshold);
    TimeNs gapThreshold() const { return m_gapThreshold; }
    /// Outlines the events whose name is marked (by StringId): the search's matches. Empty: none.
    void setHighlightedNames(std::vector<bool> names);
    /// Draws every gap band of the marked devices (by DeviceIndex) as selected. Empty: none.
    void setSelectedDevices(std::vector<bool> devices);
    const std::vector<bool>& selectedDevices() const { return m_selectedDevices; }
    const std::vector<bool>& highlightedNames() const { return m_highlightNames; }
    /// The notes drawn as brackets above the lanes (TimelineScene::annotations).
    void setAnnotationMarks(std::vector<AnnotationMark> marks);
    const std::vector<AnnotationMark>& annotationMarks() const { return m_annotationMarks; }

    /// Zooms to [t0, t1) with `contextFraction` of its length on each side (history: a jump).
    void zoomToRange(TimeNs t0, TimeNs t1, double contextFraction);
    void fitAll();
    /// Fits the analysis window (the window selector's: first to last GPU activity, the steps...).
    void fitAnalysisWindow();
    /// Fits the selection (event, gap or range) or, without one, the whole trace.
    void fitSelection();
    /// Scrolls vertically so that the lane (or the device's lanes) is in view.
    void revealLane(LaneIndex lane);
    void revealDevice(DeviceIndex device);
    /// Scrolls so that both ends of the selection's flow arrow are in view, when they fit together.
    void revealFlow();
    /// Folds or unfolds a group or a deep thread lane, as a click on its label does.
    void toggleRow(const LayoutRow& row);
    void zoomBy(double factor);
    void panByFraction(double fraction);

    /// The frame as it would be painted now (for tests and the screenshot option).
    TimelineScene scene() const;
    const LaneLayout& layout() const { return m_layout; }
    /// Screen rectangle (viewport coordinates) of a gap's band, if it is laid out and in view.
    std::optional<QRect> gapBandRect(std::size_t gap) const;
    QWidget* canvas() const { return viewport(); }
    /// The gap (index into AnalysisResult::gaps) whose band is under a viewport point, if any.
    std::optional<std::size_t> gapAtPoint(const QPoint& viewportPos) const { return gapAt(viewportPos); }
    /// The lane (thread or stream) at a viewport point; none over headers, utilization rows and the ruler.
    std::optional<LaneIndex> laneAtPoint(const QPoint& viewportPos) const;
    static constexpr int kDefaultLabelWidth = 240;
    /// Width of the label column; the user widens or narrows it by dragging its border.
    int labelWidth() const { return m_labelWidth; }
    /// Sets the label column's width, kept between a minimum and what leaves the lanes a minimum.
    void setLabelWidth(int width);

signals:
    /// The label column was widened or narrowed (the time area moved: the job overview above follows).
    void labelWidthChanged(int width);
    /// A rubber-band range selection finished.
    void rangeSelected(gapscope::timeline::TimeRange range);
    /// One line for the status bar about what is under the mouse.
    void hoverMessage(const QString& message);
    /// A click on a note's bracket (AnnotationMark::id).
    void annotationClicked(const QString& id);
    /// A right click (no drag) at a viewport point: the window shows its context menu there.
    void contextMenuRequested(const QPoint& viewportPos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    bool viewportEvent(QEvent* event) override;

private:
    enum class Drag { None, Pan, Range, LabelBorder };

    TimeAxis axis() const;
    NavigationLimits limits() const;
    void setAxis(const TimeAxis& axis, TimelineState::History history);
    void rebuildLayout();
    void updateScrollBar();
    /// Opens the group and unfolds the lane of an event so that it is laid out; true when it changed.
    bool unfoldFor(EventRef ref);
    void unfoldSelection();
    std::optional<EventRef> eventAt(const QPoint& pos) const;
    std::optional<std::size_t> gapAt(const QPoint& pos) const;
    /// The values of a counter lane, or the CPU samples of a thread lane's sample strip, under a viewport point.
    QString counterOrSampleTooltip(const QPoint& pos) const;
    /// The step of the ruler's steps strip at `t`: its span and its CPU range's, and the rule between them; "" off
    /// the steps.
    QString stepTooltip(TimeNs t, TimeNs origin) const;
    /// Index into m_annotationMarks of the bracket under a viewport point.
    std::optional<std::size_t> annotationAt(const QPoint& pos) const;
    /// Screen y where the lanes start: under the ruler and the annotation strip.
    int lanesTop() const;
    std::vector<std::pair<EventRef, EventRef>> flows() const;
    double anchorX(const QPoint& pos) const;
    bool onLabelBorder(const QPoint& pos) const;

    TimelineState* m_state;
    LoadedTrace m_loaded;
    AnalysisSnapshot m_analysis;
    LaneLayout m_layout;
    CollapseState m_collapse;
    std::vector<StepMark> m_steps;
    std::vector<AnnotationMark> m_annotationMarks;
    std::vector<bool> m_highlightNames;
    std::vector<bool> m_selectedDevices;
    int m_annotationStripHeight = 0;
    int m_labelWidth = kDefaultLabelWidth;
    TimeNs m_gapThreshold = 100'000;
    mutable DrawListCache m_cache;
    TimelinePainter m_painter;

    Drag m_drag = Drag::None;
    QPoint m_pressPos;
    QPoint m_lastPos;
    bool m_moved = false;
    std::optional<TimeRange> m_pendingRange;
    std::optional<EventRef> m_hovered;
};

} // namespace gapscope::timeline
