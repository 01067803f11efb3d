// SPDX-License-Identifier: MIT
#include "app/job/job_overview.h"

#include "core/model/time_format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace gapscope::timeline {

namespace {

constexpr int kClickSlopPx = 3;
constexpr double kWheelZoomPerStep = 1.25;
constexpr TimeNs kMinVisibleSpanNs = 20;

} // namespace

JobOverview::JobOverview(TimelineState* state, QWidget* lanes, int labelWidth, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_lanes(lanes)
    , m_labelWidth(labelWidth)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(m_state, &TimelineState::visibleRangeChanged, this, [this] {
        update();
        emit heatmapWanted();
    });
}

void JobOverview::setJob(std::shared_ptr<const JobData> job)
{
    m_job = std::move(job);
    m_heatmap.reset();
    m_selected.reset();
    setFixedHeight(JobOverviewPainter::preferredHeight(m_job ? m_job->rankCount() : 0));
    update();
    emit heatmapWanted();
}

void JobOverview::setHeatmap(std::shared_ptr<const JobHeatmap> heatmap)
{
    m_heatmap = std::move(heatmap);
    update();
}

void JobOverview::setSelectedCollective(std::optional<std::size_t> collective)
{
    m_selected = collective;
    update();
}

int JobOverview::timeLeft() const
{
    // Aligned with the lanes' time area, wherever the two widgets sit.
    const QWidget* top = window();
    return m_lanes->mapTo(top, QPoint(m_labelWidth, 0)).x() - mapTo(top, QPoint(0, 0)).x();
}

TimeAxis JobOverview::axis() const
{
    const auto [start, end] = m_state->visibleRange();
    const int width = std::max(1, std::min(m_lanes->width() - m_labelWidth, this->width() - timeLeft()));
    return TimeAxis { start, std::max(end, start + 1), static_cast<double>(width) };
}

JobOverviewScene JobOverview::scene() const
{
    JobOverviewScene s;
    s.job = m_job.get();
    s.heatmap = m_heatmap.get();
    s.axis = axis();
    s.rect = rect();
    s.timeLeft = timeLeft();
    s.selectedCollective = m_selected;
    return s;
}

QPoint JobOverview::rowCentre(std::size_t row) const
{
    const JobOverviewScene s = scene();
    const double h = JobOverviewPainter::rowHeight(s);
    return QPoint(s.timeLeft + static_cast<int>(s.axis.width / 2),
        JobOverviewPainter::rowsRect(s).top() + static_cast<int>(h * (static_cast<double>(row) + 0.5)));
}

std::optional<QPoint> JobOverview::markerPoint(std::size_t collective) const
{
    if (!m_job || collective >= m_job->analysis.collectives.size())
        return std::nullopt;
    const JobOverviewScene s = scene();
    const double x = s.axis.timeToX(m_job->analysis.collectives[collective].firstArrival());
    if (x < 0 || x >= s.axis.width)
        return std::nullopt;
    return QPoint(s.timeLeft + static_cast<int>(x), JobOverviewPainter::kMarkerHeight - 4);
}

NavigationLimits JobOverview::limits() const
{
    const auto [start, end] = m_state->bounds();
    return NavigationLimits { start, end, kMinVisibleSpanNs, 0.05 };
}

void JobOverview::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    m_painter.paint(painter, scene());
}

void JobOverview::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    emit heatmapWanted();
}

void JobOverview::mousePressEvent(QMouseEvent* event)
{
    m_pressPos = m_lastPos = event->position().toPoint();
    m_dragging = event->button() == Qt::LeftButton && m_pressPos.x() >= timeLeft();
}

void JobOverview::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_dragging && (event->buttons() & Qt::LeftButton)) {
        const TimeAxis moved = panByPixels(axis(), pos.x() - m_lastPos.x(), limits());
        m_lastPos = pos;
        m_state->setVisibleRange({ moved.start, moved.end }, TimelineState::History::Coalesce);
        return;
    }
    if (!m_job)
        return;
    const JobOverviewScene s = scene();
    QString tip;
    if (pos.y() < JobOverviewPainter::kMarkerHeight) {
        if (const auto c = JobOverviewPainter::collectiveAt(s, pos.x())) {
            const MatchedCollective& m = m_job->analysis.collectives[*c];
            tip = tr("%1\nskew %2, last rank %3, end spread %4\nclick: select its kernels on every rank")
                      .arg(QString::fromStdString(m.name), QString::fromStdString(formatDuration(m.skewNs)))
                      .arg(m.lastRank)
                      .arg(QString::fromStdString(formatDuration(m.endSpreadNs)));
        }
    } else if (const auto row = JobOverviewPainter::rowAt(s, pos.y())) {
        const RankSkewFigures& r = m_job->analysis.perRank[*row];
        tip = tr("rank %1: wait %2, last in %3 collectives")
                  .arg(r.rank)
                  .arg(QString::fromStdString(formatDuration(r.waitNs)))
                  .arg(r.timesLast);
        if (m_heatmap && pos.x() >= s.timeLeft && m_heatmap->rows == static_cast<int>(m_job->rankCount())) {
            const TimeNs t = s.axis.xToTime(pos.x() - s.timeLeft);
            if (t >= m_heatmap->start && t < m_heatmap->end) {
                const auto column = static_cast<int>(
                    (static_cast<double>(t - m_heatmap->start) / static_cast<double>(m_heatmap->end - m_heatmap->start))
                    * m_heatmap->columns);
                const float u = m_heatmap->at(static_cast<int>(*row), std::clamp(column, 0, m_heatmap->columns - 1));
                if (u >= 0.0f)
                    tip += tr("\nutilization here %1 %").arg(100.0 * u, 0, 'f', 1);
            }
        }
        tip += tr("\nclick: show its lanes");
    }
    setToolTip(tip);
}

void JobOverview::mouseReleaseEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    const bool click = (pos - m_pressPos).manhattanLength() <= kClickSlopPx;
    m_dragging = false;
    if (!click || event->button() != Qt::LeftButton || !m_job)
        return;
    const JobOverviewScene s = scene();
    if (pos.y() < JobOverviewPainter::kMarkerHeight) {
        if (const auto c = JobOverviewPainter::collectiveAt(s, pos.x()))
            emit collectiveClicked(*c);
    } else if (const auto row = JobOverviewPainter::rowAt(s, pos.y())) {
        emit rankClicked(*row);
    }
}

void JobOverview::wheelEvent(QWheelEvent* event)
{
    const double steps = event->angleDelta().y() / 120.0;
    if (steps == 0.0)
        return;
    const double anchor = std::clamp(event->position().x() - timeLeft(), 0.0, axis().width);
    const TimeAxis zoomed = zoomAround(axis(), anchor, std::pow(kWheelZoomPerStep, steps), limits());
    m_state->setVisibleRange({ zoomed.start, zoomed.end }, TimelineState::History::Coalesce);
    event->accept();
}

} // namespace gapscope::timeline
