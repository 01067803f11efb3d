// SPDX-License-Identifier: MIT
#include "app/mainwindow/kernels_dock.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gapscope::app {

KernelsDock::KernelsDock(QWidget* parent)
    : QWidget(parent)
    , m_model(new models::KernelModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_filter(new QLineEdit(this))
    , m_perRank(new QCheckBox(tr("Per rank"), this))
{
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(models::KernelModel::SortRole);
    m_proxy->setFilterKeyColumn(models::KernelModel::NameColumn);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(models::KernelModel::TotalColumn, Qt::DescendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->horizontalHeader()->setSectionResizeMode(models::KernelModel::NameColumn, QHeaderView::Stretch);
    m_table->setToolTip(tr("Double-click a kernel to select its longest instance"));
    m_filter->setPlaceholderText(tr("Filter kernels by name"));
    m_filter->setClearButtonEnabled(true);

    m_perRank->setToolTip(tr("Split each kernel's count and time by rank (several ranks open)"));
    m_perRank->setEnabled(false);
    m_table->setColumnHidden(models::KernelModel::RankColumn, true);
    // The rank next to the kernel's name.
    m_table->horizontalHeader()->moveSection(models::KernelModel::RankColumn, models::KernelModel::NameColumn + 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    auto* top = new QHBoxLayout;
    top->addWidget(m_filter, 1);
    top->addWidget(m_perRank);
    layout->addLayout(top);
    layout->addWidget(m_table);

    connect(m_perRank, &QCheckBox::toggled, this, &KernelsDock::updatePerRank);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex name = m_proxy->index(index.row(), models::KernelModel::NameColumn);
        emit kernelActivated(name.data(Qt::DisplayRole).toString());
    });
}

void KernelsDock::setResult(std::shared_ptr<const AnalysisResult> result)
{
    setResult(nullptr, std::move(result));
}

void KernelsDock::setResult(std::shared_ptr<const Trace> trace, std::shared_ptr<const AnalysisResult> result)
{
    m_trace = std::move(trace);
    m_result = result;
    m_model->setResult(std::move(result));
    m_perRank->setEnabled(m_trace && m_trace->processes().size() > 1);
    updatePerRank();
}

void KernelsDock::updatePerRank()
{
    const bool split = m_perRank->isChecked() && m_perRank->isEnabled() && m_trace && m_result;
    m_table->setColumnHidden(models::KernelModel::RankColumn, !split);
    if (!split) {
        m_split.drop();
        if (m_model->isPerRank())
            m_model->setPerRank(nullptr);
        fitColumns();
        emit perRankShown();
        return;
    }
    m_split.run(
        this,
        [trace = m_trace, result = m_result](std::stop_token stop) {
            return std::make_shared<const models::RankKernelList>(models::kernelsPerRank(*trace, *result, stop));
        },
        [this](std::shared_ptr<const models::RankKernelList> list) {
            m_model->setPerRank(std::move(list));
            fitColumns();
            emit perRankShown();
        });
}

void KernelsDock::fitColumns()
{
    // The figures as wide as they need; the name takes the rest of the table (kernel names are long).
    for (int c = 0; c < models::KernelModel::ColumnCount; ++c) {
        if (c != models::KernelModel::NameColumn && !m_table->isColumnHidden(c))
            m_table->resizeColumnToContents(c);
    }
}

} // namespace gapscope::app
