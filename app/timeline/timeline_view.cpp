// SPDX-License-Identifier: MIT
#include "app/timeline/timeline_view.h"

#include "app/models/counter_details.h"
#include "app/models/event_details.h"
#include "app/timeline/annotation_layer.h"
#include "app/timeline/geometry/hit_test.h"
#include "core/model/view_extent.h"

#include <QCursor>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace gapscope::timeline {

namespace {

/// The label column is never narrower than this, and leaves at least this much to the lanes.
constexpr int kMinLabelWidth = 100;
constexpr int kMinLanesWidth = 120;
/// How near the label column's border (either side) a press grabs it.
constexpr int kBorderGripPx = 4;
constexpr int kRulerHeight = 34;
constexpr int kClickSlopPx = 3;
constexpr TimeNs kMinVisibleSpanNs = 20;
constexpr double kKeyZoomFactor = 1.25;
constexpr double kKeyPanFraction = 0.1;

} // namespace

TimelineView::TimelineView(TimelineState* state, QWidget* parent)
    : QAbstractScrollArea(parent)
    , m_state(state)
{
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    viewport()->setMouseTracking(true);
    viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(480, 240);
    connect(m_state, &TimelineState::visibleRangeChanged, viewport(), qOverload<>(&QWidget::update));
    connect(m_state, &TimelineState::selectionChanged, this, [this] {
        unfoldSelection();
        viewport()->update();
    });
}

void TimelineView::setTrace(const LoadedTrace& loaded)
{
    m_loaded = loaded;
    m_analysis = {};
    m_steps.clear();
    m_collapse = {};
    m_selectedDevices.clear();
    m_hovered.reset();
    m_pendingRange.reset();
    m_cache.clear();
    rebuildLayout();
    verticalScrollBar()->setValue(0);
    // Fit Whole Trace shows the samples and counters taken before the first event or after the last too; times
    // stay counted from the first event.
    const auto extent = m_loaded.trace ? drawnExtent(*m_loaded.trace) : std::nullopt;
    const auto span = m_loaded.trace ? m_loaded.trace->timeSpan() : std::nullopt;
    m_state->reset(extent ? extent->first : 0, extent ? extent->second : 1,
        span ? std::optional<TimeNs>(span->first) : std::nullopt);
    viewport()->update();
}

void TimelineView::setAnalysis(const AnalysisSnapshot& analysis)
{
    m_analysis = analysis;
    m_steps.clear();
    if (m_analysis.result) {
        for (const Step& step : m_analysis.result->steps)
            m_steps.push_back({ step.start, step.end, QString::fromStdString(step.name), step.warmup });
    }
    viewport()->update();
}

void TimelineView::setGapThreshold(TimeNs threshold)
{
    m_gapThreshold = threshold;
    viewport()->update();
}

void TimelineView::setHighlightedNames(std::vector<bool> names)
{
    m_highlightNames = std::move(names);
    viewport()->update();
}

void TimelineView::setSelectedDevices(std::vector<bool> devices)
{
    m_selectedDevices = std::move(devices);
    viewport()->update();
}

void TimelineView::focusInEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusInEvent(event);
    viewport()->update();
}

void TimelineView::focusOutEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

void TimelineView::setAnnotationMarks(std::vector<AnnotationMark> marks)
{
    m_annotationMarks = std::move(marks);
    // The strip's height depends on the notes' ranges alone (annotation_layer.h), not on the view.
    TimelineScene strip;
    strip.annotations = m_annotationMarks;
    m_annotationStripHeight = annotationStripHeight(strip);
    updateScrollBar(); // the strip above the lanes may have grown or shrunk
    viewport()->update();
}

TimeAxis TimelineView::axis() const
{
    const auto [start, end] = m_state->visibleRange();
    return TimeAxis { start, end, static_cast<double>(std::max(1, viewport()->width() - m_labelWidth)) };
}

NavigationLimits TimelineView::limits() const
{
    const auto [start, end] = m_state->bounds();
    return NavigationLimits { start, end, kMinVisibleSpanNs, 0.05 };
}

void TimelineView::setAxis(const TimeAxis& newAxis, TimelineState::History history)
{
    m_state->setVisibleRange({ newAxis.start, newAxis.end }, history);
}

TimelineScene TimelineView::scene() const
{
    TimelineScene s;
    if (!m_loaded.trace)
        return s;
    s.trace = m_loaded.trace.get();
    s.index = m_loaded.index.get();
    s.layout = &m_layout;
    s.analysis = m_analysis.result.get();
    s.gaps = m_analysis.gaps.get();
    s.axis = axis();
    s.origin = m_state->origin();
    s.width = viewport()->width();
    s.height = viewport()->height();
    s.scrollY = verticalScrollBar()->value();
    s.labelWidth = m_labelWidth;
    s.rulerHeight = kRulerHeight;
    s.gapThreshold = m_gapThreshold;
    s.selectedGap = m_state->selectedGap();
    s.selectedEvent = m_state->selectedEvent();
    s.hoveredEvent = m_hovered;
    s.flows = flows();
    s.rangeSelection = m_pendingRange ? m_pendingRange : m_state->selectedRange();
    s.steps = m_steps;
    s.annotations = m_annotationMarks;
    s.highlightNames = m_highlightNames.empty() ? nullptr : &m_highlightNames;
    s.selectedDevices = m_selectedDevices.empty() ? nullptr : &m_selectedDevices;
    s.focused = hasFocus();
    return s;
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter painter(viewport());
    const TimelineScene s = scene();
    if (!s.trace) {
        painter.fillRect(viewport()->rect(), palette().window());
        painter.drawText(viewport()->rect(), Qt::AlignCenter,
            tr("Open a trace: File \u203a Open, drag a file here, or File \u203a Open Demo Trace."));
        return;
    }
    m_cache.setAxis(s.axis);
    m_painter.paint(painter, s, m_cache);
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateScrollBar();
}

void TimelineView::scrollContentsBy(int, int)
{
    viewport()->update();
}

void TimelineView::rebuildLayout()
{
    if (!m_loaded.trace) {
        m_layout = {};
        updateScrollBar();
        return;
    }
    std::vector<int> depths(m_loaded.trace->lanes().size());
    for (std::uint32_t l = 0; l < depths.size(); ++l)
        depths[l] = m_loaded.index->depthCount(LaneIndex { l });
    m_layout = LaneLayout::build(*m_loaded.trace, depths, m_collapse, {}, m_loaded.blocks);
    updateScrollBar();
    viewport()->update();
}

void TimelineView::updateScrollBar()
{
    const int visible = std::max(0, viewport()->height() - lanesTop());
    verticalScrollBar()->setRange(0, std::max(0, m_layout.totalHeight() - visible));
    verticalScrollBar()->setPageStep(visible);
    verticalScrollBar()->setSingleStep(m_layout.metrics().depthRowHeight);
}

void TimelineView::toggleRow(const LayoutRow& row)
{
    if (row.kind == RowKind::ProcessHeader) {
        if (!m_collapse.processes.erase(row.process.value))
            m_collapse.processes.insert(row.process.value);
    } else if (row.kind == RowKind::DeviceHeader && row.device) {
        if (!m_collapse.devices.erase(row.device->value))
            m_collapse.devices.insert(row.device->value);
    } else if (row.kind == RowKind::ThreadLane && row.foldable && row.lane) {
        if (!m_collapse.expandedLanes.erase(row.lane->value))
            m_collapse.expandedLanes.insert(row.lane->value);
    }
    rebuildLayout();
}

bool TimelineView::unfoldFor(EventRef ref)
{
    if (!m_loaded.trace || ref.lane.value >= m_loaded.trace->lanes().size())
        return false;
    const Lane& lane = m_loaded.trace->lanes()[ref.lane.value];
    bool changed = false;
    if (lane.kind == LaneKind::CpuThread) {
        changed = m_collapse.processes.erase(lane.process.value) > 0;
        const int depth = m_loaded.trace->event(ref).depth;
        const int shown = std::min(m_layout.metrics().foldedDepthRows, m_loaded.index->depthCount(ref.lane));
        if (depth >= shown)
            changed = m_collapse.expandedLanes.insert(ref.lane.value).second || changed;
    } else {
        changed = m_collapse.devices.erase(lane.device.value) > 0;
    }
    return changed;
}

void TimelineView::unfoldSelection()
{
    // A selected event and both ends of the flows drawn for the selection are always laid out: their lanes
    // are unfolded to their depth, their groups opened.
    bool changed = false;
    if (const auto event = m_state->selectedEvent())
        changed = unfoldFor(*event) || changed;
    for (const auto& [from, to] : flows()) {
        changed = unfoldFor(from) || changed;
        changed = unfoldFor(to) || changed;
    }
    if (changed)
        rebuildLayout();
}

void TimelineView::revealFlow()
{
    // Both ends in view when they fit in the viewport together; the op that ends the gap otherwise.
    const auto ends = flows();
    if (ends.empty())
        return;
    int top = std::numeric_limits<int>::max();
    int bottom = std::numeric_limits<int>::min();
    for (const EventRef ref : { ends.front().first, ends.front().second }) {
        const auto y = m_layout.laneDepthTop(ref.lane, m_loaded.trace->event(ref).depth);
        if (!y)
            return;
        top = std::min(top, *y);
        bottom = std::max(bottom, *y + m_layout.metrics().depthRowHeight);
    }
    const int visible = viewport()->height() - lanesTop();
    const int scroll = verticalScrollBar()->value();
    if (top >= scroll && bottom <= scroll + visible)
        return;
    if (bottom - top <= visible)
        verticalScrollBar()->setValue(top - (visible - (bottom - top)) / 2);
}

void TimelineView::zoomToRange(TimeNs t0, TimeNs t1, double contextFraction)
{
    const TimeAxis current = axis();
    setAxis(fitRange(t0, t1, current.width, contextFraction, limits()), TimelineState::History::Push);
}

void TimelineView::fitAll()
{
    const auto [start, end] = m_state->bounds();
    setAxis(TimeAxis { start, end, axis().width }, TimelineState::History::Push);
}

void TimelineView::fitAnalysisWindow()
{
    // From the start of the earliest window range to the end of the latest, over every process.
    if (!m_analysis.result)
        return fitAll();
    std::optional<TimeRange> extent;
    for (const Window& window : m_analysis.result->windows) {
        if (window.ranges.intervals().empty())
            continue;
        const TimeRange range { window.start(), window.end() };
        extent = extent ? TimeRange { std::min(extent->first, range.first), std::max(extent->second, range.second) }
                        : range;
    }
    if (!extent)
        return fitAll();
    zoomToRange(extent->first, extent->second, 0.0);
}

void TimelineView::fitSelection()
{
    if (!m_loaded.trace) {
        return;
    } else if (const auto event = m_state->selectedEvent()) {
        const Event& e = m_loaded.trace->event(*event);
        zoomToRange(e.start, e.end, 0.25);
    } else if (const auto gap = m_state->selectedGap(); gap && m_analysis.result) {
        const Gap& g = m_analysis.result->gaps[*gap];
        zoomToRange(g.start, g.end, 0.25);
    } else if (const auto range = m_state->selectedRange()) {
        zoomToRange(range->first, range->second, 0.0);
    } else {
        fitAll();
    }
}

void TimelineView::revealLane(LaneIndex lane)
{
    if (!m_loaded.trace || lane.value >= m_loaded.trace->lanes().size())
        return;
    const Lane& l = m_loaded.trace->lanes()[lane.value];
    if (l.kind == LaneKind::GpuStream ? m_collapse.devices.erase(l.device.value) > 0
                                      : m_collapse.processes.erase(l.process.value) > 0)
        rebuildLayout();
    if (const auto row = m_layout.rowOfLane(lane)) {
        const LayoutRow& r = m_layout.rows()[*row];
        const int visible = viewport()->height() - lanesTop();
        const int scroll = verticalScrollBar()->value();
        if (r.y < scroll || r.y + r.height > scroll + visible)
            verticalScrollBar()->setValue(r.y - visible / 3);
    }
}

void TimelineView::revealDevice(DeviceIndex device)
{
    if (!m_loaded.trace || device.value >= m_loaded.trace->devices().size())
        return;
    if (m_collapse.devices.erase(device.value) > 0)
        rebuildLayout();
    if (const auto band = m_layout.deviceBand(device)) {
        const int visible = viewport()->height() - lanesTop();
        const int scroll = verticalScrollBar()->value();
        if (band->first < scroll || band->second > scroll + visible)
            verticalScrollBar()->setValue(band->first - m_layout.metrics().headerHeight);
    }
}

double TimelineView::anchorX(const QPoint& pos) const
{
    return std::clamp(static_cast<double>(pos.x() - m_labelWidth), 0.0, axis().width);
}

bool TimelineView::onLabelBorder(const QPoint& pos) const
{
    return std::abs(pos.x() - m_labelWidth) <= kBorderGripPx;
}

void TimelineView::setLabelWidth(int width)
{
    const int clamped
        = std::clamp(width, kMinLabelWidth, std::max(kMinLabelWidth, viewport()->width() - kMinLanesWidth));
    if (clamped == m_labelWidth)
        return;
    m_labelWidth = clamped;
    viewport()->update();
    emit labelWidthChanged(m_labelWidth);
}

void TimelineView::zoomBy(double factor)
{
    const QPoint cursor = viewport()->mapFromGlobal(QCursor::pos());
    const bool inside = viewport()->rect().contains(cursor) && cursor.x() >= m_labelWidth;
    const double anchor = inside ? anchorX(cursor) : axis().width / 2.0;
    setAxis(zoomAround(axis(), anchor, factor, limits()), TimelineState::History::Coalesce);
}

void TimelineView::panByFraction(double fraction)
{
    const TimeAxis current = axis();
    setAxis(panByPixels(current, -fraction * current.width, limits()), TimelineState::History::Coalesce);
}

std::optional<EventRef> TimelineView::eventAt(const QPoint& pos) const
{
    if (!m_loaded.trace || pos.x() < m_labelWidth || pos.y() < lanesTop())
        return std::nullopt;
    const int contentY = pos.y() - lanesTop() + verticalScrollBar()->value();
    return hitTest(*m_loaded.trace, *m_loaded.index, m_layout, axis(), pos.x() - m_labelWidth, contentY);
}

QString TimelineView::counterOrSampleTooltip(const QPoint& pos) const
{
    if (!m_loaded.trace || pos.x() < m_labelWidth || pos.y() < lanesTop())
        return {};
    const int contentY = pos.y() - lanesTop() + verticalScrollBar()->value();
    const auto r = m_layout.rowAt(contentY);
    if (!r)
        return {};
    const LayoutRow& row = m_layout.rows()[*r];
    const double x = pos.x() - m_labelWidth;
    if (row.kind == RowKind::CounterLane)
        return models::counterTooltip(*m_loaded.trace, row.counterTracks, axis().xToTime(x), axis().xToTime(x + 1));
    const auto strip = m_layout.sampleStripTop(row);
    if (!strip || !row.samples || contentY < *strip)
        return {};
    // Ticks are a pixel wide: the samples within a few pixels count as under the pointer.
    constexpr double kTolerancePx = 3.0;
    return models::sampleTooltip(*m_loaded.trace, *row.samples, axis().xToTime(x - kTolerancePx),
        axis().xToTime(x + kTolerancePx + 1), axis().xToTime(x), m_state->origin());
}

int TimelineView::lanesTop() const
{
    return kRulerHeight + m_annotationStripHeight;
}

std::optional<std::size_t> TimelineView::annotationAt(const QPoint& pos) const
{
    if (m_annotationMarks.empty() || !m_loaded.trace)
        return std::nullopt;
    const auto rects = annotationBracketRects(scene());
    // The last drawn is on top: search from the end.
    for (std::size_t i = rects.size(); i-- > 0;) {
        if (rects[i] && rects[i]->contains(pos))
            return i;
    }
    return std::nullopt;
}

std::optional<std::size_t> TimelineView::gapAt(const QPoint& pos) const
{
    if (!m_loaded.trace || !m_analysis.gaps || pos.x() < m_labelWidth || pos.y() < lanesTop())
        return std::nullopt;
    const int contentY = pos.y() - lanesTop() + verticalScrollBar()->value();
    const TimeNs t = axis().xToTime(pos.x() - m_labelWidth);
    for (std::uint32_t d = 0; d < m_loaded.trace->devices().size(); ++d) {
        const auto band = m_layout.deviceBand(DeviceIndex { d });
        if (band && contentY >= band->first && contentY < band->second)
            return m_analysis.gaps->at(DeviceIndex { d }, t, m_gapThreshold);
    }
    return std::nullopt;
}

std::optional<LaneIndex> TimelineView::laneAtPoint(const QPoint& pos) const
{
    if (!m_loaded.trace || pos.y() < lanesTop())
        return std::nullopt;
    const int contentY = pos.y() - lanesTop() + verticalScrollBar()->value();
    const auto row = m_layout.rowAt(contentY);
    if (!row)
        return std::nullopt;
    return m_layout.rows()[*row].lane;
}

std::optional<QRect> TimelineView::gapBandRect(std::size_t gapIndex) const
{
    if (!m_analysis.result || gapIndex >= m_analysis.result->gaps.size())
        return std::nullopt;
    const Gap& gap = m_analysis.result->gaps[gapIndex];
    const auto band = m_layout.deviceBand(gap.device);
    if (!band)
        return std::nullopt;
    const TimelineScene s = scene();
    const ColumnSpan span = columnsOf(s.axis.timeToX(gap.start), s.axis.timeToX(gap.end));
    const QRect rect(span.first + m_labelWidth, TimelinePainter::contentYToScreen(s, band->first),
        span.last - span.first, band->second - band->first);
    const QRect clipped = rect.intersected(TimelinePainter::lanesRect(s));
    if (clipped.isEmpty())
        return std::nullopt;
    return clipped;
}

std::vector<std::pair<EventRef, EventRef>> TimelineView::flows() const
{
    std::vector<std::pair<EventRef, EventRef>> result;
    if (!m_loaded.trace)
        return result;
    const Trace& trace = *m_loaded.trace;
    if (const auto event = m_state->selectedEvent()) {
        if (trace.lanes()[event->lane.value].kind == LaneKind::GpuStream) {
            if (const auto launch = trace.launchOf(*event))
                result.emplace_back(*launch, *event);
        } else {
            for (const EventRef& op : trace.gpuOpsOf(*event)) {
                result.emplace_back(*event, op);
                if (result.size() >= 16)
                    break;
            }
        }
    } else if (const auto gap = m_state->selectedGap(); gap && m_analysis.result) {
        const Gap& g = m_analysis.result->gaps[*gap];
        if (const auto launch = g.closingOp ? trace.launchOf(*g.closingOp) : std::nullopt)
            result.emplace_back(*launch, *g.closingOp);
    }
    return result;
}

void TimelineView::mousePressEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    m_pressPos = m_lastPos = pos;
    m_moved = false;
    if (event->button() == Qt::BackButton) {
        m_state->goBack();
        return;
    }
    if (event->button() == Qt::ForwardButton) {
        m_state->goForward();
        return;
    }
    if (!m_loaded.trace)
        return;
    if (event->button() == Qt::LeftButton && onLabelBorder(pos)) {
        m_drag = Drag::LabelBorder;
        return;
    }
    if (pos.x() < m_labelWidth && pos.y() >= lanesTop() && event->button() == Qt::LeftButton) {
        const int contentY = pos.y() - lanesTop() + verticalScrollBar()->value();
        if (const auto row = m_layout.rowAt(contentY)) {
            const LayoutRow& r = m_layout.rows()[*row];
            if (r.kind == RowKind::ProcessHeader || r.kind == RowKind::DeviceHeader || r.foldable) {
                toggleRow(r);
                return;
            }
        }
        m_drag = Drag::Pan;
        return;
    }
    const bool rangeGesture = event->button() == Qt::RightButton
        || (event->button() == Qt::LeftButton && (pos.y() < kRulerHeight || (event->modifiers() & Qt::ShiftModifier)));
    m_drag = rangeGesture ? Drag::Range : (event->button() == Qt::LeftButton ? Drag::Pan : Drag::None);
    if (m_drag == Drag::Pan)
        viewport()->setCursor(Qt::ClosedHandCursor);
}

void TimelineView::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if ((pos - m_pressPos).manhattanLength() > kClickSlopPx)
        m_moved = m_moved || m_drag != Drag::None;
    if (m_drag == Drag::LabelBorder) {
        setLabelWidth(pos.x());
    } else if (m_drag == Drag::Pan) {
        const QPoint delta = pos - m_lastPos;
        if (m_pressPos.x() >= m_labelWidth && delta.x() != 0)
            setAxis(panByPixels(axis(), delta.x(), limits()), TimelineState::History::Coalesce);
        verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
    } else if (m_drag == Drag::Range && m_moved) {
        const TimeAxis a = axis();
        TimeNs t0 = a.xToTime(anchorX(m_pressPos));
        TimeNs t1 = a.xToTime(anchorX(pos));
        if (t1 < t0)
            std::swap(t0, t1);
        m_pendingRange = TimeRange { t0, t1 };
        emit hoverMessage(tr("Range %1").arg(models::durationText(t1 - t0)));
        viewport()->update();
    } else if (m_drag == Drag::None) {
        if (m_loaded.trace && onLabelBorder(pos))
            viewport()->setCursor(Qt::SplitHCursor);
        else
            viewport()->unsetCursor();
        const auto hovered = eventAt(pos);
        if (hovered != m_hovered) {
            m_hovered = hovered;
            viewport()->update();
            if (m_hovered)
                emit hoverMessage(models::eventTooltip(*m_loaded.trace, *m_hovered, m_state->origin())
                                      .replace(QLatin1Char('\n'), QStringLiteral(" \u00b7 ")));
        }
    }
    m_lastPos = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const Drag drag = m_drag;
    m_drag = Drag::None;
    viewport()->unsetCursor();
    if (!m_loaded.trace || drag == Drag::LabelBorder)
        return;
    if (drag == Drag::Range && !m_moved && event->button() == Qt::RightButton) {
        // A right click without a drag: the context menu (explain the gap, annotate the range...).
        m_pendingRange.reset();
        emit contextMenuRequested(pos);
        return;
    }
    if (drag == Drag::Range) {
        if (m_moved && m_pendingRange && m_pendingRange->second > m_pendingRange->first) {
            const TimeRange range = *m_pendingRange;
            m_pendingRange.reset();
            m_state->selectRange(range, laneAtPoint(m_pressPos));
            emit rangeSelected(range);
        }
        m_pendingRange.reset();
        viewport()->update();
        return;
    }
    if (drag == Drag::Pan && !m_moved && pos.x() >= m_labelWidth) {
        if (const auto note = annotationAt(pos))
            emit annotationClicked(m_annotationMarks[*note].id);
        else if (const auto hit = eventAt(pos))
            m_state->selectEvent(hit);
        else if (const auto gap = gapAt(pos))
            m_state->selectGap(gap);
        else
            m_state->clearSelection();
    }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (!m_loaded.trace || pos.x() < m_labelWidth || onLabelBorder(pos))
        return;
    if (const auto hit = eventAt(pos)) {
        m_state->selectEvent(hit);
        const Event& e = m_loaded.trace->event(*hit);
        zoomToRange(e.start, e.end, 0.25);
    } else {
        fitAll();
    }
}

void TimelineView::wheelEvent(QWheelEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (!m_loaded.trace)
        return;
    const QPoint delta = event->angleDelta();
    // Over the labels, or with Shift: scroll the lanes vertically.
    if (pos.x() < m_labelWidth || (event->modifiers() & Qt::ShiftModifier)) {
        verticalScrollBar()->setValue(verticalScrollBar()->value() - (delta.y() != 0 ? delta.y() : delta.x()) / 2);
        return;
    }
    // Horizontal wheels and touchpads pan; the wheel (with or without Ctrl) zooms around the cursor.
    if (std::abs(delta.x()) > std::abs(delta.y())) {
        setAxis(panByPixels(axis(), delta.x() / 2.0, limits()), TimelineState::History::Coalesce);
        return;
    }
    const double factor = std::pow(2.0, delta.y() / 480.0);
    setAxis(zoomAround(axis(), anchorX(pos), factor, limits()), TimelineState::History::Coalesce);
    event->accept();
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_W:
        zoomBy(kKeyZoomFactor);
        break;
    case Qt::Key_S:
        zoomBy(1.0 / kKeyZoomFactor);
        break;
    case Qt::Key_A:
        panByFraction(-kKeyPanFraction);
        break;
    case Qt::Key_D:
        panByFraction(kKeyPanFraction);
        break;
    case Qt::Key_F:
        if (event->modifiers() & Qt::ShiftModifier)
            fitAll();
        else
            fitSelection();
        break;
    case Qt::Key_Home:
        fitAll();
        break;
    case Qt::Key_Escape:
        m_state->clearSelection();
        break;
    default:
        QAbstractScrollArea::keyPressEvent(event);
        return;
    }
    event->accept();
}

QString TimelineView::stepTooltip(TimeNs t, TimeNs origin) const
{
    if (!m_analysis.result)
        return {};
    for (const Step& step : m_analysis.result->steps) {
        if (t < step.start || t >= step.end)
            continue;
        const Event& range = m_loaded.trace->lanes()[step.cpuRange.lane.value].events[step.cpuRange.index];
        const auto span = [origin](TimeNs from, TimeNs to) {
            return tr("%1 to %2 (%3)")
                .arg(models::relativeTime(from, origin), models::relativeTime(to, origin),
                    models::durationText(to - from));
        };
        // The strip and the thread lane's range differ by the counting rule: say it where they are compared.
        return tr("%1%2: %3\nIts CPU range: %4\nA step runs from the end of the step before (or its CPU range's "
                  "start, if later) to the end of its CPU range or of the last GPU op launched from it, "
                  "whichever is later, as the TensorBoard plugin counts it (docs/definitions.md, Steps).")
            .arg(QString::fromStdString(step.name), step.warmup ? tr(" (warm-up, not counted)") : QString(),
                span(step.start, step.end), span(range.start, range.end));
    }
    return {};
}

bool TimelineView::viewportEvent(QEvent* event)
{
    if (event->type() != QEvent::ToolTip || !m_loaded.trace)
        return QAbstractScrollArea::viewportEvent(event);
    auto* help = static_cast<QHelpEvent*>(event);
    const QPoint pos = help->pos();
    const TimeNs origin = m_state->origin();
    QString text;
    if (pos.y() < kRulerHeight && pos.x() >= m_labelWidth) {
        const TimeNs t = axis().xToTime(pos.x() - m_labelWidth);
        if (pos.y() >= kRulerHeight - TimelinePainter::kStepStripHeight)
            text = stepTooltip(t, origin);
        // To the time one pixel spans, as the ruler's labels are: zoomed to microseconds a second into the trace,
        // "+1017.0012 ms", where four significant digits said "+1.017 s".
        const TimeNs pixel = rulerStep(axis().nsPerPixel(), 1.0);
        if (text.isEmpty())
            text = tr("%1 from the trace start\nabsolute %2 ns")
                       .arg(QString::fromStdString(formatRulerBase(t - origin, pixel)))
                       .arg(t);
    } else if (pos.x() < m_labelWidth && pos.y() >= lanesTop()) {
        // The label column cuts long names ("GPU 0 · Tesla V100-DGXS-32…"): the tooltip has the whole label.
        const auto row = m_layout.rowAt(pos.y() - lanesTop() + verticalScrollBar()->value());
        if (row)
            text = TimelinePainter::rowLabel(scene(), m_layout.rows()[*row]);
    } else if (const auto note = annotationAt(pos)) {
        const AnnotationMark& mark = m_annotationMarks[*note];
        text = mark.title;
        if (!mark.hypothesis.isEmpty())
            text += QStringLiteral("\n") + tr("Hypothesis: %1").arg(mark.hypothesis);
        text += QStringLiteral("\n")
            + tr("%1 from %2")
                  .arg(models::durationText(mark.end - mark.start), models::relativeTime(mark.start, origin));
    } else if (QString evidence = counterOrSampleTooltip(pos); !evidence.isEmpty()) {
        text = std::move(evidence);
    } else if (const auto hit = eventAt(pos)) {
        text = models::eventTooltip(*m_loaded.trace, *hit, origin);
    } else if (const auto gap = gapAt(pos)) {
        const Gap& g = m_analysis.result->gaps[*gap];
        text = tr("Idle gap %1, likely cause: %2\n%3")
                   .arg(models::durationText(g.duration()),
                       QString::fromUtf8(
                           gapCauseName(g.cause).data(), static_cast<qsizetype>(gapCauseName(g.cause).size())),
                       models::gapEvidenceLine(*m_loaded.trace, g, m_analysis.result->options.launchThresholdNs));
    }
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(help->globalPos(), text, viewport());
    return true;
}

} // namespace gapscope::timeline
