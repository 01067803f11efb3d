// SPDX-License-Identifier: MIT
#pragma once

// The Gaps dock's table: device gaps at least as long as the threshold, with duration, place, cause
// and one line of evidence. Sort with a QSortFilterProxyModel on SortRole.

#include "app/timeline/timeline_data.h"

#include <QAbstractTableModel>

namespace gapscope::models {

class GapModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { DurationColumn, StartColumn, DeviceColumn, CauseColumn, EvidenceColumn, ColumnCount };
    enum Role {
        SortRole = Qt::UserRole + 1, // numbers for numeric columns
        GapIndexRole, // index into AnalysisResult::gaps
    };

    explicit GapModel(QObject* parent = nullptr);

    void setData(std::shared_ptr<const Trace> trace, timeline::AnalysisSnapshot analysis);
    /// Gaps shorter than this are not listed (the same threshold as the bands).
    void setThreshold(TimeNs threshold);
    /// Index into AnalysisResult::gaps of a row.
    std::size_t gapAt(int row) const { return m_rows[static_cast<std::size_t>(row)]; }
    /// The row of a gap, if it is listed.
    std::optional<int> rowOf(std::size_t gap) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuildRows();

    std::shared_ptr<const Trace> m_trace;
    timeline::AnalysisSnapshot m_analysis;
    TimeNs m_threshold = 0;
    TimeNs m_origin = 0;
    std::vector<std::size_t> m_rows;
    /// m_durations[row]: the duration of m_rows[row]'s gap.
    std::vector<TimeNs> m_durations;
};

} // namespace gapscope::models
