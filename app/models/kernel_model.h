// SPDX-License-Identifier: MIT
#pragma once

// The kernel summary dock's table: one row per kernel name over the analysis window, or with a per-rank split one
// row per (kernel name, rank). Sort and filter with a QSortFilterProxyModel (SortRole, filter on the name column).

#include "core/analysis/analysis.h"

#include <QAbstractTableModel>

#include <QString>

#include <memory>
#include <stop_token>
#include <vector>

namespace gapscope::models {

/// The kernels of one rank (one process) over its window: kernelStatistics(trace, windows, process).
struct RankKernels {
    /// "rank 3", or "pid 1234" for a process without a rank.
    QString label;
    /// The rank (or -1), for sorting.
    int rank = -1;
    std::vector<KernelStats> kernels;
};
using RankKernelList = std::vector<RankKernels>;

/// Each process's kernel statistics over its window (`result.windows`), in rank order. Checks `stop` between
/// processes (empty when stopped).
RankKernelList kernelsPerRank(const Trace& trace, const AnalysisResult& result, std::stop_token stop = {});

class KernelModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        NameColumn,
        CountColumn,
        TotalColumn,
        MeanColumn,
        P50Column,
        P95Column,
        MaxColumn,
        RankColumn, // with the per-rank split only
        ColumnCount
    };
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit KernelModel(QObject* parent = nullptr);
    void setResult(std::shared_ptr<const AnalysisResult> result);
    /// The per-rank split (null: one row per kernel name over all ranks).
    void setPerRank(std::shared_ptr<const RankKernelList> perRank);
    bool isPerRank() const { return m_perRank != nullptr; }
    const KernelStats& kernelAt(int row) const;
    /// The rank of a row of the per-rank split; none otherwise.
    const RankKernels* rankAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const AnalysisResult> m_result;
    std::shared_ptr<const RankKernelList> m_perRank;
    /// The per-rank split's rows: (index into m_perRank, index into its kernels).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> m_rows;
};

/// The longest kernel of that name on any GPU lane, if there is one.
std::optional<EventRef> longestKernelNamed(const Trace& trace, std::string_view name);

} // namespace gapscope::models
