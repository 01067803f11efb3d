// SPDX-License-Identifier: MIT
#include "app/job/ranks_dock.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gapscope::app {

RanksDock::RanksDock(QWidget* parent)
    : QWidget(parent)
    , m_model(new models::RankModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_header(new QLabel(this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(models::RankModel::SortRole);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(models::RankModel::RankColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Click a rank to bring its lanes into view"));
    m_header->setWordWrap(true);
    m_header->setText(tr("Open several ranks of one job (or their .summary.json files) to compare them here."));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_header);
    layout->addWidget(m_table);

    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_proxy->mapToSource(index);
        if (source.isValid())
            emit rankActivated(static_cast<std::size_t>(source.row()));
    });
}

void RanksDock::setJob(std::shared_ptr<const timeline::JobData> job, TimeNs origin)
{
    m_header->setText(job ? models::rankWindowText(*job, origin)
                          : tr("Open several ranks of one job (or their .summary.json files) to compare them here."));
    m_model->setJob(std::move(job));
    for (int c = 0; c < models::RankModel::FileColumn; ++c)
        m_table->resizeColumnToContents(c);
}

} // namespace gapscope::app
