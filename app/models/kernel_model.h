// SPDX-License-Identifier: MIT
#pragma once

// The kernel summary dock's table: one row per kernel name over the analysis window. Sort and filter
// with a QSortFilterProxyModel (SortRole, filter on the name column).

#include "core/analysis/analysis.h"

#include <QAbstractTableModel>

#include <memory>

namespace gapscope::models {

class KernelModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, CountColumn, TotalColumn, MeanColumn, P50Column, P95Column, MaxColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit KernelModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const AnalysisResult> result);
    const KernelStats& kernelAt(int row) const { return m_result->kernels[static_cast<std::size_t>(row)]; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const AnalysisResult> m_result;
};

/// The longest kernel of that name on any GPU lane, if there is one.
std::optional<EventRef> longestKernelNamed(const Trace& trace, std::string_view name);

} // namespace gapscope::models
