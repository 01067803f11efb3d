// SPDX-License-Identifier: MIT
#include "app/annotations/annotation_list_model.h"

#include "app/annotations/annotation_controller.h"
#include "app/models/event_details.h"
#include "core/annotations/plain_note_text.h"

#include <QColor>

#include <algorithm>
#include <numeric>

namespace gapscope::app {

namespace {

QString statusText(AnnotationStatus status)
{
    const std::string_view name = annotationStatusName(status);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

QColor statusColour(AnnotationStatus status)
{
    const std::string_view colour = annotationStatusColour(status);
    return QColor(QString::fromUtf8(colour.data(), static_cast<qsizetype>(colour.size())));
}

} // namespace

AnnotationListModel::AnnotationListModel(AnnotationController* controller, QObject* parent)
    : QAbstractTableModel(parent)
    , m_controller(controller)
{
    connect(controller, &AnnotationController::annotationsReset, this, &AnnotationListModel::rebuild);
    connect(controller, &AnnotationController::annotationsChanged, this, &AnnotationListModel::rebuild);
    rebuild();
}

void AnnotationListModel::setOrigin(TimeNs origin)
{
    m_origin = origin;
    if (!m_rows.empty())
        emit dataChanged(index(0, StartColumn), index(rowCount() - 1, StartColumn));
}

void AnnotationListModel::rebuild()
{
    beginResetModel();
    const auto& notes = m_controller->annotations();
    m_rows.resize(notes.size());
    std::iota(m_rows.begin(), m_rows.end(), std::size_t { 0 });
    std::stable_sort(m_rows.begin(), m_rows.end(), [&](std::size_t a, std::size_t b) {
        const Annotation& x = notes[a];
        const Annotation& y = notes[b];
        if (x.start != y.start)
            return x.start < y.start;
        return x.title < y.title;
    });
    endResetModel();
}

QString AnnotationListModel::idAt(int row) const
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_rows.size())
        return {};
    return QString::fromStdString(m_controller->annotations()[m_rows[static_cast<std::size_t>(row)]].id);
}

std::optional<int> AnnotationListModel::rowOf(const QString& id) const
{
    const std::string key = id.toStdString();
    const auto& notes = m_controller->annotations();
    for (std::size_t r = 0; r < m_rows.size(); ++r) {
        if (notes[m_rows[r]].id == key)
            return static_cast<int>(r);
    }
    return std::nullopt;
}

int AnnotationListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int AnnotationListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AnnotationListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || static_cast<std::size_t>(index.row()) >= m_rows.size())
        return {};
    const Annotation& a = m_controller->annotations()[m_rows[static_cast<std::size_t>(index.row())]];
    if (role == IdRole)
        return QString::fromStdString(a.id);
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case TitleColumn:
            return a.title.empty() ? tr("(untitled)") : QString::fromStdString(plainNoteText(a.title));
        case StatusColumn:
            return statusText(a.status);
        case DurationColumn:
            return models::durationText(a.duration());
        case StartColumn:
            return models::relativeTime(a.start, m_origin);
        default:
            return {};
        }
    }
    if (role == Qt::DecorationRole) {
        if (index.column() == StatusColumn)
            return statusColour(a.status);
        if (index.column() == TitleColumn && isValidColour(a.colour))
            return QColor(QString::fromStdString(a.colour));
    }
    if (role == Qt::ToolTipRole) {
        QString tip = QString::fromStdString(plainNoteText(a.title));
        if (!a.record.hypothesis.empty())
            tip += QStringLiteral("\n")
                + tr("Hypothesis: %1").arg(QString::fromStdString(plainNoteText(a.record.hypothesis)));
        return tip;
    }
    if (role == Qt::TextAlignmentRole && (index.column() == DurationColumn || index.column() == StartColumn))
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant AnnotationListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TitleColumn:
        return tr("Title");
    case StatusColumn:
        return tr("Status");
    case DurationColumn:
        return tr("Range");
    case StartColumn:
        return tr("Start");
    default:
        return {};
    }
}

} // namespace gapscope::app
