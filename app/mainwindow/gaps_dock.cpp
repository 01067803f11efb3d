// SPDX-License-Identifier: MIT
#include "app/mainwindow/gaps_dock.h"

#include "app/models/duration_input.h"
#include "app/timeline/timeline_palette.h"
#include "core/io/common/cut_short.h"
#include "core/model/time_format.h"

#include <QAction>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <cmath>

namespace gapscope::app {

GapsDock::GapsDock(QWidget* parent)
    : QWidget(parent)
    , m_model(new models::GapModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_threshold(new QLineEdit(this))
    , m_legend(new QLabel(this))
    , m_count(new QLabel(this))
    , m_explain(new QAction(tr("&Explain This Gap\u2026"), this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(models::GapModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(models::GapModel::DurationColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    // Tab moves on to the next widget: in a table it would step the current cell, and each step here
    // selects a gap and zooms the timeline to it.
    m_table->setTabKeyNavigation(false);

    m_threshold->setToolTip(tr("Shortest gap highlighted on the timeline and listed here: a duration with its "
                               "unit (ns, \u00b5s or us, ms, s), e.g. \"10 ms\"; a plain number is \u00b5s"));
    m_threshold->setMaximumWidth(110);
    setThreshold(100'000);
    // What the bands' colours mean, here rather than over the lanes, where it would hide kernels.
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setText(legendHtml());
    m_legend->setToolTip(tr("Idle gaps are drawn as bands over the GPU lanes in the colour of their likely cause"));

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Gaps at least"), this));
    controls->addWidget(m_threshold);
    controls->addStretch();
    m_count->setObjectName(QStringLiteral("gapCount"));
    controls->addWidget(m_count);
    // A note about the chosen gap, pre-filled from its cause and evidence (the Annotations dock).
    m_explain->setToolTip(tr("Write a note about this gap, pre-filled from its cause and evidence"));
    m_explain->setEnabled(false);
    auto* explainButton = new QToolButton(this);
    explainButton->setDefaultAction(m_explain);
    controls->addWidget(explainButton);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_table->addAction(m_explain);
    connect(m_explain, &QAction::triggered, this, [this] {
        const QModelIndex current = m_table->currentIndex();
        if (current.isValid())
            emit explainRequested(static_cast<std::size_t>(current.data(models::GapModel::GapIndexRole).toULongLong()));
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { m_explain->setEnabled(current.isValid()); });
    connect(m_proxy, &QAbstractItemModel::modelReset, this,
        [this] { m_explain->setEnabled(m_table->currentIndex().isValid()); });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_legend);
    layout->addWidget(m_table);

    connect(m_threshold, &QLineEdit::editingFinished, this, [this] {
        const auto ns = models::parseDurationInput(m_threshold->text());
        if (!ns) {
            // Never a silent reading in another unit: say what is accepted and keep the threshold shown.
            m_threshold->setStyleSheet(QStringLiteral("color: #b00020"));
            m_count->setText(tr("\u201c%1\u201d is not a duration (ns, \u00b5s, ms, s)").arg(m_threshold->text()));
            return;
        }
        setThreshold(*ns);
    });
    connect(m_threshold, &QLineEdit::textEdited, this, [this] { m_threshold->setStyleSheet({}); });
    connect(
        m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
            if (m_showing || !current.isValid())
                return;
            emit gapActivated(static_cast<std::size_t>(current.data(models::GapModel::GapIndexRole).toULongLong()));
        });
    // A click on the row already current still asks to show it (after panning away, say).
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emit gapActivated(static_cast<std::size_t>(index.data(models::GapModel::GapIndexRole).toULongLong()));
    });
}

void GapsDock::setData(std::shared_ptr<const Trace> trace, timeline::AnalysisSnapshot analysis)
{
    m_cutShort.clear();
    if (trace) {
        for (const CutShortFile& cut : cutShortFiles(*trace))
            m_cutShort << QFileInfo(QString::fromStdString(cut.file)).fileName();
    }
    m_model->setData(std::move(trace), std::move(analysis));
    m_table->resizeColumnsToContents();
    updateCount();
}

TimeNs GapsDock::threshold() const
{
    return m_thresholdNs;
}

void GapsDock::setThreshold(TimeNs threshold)
{
    m_threshold->setStyleSheet({});
    m_threshold->setText(QString::fromStdString(formatDuration(threshold)));
    const bool changed = threshold != m_thresholdNs;
    m_thresholdNs = threshold;
    m_model->setThreshold(threshold);
    updateCount();
    if (changed)
        emit thresholdChanged(threshold);
}

void GapsDock::setLegendVisible(bool visible)
{
    m_legend->setVisible(visible);
}

QString GapsDock::legendHtml()
{
    QString html = tr("Idle gaps by likely cause:");
    for (int c = 0; c < kGapCauseCount; ++c) {
        const auto cause = static_cast<GapCause>(c);
        // The colour a band has over a lane: what the eye matches on the timeline.
        const QColor band = timeline::blendOver(timeline::laneBackground(false), timeline::gapBandColor(cause, false));
        const std::string_view name = gapCauseName(cause);
        html += QStringLiteral(" &nbsp;<span style='background-color:%1; color:%1'>&#9608;&#9608;</span>&nbsp;%2")
                    .arg(band.name(), QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size())));
    }
    return html;
}

void GapsDock::updateCount()
{
    // The threshold is said with the count: Details counts every gap, the dock those at least this long.
    QString text = tr("%n gap(s) \u2265 %1", nullptr, m_model->rowCount())
                       .arg(QString::fromStdString(formatDuration(std::max<TimeNs>(0, m_thresholdNs))));
    // A file cut short: the gaps are those of what was read, and a gap may have been cut at the end.
    if (!m_cutShort.isEmpty())
        text += tr(", in only what was read of %1 (cut short)").arg(m_cutShort.join(QStringLiteral(", ")));
    m_count->setText(text);
}

std::optional<int> GapsDock::viewRowOf(std::size_t gap) const
{
    const auto row = m_model->rowOf(gap);
    if (!row)
        return std::nullopt;
    return m_proxy->mapFromSource(m_model->index(*row, 0)).row();
}

void GapsDock::showGap(std::optional<std::size_t> gap)
{
    m_showing = true;
    const auto row = gap ? viewRowOf(*gap) : std::nullopt;
    if (row) {
        m_table->selectRow(*row);
        m_table->scrollTo(m_proxy->index(*row, 0));
    } else {
        m_table->clearSelection();
    }
    m_showing = false;
}

} // namespace gapscope::app
