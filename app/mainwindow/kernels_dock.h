// SPDX-License-Identifier: MIT
#pragma once

// The kernel summary dock: kernels of the analysis window, sortable and filterable by name.
// Double-clicking a kernel asks for its longest instance.

#include "app/models/kernel_model.h"

#include <QWidget>

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace gapscope::app {

class KernelsDock : public QWidget {
    Q_OBJECT
public:
    explicit KernelsDock(QWidget* parent = nullptr);
    void setResult(std::shared_ptr<const AnalysisResult> result);
    QTableView* table() const { return m_table; }
    QLineEdit* filter() const { return m_filter; }

signals:
    void kernelActivated(const QString& name);

private:
    models::KernelModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLineEdit* m_filter;
};

} // namespace gapscope::app
