// SPDX-License-Identifier: MIT
#include "app/job/job_session.h"

#include "app/job/ranks_dock.h"
#include "app/models/event_details.h"
#include "core/model/time_format.h"
#include "core/summary/summary_json.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QMainWindow>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

namespace gapscope::app {

namespace {

constexpr int kMaxHeatmapColumns = 4096;

// The kernel of a rank's process that starts at a collective's arrival (a collective by name, or ending where
// the match says it ends).
std::optional<EventRef> kernelAt(const Trace& trace, ProcessIndex process, TimeNs arrival, std::optional<TimeNs> end)
{
    std::optional<EventRef> fallback;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind != LaneKind::GpuStream || lane.process != process)
            continue;
        auto it = std::lower_bound(
            lane.events.begin(), lane.events.end(), arrival, [](const Event& e, TimeNs t) { return e.start < t; });
        for (; it != lane.events.end() && it->start == arrival; ++it) {
            if (it->kind != EventKind::Kernel)
                continue;
            const EventRef ref { LaneIndex { l }, static_cast<std::uint32_t>(it - lane.events.begin()) };
            if (isCollectiveKernelName(trace.name(*it)) || (end && it->end == *end))
                return ref;
            if (!fallback)
                fallback = ref;
        }
    }
    return fallback;
}

} // namespace

JobSession::JobSession(QMainWindow* window, timeline::TimelineView* view, timeline::TimelineState* state)
    : QObject(window)
    , m_window(window)
    , m_view(view)
    , m_state(state)
    , m_area(new QWidget(window))
    , m_overview(new timeline::JobOverview(state, view->canvas(), view->scene().labelWidth, m_area))
    , m_overlay(new timeline::JobLaneOverlay(view))
    , m_noLanes(new QLabel(m_area))
    , m_ranksDock(new RanksDock(window))
    , m_ranksDockWidget(new QDockWidget(tr("Ranks"), window))
{
    connect(view, &timeline::TimelineView::labelWidthChanged, m_overview, &timeline::JobOverview::setLabelWidth);
    auto* layout = new QVBoxLayout(m_area);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_overview);
    layout->addWidget(m_noLanes);
    layout->addWidget(view, 1);
    m_overview->hide();
    m_noLanes->hide();
    m_noLanes->setWordWrap(true);
    m_noLanes->setContentsMargins(8, 4, 8, 4);
    m_noLanes->setStyleSheet(QStringLiteral("background: #fff8e0; color: #604000;"));
    m_ranksDockWidget->setObjectName(QStringLiteral("ranksDock"));
    m_ranksDockWidget->setWidget(m_ranksDock);

    connect(m_overview, &timeline::JobOverview::heatmapWanted, this, &JobSession::requestHeatmap);
    connect(m_overview, &timeline::JobOverview::rankClicked, this, [this](std::size_t row) { revealRank(row); });
    connect(m_overview, &timeline::JobOverview::collectiveClicked, this, &JobSession::selectCollective);
    connect(m_ranksDock, &RanksDock::rankActivated, this, [this](std::size_t row) { revealRank(row); });
}

bool JobSession::areSummaryFiles(const QStringList& files)
{
    if (files.isEmpty())
        return false;
    for (const QString& file : files) {
        if (!isSummaryFile(file.toStdString()))
            return false;
    }
    return true;
}

void JobSession::setTrace(const timeline::LoadedTrace& loaded)
{
    m_loaded = loaded;
    m_build.drop();
    m_noLanes->hide();
    showJob(nullptr);
}

void JobSession::setAnalysis(const timeline::AnalysisSnapshot& analysis)
{
    // A comparison (File › Compare With…) holds two runs, not the ranks of one job.
    if (!m_loaded.trace || !analysis.result || m_loaded.trace->processes().size() < 2 || m_loaded.comparison) {
        m_build.drop();
        if (m_job)
            showJob(nullptr);
        return;
    }
    m_build.run(
        this,
        [trace = m_loaded.trace, result = analysis.result](
            std::stop_token stop) { return timeline::buildJobFromTrace(*trace, *result, stop); },
        [this](std::shared_ptr<const timeline::JobData> job) { showJob(std::move(job)); });
}

void JobSession::openSummaries(const QStringList& files)
{
    std::vector<std::string> paths;
    for (const QString& file : files)
        paths.push_back(file.toStdString());
    using Outcome = std::pair<std::shared_ptr<const timeline::JobData>, QString>;
    m_build.run(
        this,
        [paths](std::stop_token) -> Outcome {
            std::vector<RankSummary> summaries;
            for (const std::string& path : paths) {
                auto read = readSummaryFile(path);
                if (!read)
                    return { nullptr, QString::fromStdString(read.error().toString()) };
                for (RankSummary& s : read.value())
                    summaries.push_back(std::move(s));
            }
            sortByRank(summaries);
            return { timeline::buildJobFromSummaries(std::move(summaries), paths), {} };
        },
        [this](const Outcome& outcome) {
            if (!outcome.first) {
                emit failed(outcome.second);
                return;
            }
            // No lanes until a rank's trace is opened: the timeline is emptied, its axis spans the ranks' windows.
            m_loaded = {};
            m_view->setTrace({});
            if (const auto span = outcome.first->timeSpan())
                m_state->reset(span->first, span->second);
            m_noLanes->setText(tr("Job from %n rank summary file(s): the overview and the Ranks dock show every "
                                  "rank; there are no lanes until a rank's trace is opened (File \u203a Open).",
                nullptr, static_cast<int>(outcome.first->files.size())));
            m_noLanes->show();
            showJob(outcome.first);
        });
}

void JobSession::showJob(std::shared_ptr<const timeline::JobData> job)
{
    m_job = std::move(job);
    m_heatmap.drop();
    m_overlay->setSpread(std::nullopt);
    m_overview->setJob(m_job);
    m_overview->setVisible(m_job != nullptr);
    const TimeNs origin
        = m_loaded.trace ? m_state->origin() : (m_job && m_job->timeSpan() ? m_job->timeSpan()->first : 0);
    m_ranksDock->setJob(m_job, origin);
    // Summaries have no gaps or kernels to list: their figures are the Ranks dock's.
    if (m_job && m_job->fromSummaries)
        QTimer::singleShot(0, m_ranksDockWidget, &QDockWidget::raise); // once the window has laid its docks out
    emit jobShown();
}

void JobSession::requestHeatmap()
{
    if (!m_job || m_heatmapQueued)
        return;
    // Once per turn of the event loop: a burst of zoom steps asks for one heatmap.
    m_heatmapQueued = true;
    QTimer::singleShot(0, this, [this] {
        m_heatmapQueued = false;
        if (!m_job)
            return;
        const timeline::TimeAxis axis = m_overview->axis();
        const int columns = std::clamp(static_cast<int>(axis.width), 1, kMaxHeatmapColumns);
        m_heatmap.run(
            this,
            [job = m_job, axis, columns](std::stop_token stop) {
                auto map = std::make_shared<timeline::JobHeatmap>(
                    timeline::computeJobHeatmap(*job, axis.start, axis.end, columns, stop));
                // Its colours too: the GUI thread only draws the image.
                if (map->rows > 0)
                    map->image = timeline::JobOverviewPainter::makeImage(*map);
                return std::shared_ptr<const timeline::JobHeatmap>(std::move(map));
            },
            [this](std::shared_ptr<const timeline::JobHeatmap> map) {
                if (map->rows > 0)
                    m_overview->setHeatmap(std::move(map));
            });
    });
}

void JobSession::selectCollective(std::size_t collective)
{
    if (!m_job || collective >= m_job->analysis.collectives.size())
        return;
    const MatchedCollective& c = m_job->analysis.collectives[collective];
    m_overview->setSelectedCollective(collective);
    timeline::ArrivalSpread spread;
    spread.firstArrival = c.firstArrival();
    spread.lastArrival = spread.firstArrival;
    TimeNs lastEnd = spread.firstArrival;
    for (std::size_t row = 0; row < c.arrivals.size(); ++row) {
        if (!c.arrivals[row])
            continue;
        spread.lastArrival = std::max(spread.lastArrival, *c.arrivals[row]);
        if (c.ends[row])
            lastEnd = std::max(lastEnd, *c.ends[row]);
        const auto process = m_job->processOfRow(row);
        if (!process || !m_loaded.trace)
            continue;
        if (const auto kernel = kernelAt(*m_loaded.trace, *process, *c.arrivals[row], c.ends[row]))
            spread.kernels.push_back(*kernel);
    }
    spread.label = tr("arrival spread %1 (first to last arrival), last: rank %2 \u00b7 %3")
                       .arg(QString::fromStdString(formatDuration(c.skewNs)))
                       .arg(c.lastRank)
                       .arg(QString::fromStdString(c.name.substr(0, c.name.find('('))));
    const TimeNs first = spread.firstArrival;
    m_overlay->setSpread(std::move(spread));
    if (m_loaded.trace)
        m_view->zoomToRange(first, std::max(lastEnd, first + 1), 0.4);
    emit detailsChanged(collectiveDetailsHtml(collective));
    emit message(tr("Collective %1: skew %2, last rank %3, end spread %4")
                     .arg(QString::fromStdString(c.name))
                     .arg(QString::fromStdString(formatDuration(c.skewNs)))
                     .arg(c.lastRank)
                     .arg(QString::fromStdString(formatDuration(c.endSpreadNs))));
}

QString JobSession::collectiveDetailsHtml(std::size_t collective) const
{
    const MatchedCollective& c = m_job->analysis.collectives[collective];
    const TimeNs origin
        = m_loaded.trace ? m_state->origin() : m_job->timeSpan().value_or(std::pair<TimeNs, TimeNs> {}).first;
    TimeNs last = c.firstArrival();
    for (const auto& arrival : c.arrivals) {
        if (arrival)
            last = std::max(last, *arrival);
    }
    QString html
        = tr("<h3 style='margin:0'>Collective</h3><p><b>%1</b>").arg(QString::fromStdString(c.name).toHtmlEscaped());
    if (!c.group.empty())
        html += tr(" group %1").arg(QString::fromStdString(c.group).toHtmlEscaped());
    html += (m_job->analysis.matching == CollectiveMatching::BySequence ? tr(" seq %1") : tr(" #%1")).arg(c.seq);
    html += tr("</p><p>Arrival skew <b>%1</b> (first to last arrival), last rank <b>%2</b>, end spread %3. Arrival: "
               "the kernel's start on the rank's GPU; wait: last arrival minus the rank's.</p>")
                .arg(models::durationText(c.skewNs))
                .arg(c.lastRank)
                .arg(models::durationText(c.endSpreadNs));
    html += tr("<table cellspacing='0' cellpadding='2'><tr><th align='left'>rank</th><th align='right'>arrival</th>"
               "<th align='right'>wait</th><th align='right'>end</th></tr>");
    for (std::size_t row = 0; row < c.arrivals.size(); ++row) {
        const int rank = m_job->analysis.perRank[row].rank;
        if (!c.arrivals[row]) {
            html += tr("<tr><td>%1</td><td colspan='3'>not in this collective</td></tr>").arg(rank);
            continue;
        }
        html += QStringLiteral(
            "<tr><td>%1</td><td align='right'>+%2</td><td align='right'>%3</td><td align='right'>+%4</td></tr>")
                    .arg(rank)
                    .arg(models::durationText(*c.arrivals[row] - origin), models::durationText(last - *c.arrivals[row]),
                        c.ends[row] ? models::durationText(*c.ends[row] - origin) : QStringLiteral("-"));
    }
    return html + QStringLiteral("</table>");
}

std::vector<EventRef> JobSession::selectedKernels() const
{
    return m_overlay->spread() ? m_overlay->spread()->kernels : std::vector<EventRef> {};
}

bool JobSession::revealRank(std::size_t row)
{
    if (!m_job || row >= m_job->rankCount())
        return false;
    const int rank = m_job->analysis.perRank[row].rank;
    const auto process = m_job->processOfRow(row);
    if (!process || !m_loaded.trace) {
        emit message(tr("Rank %1's trace is not open: open %2 to see its lanes")
                         .arg(rank)
                         .arg(QString::fromStdString(m_job->summaryOfRow(row).source)));
        return false;
    }
    const auto headerRow = [this, process]() -> std::optional<timeline::LayoutRow> {
        for (const timeline::LayoutRow& r : m_view->layout().rows()) {
            if (r.kind == timeline::RowKind::ProcessHeader && r.process == *process)
                return r;
        }
        return std::nullopt;
    };
    auto header = headerRow();
    if (!header)
        return false;
    if (header->collapsed) {
        m_view->toggleRow(*header);
        header = headerRow();
    }
    m_view->verticalScrollBar()->setValue(header->y);
    emit message(tr("Rank %1").arg(rank));
    return true;
}

} // namespace gapscope::app
