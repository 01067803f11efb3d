// SPDX-License-Identifier: MIT
#include "app/mainwindow/kernels_dock.h"

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

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_filter);
    layout->addWidget(m_table);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex name = m_proxy->index(index.row(), models::KernelModel::NameColumn);
        emit kernelActivated(name.data(Qt::DisplayRole).toString());
    });
}

void KernelsDock::setResult(std::shared_ptr<const AnalysisResult> result)
{
    m_model->setResult(std::move(result));
    // The figures as wide as they need; the name takes the rest of the table (kernel names are long).
    for (int c = 0; c < models::KernelModel::ColumnCount; ++c) {
        if (c != models::KernelModel::NameColumn)
            m_table->resizeColumnToContents(c);
    }
}

} // namespace gapscope::app
