// SPDX-License-Identifier: MIT
#pragma once

// The Annotations dock's table: one row per note of the controller, sorted by start (then title),
// with its title, status, range duration and start (from the trace start).

#include "core/model/trace.h"

#include <QAbstractTableModel>

namespace gapscope::app {

class AnnotationController;

class AnnotationListModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { TitleColumn, StatusColumn, DurationColumn, StartColumn, ColumnCount };
    enum Role { IdRole = Qt::UserRole + 1 };

    explicit AnnotationListModel(AnnotationController* controller, QObject* parent = nullptr);

    /// Zero of the Start column (the trace start).
    void setOrigin(TimeNs origin);
    /// The note id of a row, and the row of a note.
    QString idAt(int row) const;
    std::optional<int> rowOf(const QString& id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rebuild();

    AnnotationController* m_controller;
    TimeNs m_origin = 0;
    /// Indices into the controller's annotations(), in display order.
    std::vector<std::size_t> m_rows;
};

} // namespace gapscope::app
