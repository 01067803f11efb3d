// SPDX-License-Identifier: MIT
#include "app/timeline/timeline_painter.h"

#include "app/timeline/annotation_layer.h"
#include "app/timeline/counter_painter.h"
#include "app/timeline/step_labels.h"
#include "app/timeline/timeline_palette.h"
#include "core/model/time_format.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace gapscope::timeline {

namespace {

constexpr int kMinLabelWidthPx = 36;
constexpr double kTickSpacingPx = 90.0;

// Qt 6.4's raster engine hands a fill of 96 or more scanlines to the global thread pool and waits
// for it; for a timeline frame the hand-off costs more than the fill (and much more on a busy
// machine). Filling in slices of fewer scanlines keeps every fill on the painting thread.
constexpr int kFillSliceRows = 64;

void fillSliced(QPainter& painter, const QRect& rect, const QBrush& brush)
{
    for (int top = rect.top(); top <= rect.bottom(); top += kFillSliceRows)
        painter.fillRect(
            QRect(rect.left(), top, rect.width(), std::min(kFillSliceRows, rect.bottom() + 1 - top)), brush);
}

QString elided(const QFontMetrics& metrics, const QString& text, int width)
{
    return metrics.elidedText(text, Qt::ElideRight, width);
}

QString eventName(const Trace& trace, const Event& event)
{
    const std::string_view name = trace.name(event);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

// Integer screen columns [left, right) of an axis interval, clipped to the lanes area.
std::pair<int, int> screenColumns(const TimelineScene& scene, double x0, double x1, const QRect& lanes)
{
    const ColumnSpan span = columnsOf(x0, x1);
    const int left = std::max(lanes.left(), span.first + scene.labelWidth);
    const int right = std::min(lanes.right() + 1, span.last + scene.labelWidth);
    return { left, right };
}

} // namespace

int TimelinePainter::lanesTop(const TimelineScene& scene)
{
    return scene.rulerHeight + annotationStripHeight(scene);
}

QRect TimelinePainter::lanesRect(const TimelineScene& scene)
{
    const int top = lanesTop(scene);
    return QRect(scene.labelWidth, top, std::max(0, scene.width - scene.labelWidth), std::max(0, scene.height - top));
}

std::optional<QRect> TimelinePainter::eventRect(const TimelineScene& scene, EventRef ref)
{
    const Event& event = scene.trace->event(ref);
    const auto top = scene.layout->laneDepthTop(ref.lane, event.depth);
    if (!top)
        return std::nullopt;
    const ColumnSpan span = columnsOf(
        std::clamp(scene.axis.timeToX(event.start), -1e6, 1e6), std::clamp(scene.axis.timeToX(event.end), -1e6, 1e6));
    const int rowHeight = scene.layout->metrics().depthRowHeight;
    return QRect(
        span.first + scene.labelWidth, contentYToScreen(scene, *top) + 1, span.last - span.first, rowHeight - 2);
}

QString TimelinePainter::rowLabel(const TimelineScene& scene, const LayoutRow& row)
{
    QString text = QString::fromStdString(row.label);
    if (row.kind == RowKind::ThreadLane && row.foldable && row.collapsed)
        return text + QStringLiteral(" (%1 of %2 levels)").arg(row.depthRows).arg(row.depthCount);
    if (row.kind != RowKind::UtilizationLane || !scene.analysis || !row.device)
        return text;
    // The figure of the analysis window (the window selector's, the same as Details, the status bar and
    // `gapscope report`), not of the view: it does not change as you zoom. The view's is in the tooltip.
    for (const DeviceFigures& figures : scene.analysis->devices) {
        if (figures.device == *row.device) {
            const std::string_view window = windowKindName(figures.window.kind);
            return text
                + QStringLiteral(" %1 % (%2 window)")
                      .arg(100.0 * figures.utilization, 0, 'f', 2)
                      .arg(QString::fromUtf8(window.data(), static_cast<qsizetype>(window.size())));
        }
    }
    return text;
}

void TimelinePainter::paint(QPainter& painter, const TimelineScene& scene, DrawListCache& cache) const
{
    if (!scene.trace || !scene.layout || !scene.index) {
        fillSliced(painter, QRect(0, 0, scene.width, scene.height), laneBackground(false));
        return;
    }
    // Every part fills its own background: each pixel is written about once per frame.
    paintLanes(painter, scene, cache);
    paintGapBands(painter, scene);
    paintSelection(painter, scene);
    paintAnnotations(painter, scene);
    paintLabels(painter, scene);
    paintRuler(painter, scene);
    if (scene.focused) {
        // Where W/A/S/D and the arrows go: a frame around the lanes while the timeline has the focus.
        painter.save();
        painter.setPen(QPen(focusFrameColor(), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(lanesRect(scene).adjusted(1, 1, -1, -1));
        painter.restore();
    }
}

void TimelinePainter::paintLanes(QPainter& painter, const TimelineScene& scene, DrawListCache& cache) const
{
    const QRect lanes = lanesRect(scene);
    painter.save();
    painter.setClipRect(lanes);
    const auto [first, last] = scene.layout->rowsIn(scene.scrollY, scene.scrollY + lanes.height());
    const auto& rows = scene.layout->rows();
    for (std::size_t r = first; r < last; ++r) {
        const LayoutRow& row = rows[r];
        const int top = contentYToScreen(scene, row.y);
        const QRect rowRect(lanes.left(), top, lanes.width(), row.height);
        switch (row.kind) {
        case RowKind::ProcessHeader:
        case RowKind::DeviceHeader:
            fillSliced(painter, rowRect, headerBackground());
            break;
        case RowKind::UtilizationLane:
            fillSliced(painter, rowRect, laneBackground(false));
            paintUtilization(painter, scene, row, top, cache);
            break;
        case RowKind::ThreadLane:
        case RowKind::StreamLane:
            fillSliced(painter, rowRect, laneBackground(r % 2 == 1));
            paintLaneItems(painter, scene, row, top, cache.lane(*scene.trace, *scene.index, *row.lane));
            paintSampleStrip(painter, scene, row, top, cache);
            break;
        case RowKind::CounterLane:
            fillSliced(painter, rowRect, laneBackground(false));
            paintCounterLane(painter, scene, row, top, cache);
            break;
        }
    }
    // Below the last row.
    const int contentBottom = contentYToScreen(scene, scene.layout->totalHeight());
    if (contentBottom <= lanes.bottom())
        fillSliced(painter, QRect(lanes.left(), contentBottom, lanes.width(), lanes.bottom() + 1 - contentBottom),
            laneBackground(false));
    // Faint grid at the ruler's major ticks.
    painter.setPen(QColor(0, 0, 0, 22));
    for (const RulerTick& tick : rulerTicks(scene.axis, scene.origin, kTickSpacingPx)) {
        if (tick.major) {
            const int x = static_cast<int>(std::floor(tick.x)) + scene.labelWidth;
            painter.drawLine(x, lanes.top(), x, lanes.bottom());
        }
    }
    painter.restore();
}

void TimelinePainter::paintLaneItems(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, const LaneDrawList& list) const
{
    const QRect lanes = lanesRect(scene);
    const Lane& lane = scene.trace->lanes()[row.lane->value];
    const int rowHeight = scene.layout->metrics().depthRowHeight;
    const QFontMetrics metrics = painter.fontMetrics();
    for (const DrawItem& item : list.items) {
        if (item.depth >= row.depthRows)
            continue;
        const auto [left, right] = screenColumns(scene, item.x0, item.x1, lanes);
        if (right <= left)
            continue;
        const int y = top + item.depth * rowHeight + 1;
        const Event& event = lane.events[item.event];
        const QRect rect(left, y, right - left, rowHeight - 2);
        painter.fillRect(rect, item.count > 1 ? foldedColor(event) : eventColor(event));
        if (scene.highlightNames && event.name.value < scene.highlightNames->size()
            && (*scene.highlightNames)[event.name.value]) {
            painter.setPen(QPen(searchMatchColor(), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(rect.adjusted(1, 1, -1, -1));
        }
        if (rect.width() >= kMinLabelWidthPx) {
            QString text = eventName(*scene.trace, event);
            if (item.count > 1)
                text = QStringLiteral("%1 events: %2").arg(item.count).arg(text);
            painter.setPen(textColor());
            painter.drawText(
                rect.adjusted(3, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, elided(metrics, text, rect.width() - 5));
        }
    }
}

void TimelinePainter::paintUtilization(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache) const
{
    const int columns = static_cast<int>(scene.axis.width);
    const auto& fractions = cache.utilization(*scene.index, *row.device, columns);
    const int height = row.height - 3;
    const int bottom = top + row.height - 1;
    const QColor color = utilizationColor();
    // Runs of equal bar height become one rectangle.
    int runStart = 0;
    int runHeight = -1;
    const auto flush = [&](int end) {
        if (runHeight > 0)
            painter.fillRect(QRect(scene.labelWidth + runStart, bottom - runHeight, end - runStart, runHeight), color);
    };
    for (int c = 0; c < columns; ++c) {
        const float f = fractions[static_cast<std::size_t>(c)];
        // Any activity shows at least one pixel: a column with a kernel in it is never drawn idle.
        const int h = f > 0.0f ? std::max(1, static_cast<int>(std::lround(f * static_cast<float>(height)))) : 0;
        if (h != runHeight) {
            flush(c);
            runStart = c;
            runHeight = h;
        }
    }
    flush(columns);
}

void TimelinePainter::paintGapBands(QPainter& painter, const TimelineScene& scene) const
{
    if (!scene.gaps || !scene.analysis)
        return;
    const QRect lanes = lanesRect(scene);
    painter.save();
    painter.setClipRect(lanes);
    for (std::uint32_t d = 0; d < scene.trace->devices().size(); ++d) {
        const auto band = scene.layout->deviceBand(DeviceIndex { d });
        if (!band)
            continue;
        const int top = contentYToScreen(scene, band->first);
        const int bottom = contentYToScreen(scene, band->second);
        if (bottom < lanes.top() || top > lanes.bottom())
            continue;
        std::optional<QRect> selectedRect;
        GapCause selectedCause = GapCause::Unknown;
        // Neighbouring bands of one cause that touch on screen are filled once: zoomed out, many gaps
        // share a column, and blending each would darken it and cost a fill per gap.
        int runLeft = 0;
        int runRight = -1;
        GapCause runCause = GapCause::Unknown;
        const bool deviceSelected
            = scene.selectedDevices && d < scene.selectedDevices->size() && (*scene.selectedDevices)[d];
        const auto flushRun = [&] {
            if (runRight > runLeft) {
                const QRect run(runLeft, top, runRight - runLeft, bottom - top);
                fillSliced(painter, run, gapBandColor(runCause, deviceSelected));
                if (deviceSelected) {
                    painter.setPen(QPen(gapCauseColor(runCause), 1));
                    painter.drawLine(run.topLeft(), run.bottomLeft());
                    painter.drawLine(run.topRight(), run.bottomRight());
                }
            }
            runRight = -1;
        };
        for (const std::size_t g :
            scene.gaps->visible(DeviceIndex { d }, scene.axis.start, scene.axis.end, scene.gapThreshold)) {
            const Gap& gap = scene.analysis->gaps[g];
            const auto [left, right]
                = screenColumns(scene, scene.axis.timeToX(gap.start), scene.axis.timeToX(gap.end), lanes);
            if (scene.selectedGap == g) {
                selectedRect = QRect(left, top, right - left, bottom - top);
                selectedCause = gap.cause;
                continue;
            }
            if (runRight >= 0 && gap.cause == runCause && left <= runRight) {
                runRight = std::max(runRight, right);
                continue;
            }
            flushRun();
            runLeft = left;
            runRight = right;
            runCause = gap.cause;
        }
        flushRun();
        // The selected gap also shows when it is shorter than the threshold.
        if (!selectedRect && scene.selectedGap && *scene.selectedGap < scene.analysis->gaps.size()) {
            const Gap& gap = scene.analysis->gaps[*scene.selectedGap];
            if (gap.device.value == d && !gap.stream && gap.start < scene.axis.end && gap.end > scene.axis.start) {
                const auto [left, right]
                    = screenColumns(scene, scene.axis.timeToX(gap.start), scene.axis.timeToX(gap.end), lanes);
                selectedRect = QRect(left, top, right - left, bottom - top);
                selectedCause = gap.cause;
            }
        }
        if (selectedRect) {
            fillSliced(painter, *selectedRect, gapBandColor(selectedCause, true));
            painter.setPen(QPen(gapCauseColor(selectedCause), 1));
            painter.drawLine(selectedRect->topLeft(), selectedRect->bottomLeft());
            painter.drawLine(selectedRect->topRight(), selectedRect->bottomRight());
        }
    }
    painter.restore();
}

void TimelinePainter::paintSelection(QPainter& painter, const TimelineScene& scene) const
{
    const QRect lanes = lanesRect(scene);
    painter.save();
    painter.setClipRect(lanes);
    if (scene.rangeSelection) {
        const auto [left, right] = screenColumns(scene, scene.axis.timeToX(scene.rangeSelection->first),
            scene.axis.timeToX(scene.rangeSelection->second), lanes);
        // The inside keeps its colours (a cause is read from its band's colour); the outside is veiled.
        fillSliced(painter, QRect(lanes.left(), lanes.top(), left - lanes.left(), lanes.height()), rangeOutsideColor());
        fillSliced(painter, QRect(right, lanes.top(), lanes.right() + 1 - right, lanes.height()), rangeOutsideColor());
        painter.setPen(rangeSelectionEdgeColor());
        painter.drawLine(left, lanes.top(), left, lanes.bottom());
        painter.drawLine(right - 1, lanes.top(), right - 1, lanes.bottom());
    }
    if (scene.hoveredEvent && scene.hoveredEvent != scene.selectedEvent) {
        if (const auto rect = eventRect(scene, *scene.hoveredEvent)) {
            painter.setPen(QPen(QColor(0, 0, 0, 120), 1));
            painter.drawRect(rect->adjusted(0, 0, -1, -1));
        }
    }
    if (scene.selectedEvent) {
        if (const auto rect = eventRect(scene, *scene.selectedEvent)) {
            painter.setPen(QPen(selectionColor(), 2));
            painter.drawRect(rect->adjusted(0, 0, -1, -1));
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (const auto& [launch, op] : scene.flows) {
        const auto from = eventRect(scene, launch);
        const auto to = eventRect(scene, op);
        if (!from || !to)
            continue;
        const QPointF p0(from->left(), from->center().y());
        const QPointF p1(to->left(), to->center().y());
        const double midY = (p0.y() + p1.y()) / 2.0;
        QPainterPath path(p0);
        path.cubicTo(QPointF(p0.x(), midY), QPointF(p1.x(), midY), p1);
        painter.setPen(QPen(flowColor(), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawPath(path);
        // Arrowhead pointing along the curve's last tangent (vertical, toward the op).
        const double direction = p1.y() >= midY ? 1.0 : -1.0;
        QPolygonF head;
        head << p1 << QPointF(p1.x() - 5, p1.y() - 9 * direction) << QPointF(p1.x() + 5, p1.y() - 9 * direction);
        painter.setBrush(flowColor());
        painter.setPen(Qt::NoPen);
        painter.drawPolygon(head);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(flowColor(), 2));
        painter.drawEllipse(p0, 3, 3);
    }
    painter.restore();
}

void TimelinePainter::paintLabels(QPainter& painter, const TimelineScene& scene) const
{
    const int top = lanesTop(scene);
    const QRect column(0, top, scene.labelWidth, std::max(0, scene.height - top));
    painter.save();
    painter.setClipRect(column);
    const auto [first, last] = scene.layout->rowsIn(scene.scrollY, scene.scrollY + column.height());
    const auto& rows = scene.layout->rows();
    QFont normal = painter.font();
    QFont bold = normal;
    bold.setBold(true);
    for (std::size_t r = first; r < last; ++r) {
        const LayoutRow& row = rows[r];
        const int top = contentYToScreen(scene, row.y);
        const int indent = 6 + row.indent * 12;
        const bool header = row.kind == RowKind::ProcessHeader || row.kind == RowKind::DeviceHeader;
        const int firstRowHeight = header ? row.height : std::min(row.height, scene.layout->metrics().depthRowHeight);
        fillSliced(
            painter, QRect(0, top, scene.labelWidth, row.height), header ? headerBackground() : labelBackground());
        if (header || row.foldable) {
            // A triangle: pointing right when collapsed (a deep lane: folded), down when expanded.
            const QPointF c(indent + 4, top + firstRowHeight / 2.0);
            QPolygonF triangle;
            if (row.collapsed)
                triangle << QPointF(c.x() - 3, c.y() - 5) << QPointF(c.x() + 4, c.y()) << QPointF(c.x() - 3, c.y() + 5);
            else
                triangle << QPointF(c.x() - 5, c.y() - 3) << QPointF(c.x() + 5, c.y() - 3) << QPointF(c.x(), c.y() + 4);
            painter.setPen(Qt::NoPen);
            painter.setBrush(textColor());
            painter.drawPolygon(triangle);
        }
        painter.setFont(header ? bold : normal);
        painter.setPen(textColor());
        const QString text = rowLabel(scene, row);
        const int textLeft = header || row.foldable ? indent + 14 : indent;
        const QRect textRect(textLeft, top, scene.labelWidth - textLeft - 4, firstRowHeight);
        painter.drawText(
            textRect, Qt::AlignVCenter | Qt::AlignLeft, elided(painter.fontMetrics(), text, textRect.width()));
    }
    const int contentBottom = contentYToScreen(scene, scene.layout->totalHeight());
    if (contentBottom <= column.bottom())
        fillSliced(
            painter, QRect(0, contentBottom, scene.labelWidth, column.bottom() + 1 - contentBottom), labelBackground());
    painter.setFont(normal);
    painter.setPen(QColor(0xb0, 0xb5, 0xbb));
    painter.drawLine(scene.labelWidth - 1, column.top(), scene.labelWidth - 1, column.bottom());
    painter.restore();
}

void TimelinePainter::paintRuler(QPainter& painter, const TimelineScene& scene) const
{
    const QRect ruler(0, 0, scene.width, scene.rulerHeight);
    painter.save();
    painter.fillRect(ruler, rulerBackground());
    const int tickBottom = scene.rulerHeight - kStepStripHeight;
    painter.setClipRect(QRect(scene.labelWidth, 0, std::max(0, scene.width - scene.labelWidth), scene.rulerHeight));
    // Steps: alternating blocks in the bottom strip, warm-up steps hatched, labelled when wide enough.
    // The blocks first, then the labels that do not run into each other (placeStepLabels).
    const QRect lanes = lanesRect(scene);
    std::vector<std::size_t> shown;
    std::vector<StepColumn> columns;
    for (std::size_t i = 0; i < scene.steps.size(); ++i) {
        const StepMark& step = scene.steps[i];
        if (step.end <= scene.axis.start || step.start >= scene.axis.end)
            continue;
        const auto [left, right]
            = screenColumns(scene, scene.axis.timeToX(step.start), scene.axis.timeToX(step.end), lanes);
        const QRect rect(left, tickBottom, right - left, kStepStripHeight - 1);
        painter.fillRect(rect, i % 2 ? QColor(0xb0, 0xbe, 0xc5) : QColor(0xcf, 0xd8, 0xdc));
        if (step.warmup)
            painter.fillRect(rect, QBrush(QColor(0x78, 0x90, 0x9c), Qt::BDiagPattern));
        painter.setPen(stepMarkerColor());
        painter.drawLine(left, tickBottom, left, scene.rulerHeight - 1);
        shown.push_back(i);
        columns.push_back({ left, right, painter.fontMetrics().horizontalAdvance(step.label) });
    }
    const std::vector<std::optional<int>> labels = placeStepLabels(columns, kMinLabelWidthPx);
    painter.setPen(stepMarkerColor());
    for (std::size_t k = 0; k < shown.size(); ++k) {
        if (!labels[k])
            continue;
        const QRect text(columns[k].left + 3, tickBottom, *labels[k] + 1, kStepStripHeight - 1);
        painter.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
            elided(painter.fontMetrics(), scene.steps[shown[k]].label, *labels[k] + 1));
    }
    // The analysis window, as a blue line under the ruler: which part of the trace the figures cover.
    if (scene.analysis) {
        painter.setPen(Qt::NoPen);
        for (const Window& window : scene.analysis->windows) {
            for (const Interval& range : window.ranges.intervals()) {
                if (range.end <= scene.axis.start || range.start >= scene.axis.end)
                    continue;
                const auto [left, right]
                    = screenColumns(scene, scene.axis.timeToX(range.start), scene.axis.timeToX(range.end), lanes);
                painter.fillRect(QRect(left, scene.rulerHeight - 3, right - left, 3), QColor(0x1e, 0x88, 0xe5));
            }
        }
    }
    painter.setPen(textColor());
    const TimeNs base = rulerLabelBase(scene.axis, scene.origin, kTickSpacingPx);
    for (const RulerTick& tick : rulerTicks(scene.axis, base, kTickSpacingPx)) {
        const int x = static_cast<int>(std::floor(tick.x)) + scene.labelWidth;
        painter.drawLine(x, tickBottom - (tick.major ? 8 : 4), x, tickBottom - 1);
        if (tick.major)
            painter.drawText(QPoint(x + 3, tickBottom - 8), QString::fromStdString(tick.label));
    }
    painter.setClipping(false);
    // The corner above the labels: the visible span.
    painter.fillRect(QRect(0, 0, scene.labelWidth, scene.rulerHeight), rulerBackground());
    // Tick labels count from a base near the view when it is far from the trace start: the corner names the
    // base ("ticks: +1402.5700 ms +"); otherwise it gives the view's span.
    const QString corner = base == scene.origin
        ? QStringLiteral("view %1").arg(QString::fromStdString(formatDuration(scene.axis.span())))
        : QStringLiteral("ticks: %1 +")
              .arg(QString::fromStdString(
                  formatRulerBase(base - scene.origin, rulerStep(scene.axis.nsPerPixel(), kTickSpacingPx))));
    painter.drawText(QRect(8, 0, scene.labelWidth - 12, tickBottom), Qt::AlignVCenter | Qt::AlignLeft,
        elided(painter.fontMetrics(), corner, scene.labelWidth - 12));
    painter.drawText(QRect(8, tickBottom, scene.labelWidth - 12, kStepStripHeight), Qt::AlignVCenter | Qt::AlignLeft,
        QStringLiteral("steps"));
    painter.setPen(QColor(0xb0, 0xb5, 0xbb));
    painter.drawLine(0, scene.rulerHeight - 1, scene.width, scene.rulerHeight - 1);
    painter.restore();
}

} // namespace gapscope::timeline
