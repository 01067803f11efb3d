// SPDX-License-Identifier: MIT
#include "app/timeline/annotation_layer.h"

#include "app/timeline/timeline_palette.h"

#include <QFontMetrics>
#include <QPainter>
#include <QStringList>

#include <algorithm>
#include <numeric>

namespace gapscope::timeline {

namespace {

constexpr int kStripMargin = 3;
constexpr int kMinBracketWidth = 4;
constexpr int kMinLabelWidth = 24;
constexpr int kCalloutPadding = 7;
constexpr int kCalloutMinWidth = 150;
constexpr int kCalloutMaxWidth = 420;
constexpr int kCalloutGapPx = 16;
constexpr int kCalloutSpacing = 6;
constexpr int kTitleLines = 2;
constexpr int kHypothesisLines = 6;

bool inView(const TimelineScene& scene, const AnnotationMark& mark)
{
    // A zero-length note is an instant: in view when its time is.
    if (mark.end <= mark.start)
        return mark.start >= scene.axis.start && mark.start < scene.axis.end;
    return mark.end > scene.axis.start && mark.start < scene.axis.end;
}

/// Greedy word wrap into at most `maxLines` lines of `width` pixels; the last line is elided when text is left.
QStringList wrapText(const QFontMetrics& metrics, const QString& text, int width, int maxLines)
{
    QStringList lines;
    QString line;
    bool truncated = false;
    for (const QString& word : text.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString candidate = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (line.isEmpty() || metrics.horizontalAdvance(candidate) <= width) {
            line = candidate;
            continue;
        }
        if (static_cast<int>(lines.size()) + 1 == maxLines) {
            truncated = true;
            break;
        }
        lines << line;
        line = word;
    }
    if (!line.isEmpty())
        lines << line;
    // Words left over: the last line says so with an ellipsis.
    if (truncated)
        lines.last() = metrics.elidedText(lines.last() + QStringLiteral(" \u2026"), Qt::ElideRight, width);
    for (QString& l : lines)
        l = metrics.elidedText(l, Qt::ElideRight, width + 3);
    return lines;
}

struct CalloutText {
    QStringList title;
    QStringList hypothesis;
};

QFont boldOf(const QFont& font)
{
    QFont bold = font;
    bold.setBold(true);
    return bold;
}

CalloutText calloutText(const AnnotationMark& mark, const QFont& font, int textWidth)
{
    const QString title = mark.title.trimmed().isEmpty() ? QStringLiteral("(untitled note)") : mark.title;
    // Wrapped a little narrower than drawn: elidedText() (applied to each line) measures more strictly than
    // horizontalAdvance(), and would otherwise cut the end of a line that just fits.
    return { wrapText(QFontMetrics(boldOf(font)), title, textWidth - 3, kTitleLines),
        wrapText(QFontMetrics(font), mark.hypothesis, textWidth - 3, kHypothesisLines) };
}

int calloutWidth(const AnnotationMark& mark, const QFont& font, int lanesWidth)
{
    const int natural = std::max(QFontMetrics(boldOf(font)).horizontalAdvance(mark.title),
                            QFontMetrics(font).horizontalAdvance(mark.hypothesis.simplified()))
        + 2 * kCalloutPadding + 4;
    // At most a third of the lanes, so that the boxes of neighbouring notes can sit side by side.
    const int widest
        = std::max(60, std::min({ kCalloutMaxWidth, std::max(kCalloutMinWidth, lanesWidth / 3), lanesWidth - 8 }));
    return std::clamp(natural, std::min(kCalloutMinWidth, widest), widest);
}

int calloutHeight(const CalloutText& text, const QFont& font)
{
    const int titleHeight = static_cast<int>(text.title.size()) * QFontMetrics(boldOf(font)).lineSpacing();
    const int hypothesisHeight = static_cast<int>(text.hypothesis.size()) * QFontMetrics(font).lineSpacing();
    return 2 * kCalloutPadding + titleHeight + (text.hypothesis.isEmpty() ? 0 : 3 + hypothesisHeight);
}

} // namespace

std::vector<int> annotationRows(const TimelineScene& scene)
{
    const auto& marks = scene.annotations;
    std::vector<int> rows(marks.size(), 0);
    std::vector<std::size_t> order(marks.size());
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return marks[a].start != marks[b].start ? marks[a].start < marks[b].start : marks[a].end > marks[b].end;
    });
    std::vector<TimeNs> rowEnds; // the latest end of the notes in each row
    for (const std::size_t i : order) {
        const TimeNs start = marks[i].start;
        const TimeNs end = std::max(marks[i].start, marks[i].end);
        auto free = std::find_if(rowEnds.begin(), rowEnds.end(), [&](TimeNs rowEnd) { return rowEnd <= start; });
        if (free == rowEnds.end() && rowEnds.size() < static_cast<std::size_t>(kMaxAnnotationRows)) {
            rowEnds.push_back(end);
            rows[i] = static_cast<int>(rowEnds.size()) - 1;
            continue;
        }
        if (free == rowEnds.end()) // all rows taken: share the one that frees up first
            free = std::min_element(rowEnds.begin(), rowEnds.end());
        *free = std::max(*free, end);
        rows[i] = static_cast<int>(free - rowEnds.begin());
    }
    return rows;
}

int annotationStripHeight(const TimelineScene& scene)
{
    if (scene.annotations.empty())
        return 0;
    const std::vector<int> rows = annotationRows(scene);
    const int count = *std::max_element(rows.begin(), rows.end()) + 1;
    return count * kAnnotationRowHeight + kStripMargin;
}

std::vector<std::optional<QRect>> annotationBracketRects(const TimelineScene& scene)
{
    std::vector<std::optional<QRect>> rects(scene.annotations.size());
    if (scene.annotations.empty() || scene.axis.span() <= 0)
        return rects;
    const std::vector<int> rows = annotationRows(scene);
    const int lanesLeft = scene.labelWidth;
    const int lanesRight = std::max(lanesLeft, scene.width); // exclusive
    for (std::size_t i = 0; i < scene.annotations.size(); ++i) {
        const AnnotationMark& mark = scene.annotations[i];
        if (!inView(scene, mark))
            continue;
        const ColumnSpan span = columnsOf(std::clamp(scene.axis.timeToX(mark.start), -1e6, 1e6),
            std::clamp(scene.axis.timeToX(std::max(mark.start, mark.end)), -1e6, 1e6));
        int left = std::max(lanesLeft, span.first + scene.labelWidth);
        int right = std::min(lanesRight, span.last + scene.labelWidth);
        if (right - left < kMinBracketWidth) {
            const int centre = (left + right) / 2;
            left = std::max(lanesLeft, centre - kMinBracketWidth / 2);
            right = std::min(lanesRight, left + kMinBracketWidth);
        }
        if (right <= left)
            continue;
        rects[i] = QRect(
            left, scene.rulerHeight + rows[i] * kAnnotationRowHeight + 1, right - left, kAnnotationRowHeight - 2);
    }
    return rects;
}

std::vector<std::optional<QRect>> annotationCalloutRects(const TimelineScene& scene, const QFont& font)
{
    std::vector<std::optional<QRect>> boxes(scene.annotations.size());
    if (!scene.annotationCallouts)
        return boxes;
    const std::vector<std::optional<QRect>> brackets = annotationBracketRects(scene);
    const QRect lanes = TimelinePainter::lanesRect(scene);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < brackets.size(); ++i) {
        if (brackets[i])
            order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return brackets[a]->left() < brackets[b]->left(); });
    std::vector<QRect> placed;
    for (const std::size_t i : order) {
        const AnnotationMark& mark = scene.annotations[i];
        const QRect& bracket = *brackets[i];
        const int width = calloutWidth(mark, font, lanes.width());
        const int height = calloutHeight(calloutText(mark, font, width - 2 * kCalloutPadding - 4), font);
        // Beside the range, so that what the note is about stays visible; inside it only when it is wide.
        int x = bracket.right() + 1 + kCalloutGapPx;
        if (x + width > lanes.right() - 2)
            x = bracket.left() - kCalloutGapPx - width;
        if (x < lanes.left() + 2)
            x = std::clamp(bracket.left() + kCalloutGapPx, lanes.left() + 2,
                std::max(lanes.left() + 2, lanes.right() - 2 - width));
        QRect box(x, lanes.top() + 8, width, height);
        // Slide down past the boxes already placed until it overlaps none.
        for (bool moved = true; moved;) {
            moved = false;
            for (const QRect& other : placed) {
                if (box.intersects(
                        other.adjusted(-kCalloutSpacing, -kCalloutSpacing, kCalloutSpacing, kCalloutSpacing))) {
                    box.moveTop(other.bottom() + 1 + kCalloutSpacing);
                    moved = true;
                }
            }
        }
        placed.push_back(box);
        boxes[i] = box;
    }
    return boxes;
}

namespace {

/// The screen rows [top, bottom] of the lanes a mark's guide lines run down: the lanes area, or the part of it
/// its processes' rows take (an empty rectangle when none of them is laid out).
QRect guideArea(const TimelineScene& scene, const AnnotationMark& mark, const QRect& lanes)
{
    if (!mark.processes || !scene.layout)
        return lanes;
    std::optional<int> top;
    std::optional<int> bottom;
    for (const LayoutRow& row : scene.layout->rows()) {
        if (row.process.value < mark.processes->first || row.process.value >= mark.processes->second)
            continue;
        top = std::min(top.value_or(row.y), row.y);
        bottom = std::max(bottom.value_or(row.y + row.height), row.y + row.height);
    }
    if (!top)
        return {};
    const int screenTop = TimelinePainter::contentYToScreen(scene, *top);
    const int screenBottom = TimelinePainter::contentYToScreen(scene, *bottom);
    return lanes.intersected(QRect(lanes.left(), screenTop, lanes.width(), screenBottom - screenTop));
}

} // namespace

void paintAnnotations(QPainter& painter, const TimelineScene& scene)
{
    const int stripHeight = annotationStripHeight(scene);
    if (stripHeight == 0)
        return;
    const std::vector<std::optional<QRect>> brackets = annotationBracketRects(scene);
    const QRect lanes = TimelinePainter::lanesRect(scene);
    const QRect strip(0, scene.rulerHeight, scene.width, stripHeight);
    painter.save();

    // Each range's edges over the lanes, as thin lines: no tint over the range, so that a gap band under a
    // note keeps the colour of its cause that the legend shows.
    for (std::size_t i = 0; i < brackets.size(); ++i) {
        const QRect area = guideArea(scene, scene.annotations[i], lanes);
        if (!brackets[i] || area.isEmpty())
            continue;
        painter.setClipRect(area);
        QColor edge = scene.annotations[i].colour;
        edge.setAlpha(scene.annotations[i].selected ? 200 : 130);
        painter.fillRect(QRect(brackets[i]->left(), area.top(), 1, area.height()), edge);
        painter.fillRect(QRect(brackets[i]->right(), area.top(), 1, area.height()), edge);
    }

    painter.setClipRect(strip);
    painter.fillRect(strip, QColor(0xfa, 0xfa, 0xfb));
    painter.fillRect(QRect(0, strip.top(), scene.labelWidth, strip.height()), rulerBackground());
    painter.setPen(textColor());
    painter.drawText(QRect(8, strip.top(), scene.labelWidth - 12, std::min(strip.height(), kAnnotationRowHeight)),
        Qt::AlignVCenter | Qt::AlignLeft, QStringLiteral("notes"));
    painter.setPen(QColor(0xb0, 0xb5, 0xbb));
    painter.drawLine(0, strip.bottom(), scene.width, strip.bottom());
    painter.drawLine(scene.labelWidth - 1, strip.top(), scene.labelWidth - 1, strip.bottom());

    painter.setClipRect(QRect(scene.labelWidth, strip.top(), lanes.width(), strip.height()));
    const QFont normal = painter.font();
    const QFont bold = boldOf(normal);
    for (std::size_t i = 0; i < brackets.size(); ++i) {
        if (!brackets[i])
            continue;
        const AnnotationMark& mark = scene.annotations[i];
        const QRect& r = *brackets[i];
        const int lineY = r.bottom() - 3;
        QColor chip = mark.colour;
        chip.setAlpha(mark.selected ? 90 : 50);
        painter.fillRect(QRect(r.left(), r.top(), r.width(), lineY - r.top()), chip);
        // Filled rectangles rather than wide pens: exactly these pixels, on any paint device.
        const int thickness = mark.selected ? 3 : 2;
        painter.fillRect(QRect(r.left(), lineY - thickness + 1, r.width(), thickness), mark.colour);
        painter.fillRect(QRect(r.left(), lineY, std::min(2, r.width()), r.bottom() + 1 - lineY), mark.colour);
        painter.fillRect(QRect(r.right() - 1, lineY, std::min(2, r.width()), r.bottom() + 1 - lineY), mark.colour);
        if (r.width() >= kMinLabelWidth) {
            painter.setFont(mark.selected ? bold : normal);
            painter.setPen(textColor());
            const QRect text(r.left() + 3, r.top(), r.width() - 6, lineY - r.top());
            painter.drawText(text, Qt::AlignVCenter | Qt::AlignLeft,
                painter.fontMetrics().elidedText(mark.title, Qt::ElideRight, text.width()));
        }
    }
    painter.setFont(normal);

    if (scene.annotationCallouts) {
        const std::vector<std::optional<QRect>> boxes = annotationCalloutRects(scene, normal);
        painter.setClipRect(QRect(scene.labelWidth, strip.top(), lanes.width(), lanes.bottom() + 1 - strip.top()));
        painter.setRenderHint(QPainter::Antialiasing, false);
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            if (!boxes[i] || !brackets[i])
                continue;
            const AnnotationMark& mark = scene.annotations[i];
            const QRect& box = *boxes[i];
            const QRect& bracket = *brackets[i];
            // Leader: down from the bracket's end nearest the box, then across to the box.
            const int anchorX = box.left() > bracket.right() ? bracket.right()
                : box.right() < bracket.left()               ? bracket.left()
                                               : std::clamp(box.left() + 12, bracket.left(), bracket.right());
            const int elbowY = box.top() + 12;
            painter.setPen(QPen(mark.colour, 2));
            painter.drawLine(anchorX, bracket.bottom(), anchorX, elbowY);
            if (box.left() > anchorX)
                painter.drawLine(anchorX, elbowY, box.left(), elbowY);
            else if (box.right() < anchorX)
                painter.drawLine(box.right(), elbowY, anchorX, elbowY);

            const int textWidth = box.width() - 2 * kCalloutPadding - 4;
            const CalloutText text = calloutText(mark, normal, textWidth);
            painter.fillRect(box, QColor(0xff, 0xff, 0xff));
            painter.fillRect(QRect(box.left(), box.top(), 4, box.height()), mark.colour);
            painter.setPen(QPen(mark.colour, 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(box.adjusted(1, 1, -1, -1));
            int y = box.top() + kCalloutPadding;
            const int x = box.left() + kCalloutPadding + 4;
            painter.setPen(textColor());
            painter.setFont(bold);
            const int titleLine = QFontMetrics(bold).lineSpacing();
            for (const QString& line : text.title) {
                painter.drawText(QRect(x, y, textWidth, titleLine), Qt::AlignVCenter | Qt::AlignLeft, line);
                y += titleLine;
            }
            painter.setFont(normal);
            painter.setPen(QColor(0x37, 0x41, 0x4b));
            y += 3;
            const int line = QFontMetrics(normal).lineSpacing();
            for (const QString& l : text.hypothesis) {
                painter.drawText(QRect(x, y, textWidth, line), Qt::AlignVCenter | Qt::AlignLeft, l);
                y += line;
            }
        }
    }
    painter.restore();
}

} // namespace gapscope::timeline
