// SPDX-License-Identifier: MIT
#pragma once

// The kernel summary dock: kernels of the analysis window, sortable and filterable by name; with several ranks
// open, "Per rank" splits each kernel's count and time by rank (computed off the GUI thread).
// Double-clicking a kernel asks for its longest instance.

#include "app/mainwindow/latest_job.h"
#include "app/models/kernel_model.h"

#include <QWidget>

class QCheckBox;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope::app {

class KernelsDock : public QWidget {
    Q_OBJECT
public:
    explicit KernelsDock(QWidget* parent = nullptr);
    void setResult(std::shared_ptr<const AnalysisResult> result);
    /// The result and the trace it is of: with several processes, the per-rank split can be shown.
    void setResult(std::shared_ptr<const Trace> trace, std::shared_ptr<const AnalysisResult> result);
    QCheckBox* perRankToggle() const { return m_perRank; }
    models::KernelModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }
    QLineEdit* filter() const { return m_filter; }

signals:
    void kernelActivated(const QString& name);
    /// The per-rank split (or the plain list) is shown.
    void perRankShown();

private:
    void updatePerRank();
    void fitColumns();

    models::KernelModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_filter;
    QCheckBox* m_perRank;
    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const AnalysisResult> m_result;
    LatestJob m_split;
};

} // namespace gapscope::app
