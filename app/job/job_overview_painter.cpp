// SPDX-License-Identifier: MIT
#include "app/job/job_overview_painter.h"

#include "core/analysis/analysis.h"
#include "core/model/time_format.h"

#include <QPainter>

#include <algorithm>
#include <array>
#include <cmath>

namespace gapscope::timeline {

namespace {

constexpr int kMaxRowHeight = 16;
constexpr int kMaxRowsHeight = 224;
const QColor kNoData(236, 236, 236);
const QColor kStraggler(200, 30, 30);
const QColor kSelection(20, 90, 200);

// Idle (0) pale orange to busy (1) deep blue: idle stands out.
std::array<QRgb, 256> makeRamp()
{
    std::array<QRgb, 256> ramp {};
    const QColor idle(253, 224, 200);
    const QColor half(158, 202, 225);
    const QColor busy(8, 69, 148);
    for (int i = 0; i < 256; ++i) {
        const double t = i / 255.0;
        const QColor& a = t < 0.5 ? idle : half;
        const QColor& b = t < 0.5 ? half : busy;
        const double u = t < 0.5 ? t * 2.0 : (t - 0.5) * 2.0;
        ramp[static_cast<std::size_t>(i)] = qRgb(static_cast<int>(a.red() + (b.red() - a.red()) * u),
            static_cast<int>(a.green() + (b.green() - a.green()) * u),
            static_cast<int>(a.blue() + (b.blue() - a.blue()) * u));
    }
    return ramp;
}

const std::array<QRgb, 256>& ramp()
{
    static const std::array<QRgb, 256> colours = makeRamp();
    return colours;
}

QColor skewColour(double fraction)
{
    // Yellow (small skew) to red (the largest).
    const double f = std::clamp(fraction, 0.0, 1.0);
    return QColor(static_cast<int>(240 - 50 * f), static_cast<int>(190 - 160 * f), static_cast<int>(40 - 10 * f));
}

} // namespace

QRgb JobOverviewPainter::colourOf(float utilization)
{
    if (utilization < 0.0f)
        return kNoData.rgb();
    return ramp()[static_cast<std::size_t>(std::clamp(utilization, 0.0f, 1.0f) * 255.0f + 0.5f)];
}

int JobOverviewPainter::preferredHeight(std::size_t ranks)
{
    const int rows = static_cast<int>(std::min<std::size_t>(ranks * kMaxRowHeight, kMaxRowsHeight));
    return kMarkerHeight + std::max(rows, 8) + kLegendHeight + 2;
}

QRect JobOverviewPainter::rowsRect(const JobOverviewScene& scene)
{
    return QRect(scene.rect.left(), scene.rect.top() + kMarkerHeight, scene.rect.width(),
        std::max(0, scene.rect.height() - kMarkerHeight - kLegendHeight - 2));
}

QRect JobOverviewPainter::legendRect(const JobOverviewScene& scene)
{
    return QRect(scene.rect.left(), scene.rect.bottom() - 1 - kLegendHeight, scene.rect.width(), kLegendHeight);
}

QRect JobOverviewPainter::legendRampRect(const JobOverviewScene& scene)
{
    // In the time area, after the caption that the label column holds.
    const QRect legend = legendRect(scene);
    return QRect(scene.timeLeft + 34, legend.top() + 4, 120, legend.height() - 8);
}

double JobOverviewPainter::rowHeight(const JobOverviewScene& scene)
{
    const std::size_t rows = scene.job ? scene.job->rankCount() : 0;
    if (rows == 0)
        return 0.0;
    return std::min<double>(kMaxRowHeight, static_cast<double>(rowsRect(scene).height()) / static_cast<double>(rows));
}

std::optional<std::size_t> JobOverviewPainter::rowAt(const JobOverviewScene& scene, int y)
{
    const double h = rowHeight(scene);
    if (h <= 0.0)
        return std::nullopt;
    const double offset = y - rowsRect(scene).top();
    if (offset < 0.0)
        return std::nullopt;
    const auto row = static_cast<std::size_t>(offset / h);
    if (row >= scene.job->rankCount())
        return std::nullopt;
    return row;
}

std::optional<std::size_t> JobOverviewPainter::collectiveAt(const JobOverviewScene& scene, int x, int slop)
{
    if (!scene.job)
        return std::nullopt;
    const auto& collectives = scene.job->analysis.collectives;
    const TimeNs from = scene.axis.xToTime(x - scene.timeLeft - slop);
    const TimeNs to = scene.axis.xToTime(x - scene.timeLeft + slop + 1);
    auto it = std::lower_bound(collectives.begin(), collectives.end(), from,
        [](const MatchedCollective& c, TimeNs t) { return c.firstArrival() < t; });
    std::optional<std::size_t> best;
    for (; it != collectives.end() && it->firstArrival() < to; ++it) {
        const auto index = static_cast<std::size_t>(it - collectives.begin());
        if (!best || it->skewNs > collectives[*best].skewNs)
            best = index;
    }
    return best;
}

QImage JobOverviewPainter::makeImage(const JobHeatmap& heatmap)
{
    QImage image(std::max(1, heatmap.columns), std::max(1, heatmap.rows), QImage::Format_RGB32);
    for (int row = 0; row < heatmap.rows; ++row) {
        auto* line = reinterpret_cast<QRgb*>(image.scanLine(row));
        const float* values = heatmap.values.data() + static_cast<std::size_t>(row) * heatmap.columns;
        for (int c = 0; c < heatmap.columns; ++c)
            line[c] = colourOf(values[c]);
    }
    return image;
}

const QImage& JobOverviewPainter::imageOf(const JobHeatmap& heatmap) const
{
    if (!heatmap.image.isNull())
        return heatmap.image;
    if (m_imageOf != heatmap.id || m_image.isNull()) {
        m_imageOf = heatmap.id;
        m_image = makeImage(heatmap);
    }
    return m_image;
}

void JobOverviewPainter::paint(QPainter& painter, const JobOverviewScene& scene) const
{
    painter.fillRect(scene.rect, QColor(250, 250, 250));
    if (!scene.job || scene.job->rankCount() == 0) // no ranked process: nothing to draw (and no rows to divide by)
        return;
    const QRect rows = rowsRect(scene);
    const double h = rowHeight(scene);
    const QRect timeArea(scene.timeLeft, scene.rect.top(), static_cast<int>(scene.axis.width), scene.rect.height());
    const int rowsBottom = rows.top() + static_cast<int>(std::ceil(h * static_cast<double>(scene.job->rankCount())));
    painter.save();
    painter.setClipRect(timeArea);
    painter.fillRect(QRect(timeArea.left(), rows.top(), timeArea.width(), rowsBottom - rows.top()), kNoData);
    if (scene.heatmap && scene.heatmap->rows == static_cast<int>(scene.job->rankCount()) && scene.heatmap->rows > 0) {
        const JobHeatmap& map = *scene.heatmap;
        const double x0 = scene.timeLeft + scene.axis.timeToX(map.start);
        const double x1 = scene.timeLeft + scene.axis.timeToX(map.end);
        painter.drawImage(QRectF(x0, rows.top(), x1 - x0, rowsBottom - rows.top()), imageOf(map));
    }
    paintMarkers(painter, scene);
    paintSelection(painter, scene);
    painter.restore();
    paintLabels(painter, scene);
    paintLegend(painter, scene);
    painter.setPen(QColor(180, 180, 180));
    painter.drawLine(scene.rect.left(), scene.rect.bottom(), scene.rect.right(), scene.rect.bottom());
}

void JobOverviewPainter::paintMarkers(QPainter& painter, const JobOverviewScene& scene) const
{
    const auto& collectives = scene.job->analysis.collectives;
    if (m_skewSource != scene.job) {
        m_skewSource = scene.job;
        m_maxSkew = 0;
        for (const MatchedCollective& c : collectives)
            m_maxSkew = std::max(m_maxSkew, c.skewNs);
    }
    const int top = scene.rect.top();
    painter.fillRect(QRect(scene.timeLeft, top, static_cast<int>(scene.axis.width), kMarkerHeight), Qt::white);
    if (collectives.empty())
        return;
    // The largest skew per pixel column: thousands of collectives per column draw as one tick.
    const int width = static_cast<int>(std::ceil(scene.axis.width));
    std::vector<TimeNs> columnSkew(static_cast<std::size_t>(std::max(1, width)), -1);
    auto it = std::lower_bound(collectives.begin(), collectives.end(), scene.axis.start,
        [](const MatchedCollective& c, TimeNs t) { return c.firstArrival() < t; });
    for (; it != collectives.end() && it->firstArrival() < scene.axis.end; ++it) {
        const auto column = static_cast<std::size_t>(std::clamp<double>(
            scene.axis.timeToX(it->firstArrival()), 0.0, static_cast<double>(columnSkew.size() - 1)));
        columnSkew[column] = std::max(columnSkew[column], it->skewNs);
    }
    const int maxHeight = kMarkerHeight - 3;
    const QRect rows = rowsRect(scene);
    const int rowsHeight = static_cast<int>(std::ceil(rowHeight(scene) * static_cast<double>(scene.job->rankCount())));
    // Ticks batched by colour level (one drawRects call per level): a thousand ticks cost a few calls.
    constexpr int kLevels = 16;
    std::array<std::vector<QRect>, kLevels> ticks;
    std::vector<QLine> lines;
    for (std::size_t column = 0; column < columnSkew.size(); ++column) {
        if (columnSkew[column] < 0)
            continue;
        const double fraction
            = m_maxSkew > 0 ? static_cast<double>(columnSkew[column]) / static_cast<double>(m_maxSkew) : 0.0;
        const int level = std::clamp(static_cast<int>(fraction * kLevels), 0, kLevels - 1);
        const int height = 6 + static_cast<int>(std::lround(fraction * (maxHeight - 6)));
        const int x = scene.timeLeft + static_cast<int>(column);
        ticks[static_cast<std::size_t>(level)].emplace_back(x - 1, top + kMarkerHeight - 1 - height, 3, height);
        lines.emplace_back(x, rows.top(), x, rows.top() + rowsHeight - 1);
    }
    painter.setPen(Qt::NoPen);
    for (int level = 0; level < kLevels; ++level) {
        const auto& rects = ticks[static_cast<std::size_t>(level)];
        if (rects.empty())
            continue;
        painter.setBrush(skewColour((level + 0.5) / kLevels));
        painter.drawRects(rects.data(), static_cast<int>(rects.size()));
    }
    // A faint line down the rows where each collective starts, while they are few enough to tell apart.
    painter.setBrush(Qt::NoBrush);
    if (lines.size() <= 256) {
        painter.setPen(QPen(QColor(200, 60, 30, 80), 0));
        painter.drawLines(lines.data(), static_cast<int>(lines.size()));
    }
}

void JobOverviewPainter::paintSelection(QPainter& painter, const JobOverviewScene& scene) const
{
    const JobData& job = *scene.job;
    const QRect rows = rowsRect(scene);
    const double h = rowHeight(scene);
    // The straggler's row: outlined across the heatmap.
    if (const auto straggler = job.stragglerRow()) {
        painter.setPen(QPen(kStraggler, 2));
        painter.setBrush(Qt::NoBrush);
        const double y = rows.top() + h * static_cast<double>(*straggler);
        painter.drawRect(QRectF(scene.timeLeft + 1, y, scene.axis.width - 2, std::max(h, 2.0)));
    }
    if (!scene.selectedCollective || *scene.selectedCollective >= job.analysis.collectives.size())
        return;
    const MatchedCollective& c = job.analysis.collectives[*scene.selectedCollective];
    TimeNs first = c.firstArrival();
    TimeNs last = first;
    for (std::size_t row = 0; row < c.arrivals.size(); ++row) {
        if (!c.arrivals[row])
            continue;
        last = std::max(last, *c.arrivals[row]);
        const double x = scene.timeLeft + scene.axis.timeToX(*c.arrivals[row]);
        const double y = rows.top() + h * static_cast<double>(row);
        painter.fillRect(QRectF(x - 1, y, 3, std::max(h, 1.0)), Qt::black);
    }
    // The arrival spread as a bracket in the marker strip: first arrival to last arrival.
    const double x0 = scene.timeLeft + scene.axis.timeToX(first);
    const double x1 = std::max(x0 + 1, scene.timeLeft + scene.axis.timeToX(last));
    const double y = scene.rect.top() + 3;
    painter.setPen(QPen(kSelection, 2));
    painter.drawLine(QPointF(x0, y), QPointF(x1, y));
    painter.drawLine(QPointF(x0, y), QPointF(x0, scene.rect.top() + kMarkerHeight));
    painter.drawLine(QPointF(x1, y), QPointF(x1, scene.rect.top() + kMarkerHeight));
}

void JobOverviewPainter::paintLabels(QPainter& painter, const JobOverviewScene& scene) const
{
    const JobData& job = *scene.job;
    const QRect labels(scene.rect.left(), scene.rect.top(), scene.timeLeft - scene.rect.left(), scene.rect.height());
    painter.fillRect(labels, QColor(242, 242, 242));
    const QRect rows = rowsRect(scene);
    const double h = rowHeight(scene);
    QFont font = painter.font();
    font.setPixelSize(11);
    painter.setFont(font);
    painter.setPen(QColor(40, 40, 40));
    // The row labels' utilization is over each rank's own window: the title says which (docs/definitions.md).
    const std::string_view window = job.rankCount() > 0 ? windowKindName(job.summaryOfRow(0).window) : "gpu";
    QString title = QStringLiteral("Job: %1 ranks, %2 collectives; %3 window")
                        .arg(job.rankCount())
                        .arg(job.analysis.collectives.size())
                        .arg(QString::fromUtf8(window.data(), static_cast<qsizetype>(window.size())));
    painter.drawText(QRect(labels.left() + 6, scene.rect.top(), labels.width() - 8, kMarkerHeight),
        Qt::AlignVCenter | Qt::AlignLeft, title);
    const auto straggler = job.stragglerRow();
    if (h >= 10.0) {
        for (std::size_t row = 0; row < job.rankCount(); ++row) {
            const RankSkewFigures& r = job.analysis.perRank[row];
            const RankSummary& s = job.summaryOfRow(row);
            const TimeNs span = s.spanNs();
            const double util = span > 0 ? 100.0 * static_cast<double>(s.busyNs()) / static_cast<double>(span) : 0.0;
            QString text
                = QStringLiteral("rank %1  %2 %").arg(r.rank).arg(util, 0, 'f', 2); // as Details and the Ranks dock
            if (straggler == row)
                text += QStringLiteral("  straggler (last %1x)").arg(r.timesLast);
            painter.setPen(straggler == row ? kStraggler : QColor(40, 40, 40));
            const QRectF box(labels.left() + 14, rows.top() + h * static_cast<double>(row), labels.width() - 16, h);
            painter.drawText(box, Qt::AlignVCenter | Qt::AlignLeft, text);
        }
    } else {
        painter.drawText(QRect(labels.left() + 14, rows.top(), labels.width() - 16, 14), Qt::AlignLeft,
            QStringLiteral("ranks %1 to %2 (top to bottom)")
                .arg(job.analysis.perRank.front().rank)
                .arg(job.analysis.perRank.back().rank));
        if (straggler) {
            painter.setPen(kStraggler);
            const double y = rows.top() + h * static_cast<double>(*straggler);
            painter.drawText(
                QRectF(labels.left() + 14, std::min<double>(y, rows.bottom() - 14), labels.width() - 16, 14),
                Qt::AlignLeft, QStringLiteral("straggler: rank %1 \u25b6").arg(job.analysis.perRank[*straggler].rank));
        }
    }
    if (straggler) {
        const double y = rows.top() + h * static_cast<double>(*straggler);
        painter.fillRect(QRectF(labels.left() + 3, y, 6, std::max(h, 2.0)), kStraggler);
    }
}

void JobOverviewPainter::paintLegend(QPainter& painter, const JobOverviewScene& scene) const
{
    const QRect legend = legendRect(scene);
    painter.fillRect(legend, QColor(250, 250, 250));
    QFont font = painter.font();
    font.setPixelSize(11);
    painter.setFont(font);
    painter.setPen(QColor(40, 40, 40));
    // Each cell is the share of its time bin that the rank's GPUs were busy (the utilization's rule, per bin).
    painter.drawText(QRect(legend.left() + 6, legend.top(), scene.timeLeft - legend.left() - 8, legend.height()),
        Qt::AlignVCenter | Qt::AlignRight, QStringLiteral("colour: GPU busy share per time bin"));
    const QRect ramp = legendRampRect(scene);
    const QRect left(scene.timeLeft, legend.top(), ramp.left() - scene.timeLeft - 4, legend.height());
    painter.drawText(left, Qt::AlignVCenter | Qt::AlignRight, QStringLiteral("0 %"));
    for (int x = 0; x < ramp.width(); ++x) {
        const float share = ramp.width() > 1 ? static_cast<float>(x) / static_cast<float>(ramp.width() - 1) : 0.0f;
        painter.fillRect(QRect(ramp.left() + x, ramp.top(), 1, ramp.height()), QColor(colourOf(share)));
    }
    int x = ramp.right() + 5;
    const QFontMetrics metrics(font);
    const auto caption = [&](const QString& text) {
        const int width = metrics.horizontalAdvance(text);
        painter.setPen(QColor(40, 40, 40));
        painter.drawText(QRect(x, legend.top(), width + 2, legend.height()), Qt::AlignVCenter | Qt::AlignLeft, text);
        x += width + 14;
    };
    caption(QStringLiteral("100 %"));
    painter.fillRect(QRect(x, ramp.top(), 14, ramp.height()), kNoData);
    x += 18;
    caption(QStringLiteral("no data (outside the rank's window)"));
    painter.fillRect(QRect(x, ramp.top(), 3, ramp.height()), skewColour(1.0));
    x += 7;
    const TimeNs maxSkew = scene.job ? m_maxSkew : 0;
    caption(maxSkew > 0 ? QStringLiteral("tick: a collective's arrival skew (taller, redder: up to %1)")
                              .arg(QString::fromStdString(formatDuration(maxSkew)))
                        : QStringLiteral("tick: a collective's arrival skew"));
}

} // namespace gapscope::timeline
