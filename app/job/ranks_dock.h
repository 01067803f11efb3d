// SPDX-License-Identifier: MIT
#pragma once

// The Ranks dock: the job's per-rank table (RankModel) under a line that says the window its figures cover,
// sortable by any column. Clicking a row asks for that rank's lanes.

#include "app/job/rank_model.h"

#include <QWidget>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope::app {

class RanksDock : public QWidget {
    Q_OBJECT
public:
    explicit RanksDock(QWidget* parent = nullptr);
    /// `origin`: where the header's times count from (the trace start).
    void setJob(std::shared_ptr<const timeline::JobData> job, TimeNs origin);
    QTableView* table() const { return m_table; }
    QSortFilterProxyModel* proxy() const { return m_proxy; }
    models::RankModel* model() const { return m_model; }
    QLabel* header() const { return m_header; }

signals:
    /// A row was clicked: the JobData row (JobAnalysis::perRank index) of the rank.
    void rankActivated(std::size_t row);

private:
    models::RankModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_header;
};

} // namespace gapscope::app
