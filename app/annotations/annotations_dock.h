// SPDX-License-Identifier: MIT
#pragma once

// The Annotations dock: the notes of the trace on screen, sorted by start. Choosing one selects it
// (the editor shows it) and asks for its range to be shown; Delete removes it (undoable).

#include <QWidget>

class QAction;
class QLabel;
class QTableView;

namespace gapscope::app {

class AnnotationController;
class AnnotationListModel;

class AnnotationsDock : public QWidget {
    Q_OBJECT
public:
    explicit AnnotationsDock(AnnotationController* controller, QWidget* parent = nullptr);

    QTableView* table() const { return m_table; }
    AnnotationListModel* model() const { return m_model; }
    QAction* deleteAction() const { return m_delete; }

signals:
    /// A note was chosen in the list (click or keyboard): show its range.
    void annotationActivated(const QString& id);

private:
    void showSelection(const QString& id);
    void updateCount();

    AnnotationController* m_controller;
    AnnotationListModel* m_model;
    QTableView* m_table;
    QLabel* m_count;
    QLabel* m_where;
    QAction* m_delete;
    bool m_showing = false;
};

} // namespace gapscope::app
