// SPDX-License-Identifier: MIT
#pragma once

// The Ranks dock's table: one row per rank of the job (JobAnalysis::perRank, ranks ascending) with its
// utilization, idle time and idle by cause (its summary's figures over its window), communication wait and times
// last (the job analysis's). Sort with a QSortFilterProxyModel on SortRole (the exact number).

#include "app/job/job_data.h"

#include <QAbstractTableModel>

#include <memory>

namespace gapscope::models {

class RankModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        RankColumn,
        UtilizationColumn,
        IdleColumn,
        FirstCauseColumn, // one per GapCause, in GapCause order
        WaitColumn = FirstCauseColumn + kGapCauseCount,
        TimesLastColumn,
        ExposedCommunicationColumn,
        FileColumn,
        ColumnCount
    };
    /// The exact figure: ns (qlonglong), the utilization (double, 0..1), the rank or count (int), the file.
    enum Role { SortRole = Qt::UserRole + 1 };

    explicit RankModel(QObject* parent = nullptr);
    void setJob(std::shared_ptr<const timeline::JobData> job);
    const std::shared_ptr<const timeline::JobData>& job() const { return m_job; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant value(int row, int column) const;

    std::shared_ptr<const timeline::JobData> m_job;
};

/// "gpu window: each rank from its first to its last GPU activity" and the range the windows cover, for the
/// dock's header.
QString rankWindowText(const timeline::JobData& job, TimeNs origin);

} // namespace gapscope::models
