// SPDX-License-Identifier: MIT
#include "app/timeline/counter_painter.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace gapscope::timeline {

QColor counterTrackColor(std::size_t i)
{
    return i == 0 ? QColor(0x3b, 0x7d, 0xd8) : QColor(0xd8, 0x6b, 0x1e);
}

QString counterValueText(double value, const std::string& unit)
{
    if (unit == "bytes") {
        static const char* const kUnits[] = { "B", "KB", "MB", "GB", "TB" };
        double v = value;
        int u = 0;
        while (std::abs(v) >= 1000.0 && u < 4) {
            v /= 1000.0;
            ++u;
        }
        return QStringLiteral("%1 %2").arg(v, 0, 'f', u == 0 ? 0 : 1).arg(QString::fromLatin1(kUnits[u]));
    }
    const QString number = std::abs(value) >= 1e6 ? QString::number(value, 'g', 3) : QString::number(value, 'f', 1);
    return unit.empty() ? number : number + QStringLiteral(" ") + QString::fromStdString(unit);
}

void paintCounterLane(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache)
{
    const int columns = static_cast<int>(scene.axis.width);
    const int height = row.height - 4;
    const int bottom = top + row.height - 2;
    double scale = 0.0;
    for (const std::uint32_t t : row.counterTracks)
        scale = std::max(scale, cache.counter(*scene.trace, *scene.index, t, columns).top);
    if (scale <= 0.0 || height <= 0)
        return;
    const auto yOf
        = [&](double v) { return bottom - static_cast<int>(std::lround(std::clamp(v / scale, 0.0, 1.0) * height)); };
    for (std::size_t i = 0; i < row.counterTracks.size() && i < 2; ++i) {
        const CounterDrawList& list = cache.counter(*scene.trace, *scene.index, row.counterTracks[i], columns);
        const QColor colour = counterTrackColor(i);
        QColor fill = colour;
        fill.setAlpha(110);
        // Runs of columns with the same extent become one rectangle: a flat stretch of a million points is one
        // fill.
        int runStart = list.firstColumn;
        int runTop = -1;
        int runBottom = -1;
        const auto flush = [&](int end) {
            if (runTop < 0 || end <= runStart)
                return;
            const int left = scene.labelWidth + runStart;
            if (i == 0)
                painter.fillRect(QRect(left, runTop, end - runStart, bottom - runTop), fill);
            painter.fillRect(QRect(left, runTop, end - runStart, std::max(1, runBottom - runTop + 1)), colour);
        };
        for (std::size_t c = 0; c < list.columns.size(); ++c) {
            const CounterColumn& column = list.columns[c];
            const int high = yOf(column.max);
            const int low = yOf(column.min);
            if (high != runTop || low != runBottom) {
                const int x = list.firstColumn + static_cast<int>(c);
                flush(x);
                runStart = x;
                runTop = high;
                runBottom = low;
            }
        }
        flush(list.firstColumn + static_cast<int>(list.columns.size()));
    }
    // The scale, so that the height reads as a value.
    const CounterTrack& first = scene.trace->counters().tracks()[row.counterTracks.front()];
    painter.setPen(QColor(0x55, 0x55, 0x55));
    painter.drawText(QRect(scene.labelWidth + 4, top, 200, row.height), Qt::AlignTop | Qt::AlignLeft,
        counterValueText(scale, first.unit));
}

void paintSampleStrip(
    QPainter& painter, const TimelineScene& scene, const LayoutRow& row, int top, DrawListCache& cache)
{
    const auto strip = scene.layout->sampleStripTop(row);
    if (!strip || !row.samples)
        return;
    const int y = top + (*strip - row.y);
    const int height = scene.layout->metrics().sampleRowHeight - 1;
    const int columns = static_cast<int>(scene.axis.width);
    const std::vector<std::uint32_t>& counts = cache.samples(*scene.trace, *row.samples, columns);
    for (int c = 0; c < columns; ++c) {
        const std::uint32_t n = counts[static_cast<std::size_t>(c)];
        if (n == 0)
            continue;
        // One sample a faint tick, four or more a dark one.
        const int alpha = std::min(255, 100 + 40 * static_cast<int>(n));
        painter.fillRect(QRect(scene.labelWidth + c, y, 1, height), QColor(0x20, 0x20, 0x20, alpha));
    }
}

} // namespace gapscope::timeline
