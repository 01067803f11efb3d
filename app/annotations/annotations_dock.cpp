// SPDX-License-Identifier: MIT
#include "app/annotations/annotations_dock.h"

#include "app/annotations/annotation_controller.h"
#include "app/annotations/annotation_list_model.h"

#include <QAction>
#include <QDir>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace gapscope::app {

AnnotationsDock::AnnotationsDock(AnnotationController* controller, QWidget* parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_model(new AnnotationListModel(controller, this))
    , m_table(new QTableView(this))
    , m_count(new QLabel(this))
    , m_where(new QLabel(this))
    , m_delete(new QAction(tr("&Delete Note"), this))
{
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(20);
    m_table->horizontalHeader()->setSectionResizeMode(AnnotationListModel::TitleColumn, QHeaderView::Stretch);
    m_table->setWordWrap(false);
    m_table->setAlternatingRowColors(true);
    m_table->setContextMenuPolicy(Qt::ActionsContextMenu);

    // Not Backspace: that is View › Back.
    m_delete->setShortcut(QKeySequence::Delete);
    // Only while the list has the focus: Delete in a text field deletes text.
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_delete->setEnabled(false);
    m_table->addAction(m_delete);
    connect(m_delete, &QAction::triggered, this, [this] {
        if (!m_controller->selectedId().isEmpty())
            m_controller->remove(m_controller->selectedId());
    });
    auto* deleteButton = new QToolButton(this);
    deleteButton->setDefaultAction(m_delete);
    deleteButton->setToolButtonStyle(Qt::ToolButtonTextOnly);

    m_where->setObjectName(QStringLiteral("notesWhere"));
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_where->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_count);
    controls->addWidget(m_where, 1);
    controls->addWidget(deleteButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(m_table);

    const auto chosen = [this](const QModelIndex& index) {
        if (m_showing || !index.isValid())
            return;
        const QString id = m_model->idAt(index.row());
        m_controller->select(id);
        emit annotationActivated(id);
    };
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, chosen);
    // A click on the row already current shows its range again (after panning away, say).
    connect(m_table, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (index.isValid())
            emit annotationActivated(m_model->idAt(index.row()));
    });
    connect(m_controller, &AnnotationController::selectionChanged, this, &AnnotationsDock::showSelection);
    // The model resets on every change: put the selection back and resize.
    connect(m_model, &QAbstractItemModel::modelReset, this, [this] {
        m_table->resizeColumnToContents(AnnotationListModel::StatusColumn);
        m_table->resizeColumnToContents(AnnotationListModel::DurationColumn);
        m_table->resizeColumnToContents(AnnotationListModel::StartColumn);
        showSelection(m_controller->selectedId());
        updateCount();
    });
    connect(m_controller, &AnnotationController::saved, this, &AnnotationsDock::updateCount);
    connect(m_controller, &AnnotationController::saveFailed, this, &AnnotationsDock::updateCount);
    updateCount();
}

void AnnotationsDock::showSelection(const QString& id)
{
    m_showing = true;
    const auto row = m_model->rowOf(id);
    if (row) {
        m_table->setCurrentIndex(m_model->index(*row, 0));
        m_table->selectRow(*row);
        m_table->scrollTo(m_model->index(*row, 0));
    } else {
        m_table->clearSelection();
        m_table->setCurrentIndex({});
    }
    m_delete->setEnabled(row.has_value());
    m_showing = false;
}

void AnnotationsDock::updateCount()
{
    m_count->setText(tr("%n note(s)", nullptr, m_model->rowCount()));
    if (!m_controller->isOpen()) {
        m_where->clear();
    } else if (m_controller->hasUnsavedChanges()) {
        m_where->setText(tr("<span style='color:#a00'>not saved: File \u203a Save Notes As\u2026</span>"));
    } else {
        const QString path = m_controller->savePath();
        const QString home = QDir::homePath();
        const QString shown
            = path.startsWith(home + QLatin1Char('/')) ? QStringLiteral("~") + path.mid(home.size()) : path;
        switch (m_controller->savePathHome()) {
        case NotesHome::ProgramFolder:
            m_where->setText(
                tr("saved in your notes folder, %1 (the trace's folder belongs to the program)").arg(shown));
            break;
        case NotesHome::ReadOnlyFolder:
            m_where->setText(tr("saved in your notes folder, %1 (the trace's folder cannot be written)").arg(shown));
            break;
        case NotesHome::NextToTrace:
            m_where->setText(tr("in %1").arg(path.section(QLatin1Char('/'), -1)));
            break;
        }
        m_where->setToolTip(path);
    }
}

} // namespace gapscope::app
