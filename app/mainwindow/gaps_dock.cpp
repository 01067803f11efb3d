// SPDX-License-Identifier: MIT
#include "app/mainwindow/gaps_dock.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
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
    , m_threshold(new QDoubleSpinBox(this))
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

    m_threshold->setRange(0.0, 1e7);
    m_threshold->setDecimals(1);
    m_threshold->setSuffix(QStringLiteral(" \u00b5s"));
    m_threshold->setToolTip(tr("Shortest gap highlighted on the timeline and listed here"));
    m_threshold->setValue(100.0);
    m_model->setThreshold(100'000);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Gaps at least"), this));
    controls->addWidget(m_threshold);
    controls->addStretch();
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
    layout->addWidget(m_table);

    connect(m_threshold, &QDoubleSpinBox::valueChanged, this, [this](double us) {
        const auto ns = static_cast<TimeNs>(std::llround(us * 1000.0));
        m_model->setThreshold(ns);
        updateCount();
        emit thresholdChanged(ns);
    });
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
    m_model->setData(std::move(trace), std::move(analysis));
    m_table->resizeColumnsToContents();
    updateCount();
}

TimeNs GapsDock::threshold() const
{
    return static_cast<TimeNs>(std::llround(m_threshold->value() * 1000.0));
}

void GapsDock::setThreshold(TimeNs threshold)
{
    m_threshold->setValue(static_cast<double>(threshold) / 1000.0);
}

void GapsDock::updateCount()
{
    m_count->setText(tr("%n gap(s)", nullptr, m_model->rowCount()));
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
