// SPDX-License-Identifier: MIT
#include "app/job/rank_model.h"

#include "app/models/event_details.h"

#include <QColor>
#include <QFileInfo>

namespace gapscope::models {

RankModel::RankModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void RankModel::setJob(std::shared_ptr<const timeline::JobData> job)
{
    beginResetModel();
    m_job = std::move(job);
    endResetModel();
}

int RankModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_job ? 0 : static_cast<int>(m_job->rankCount());
}

int RankModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankModel::value(int row, int column) const
{
    const auto r = static_cast<std::size_t>(row);
    const RankSkewFigures& figures = m_job->analysis.perRank[r];
    const RankSummary& s = m_job->summaryOfRow(r);
    if (column >= FirstCauseColumn && column < WaitColumn)
        return QVariant::fromValue<qlonglong>(s.idleByCause()[static_cast<std::size_t>(column - FirstCauseColumn)]);
    switch (column) {
    case RankColumn:
        return figures.rank;
    case UtilizationColumn: {
        const TimeNs span = s.spanNs();
        return span > 0 ? static_cast<double>(s.busyNs()) / static_cast<double>(span) : 0.0;
    }
    case IdleColumn:
        return QVariant::fromValue<qlonglong>(s.idleNs());
    case WaitColumn:
        return QVariant::fromValue<qlonglong>(figures.waitNs);
    case TimesLastColumn:
        return static_cast<int>(figures.timesLast);
    case ExposedCommunicationColumn:
        return QVariant::fromValue<qlonglong>(figures.exposedCommunicationNs);
    case FileColumn:
        return QString::fromStdString(s.source);
    default:
        return {};
    }
}

QVariant RankModel::data(const QModelIndex& index, int role) const
{
    if (!m_job || !index.isValid() || index.row() >= rowCount())
        return {};
    const int column = index.column();
    if (role == SortRole)
        return value(index.row(), column);
    if (role == Qt::TextAlignmentRole)
        return column == FileColumn ? QVariant() : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && column == FileColumn)
        return value(index.row(), column);
    if (role == Qt::ForegroundRole) {
        const auto straggler = m_job->stragglerRow();
        if (straggler && *straggler == static_cast<std::size_t>(index.row()) && column == RankColumn)
            return QColor(200, 30, 30);
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    const QVariant v = value(index.row(), column);
    switch (column) {
    case RankColumn: {
        const auto straggler = m_job->stragglerRow();
        const bool isStraggler = straggler && *straggler == static_cast<std::size_t>(index.row());
        return isStraggler ? tr("%1 (straggler)").arg(v.toInt()) : QString::number(v.toInt());
    }
    case UtilizationColumn:
        return QStringLiteral("%1 %").arg(100.0 * v.toDouble(), 0, 'f', 2);
    case TimesLastColumn:
        return v;
    case FileColumn:
        return QFileInfo(v.toString()).fileName();
    default:
        return durationText(v.toLongLong());
    }
}

QVariant RankModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case WaitColumn:
            return tr("Communication wait: the sum, over the matched collectives, of the last arrival minus this "
                      "rank's arrival (its GPU inside the collective, waiting for peers)");
        case TimesLastColumn:
            return tr("How many matched collectives this rank arrived at last");
        case ExposedCommunicationColumn:
            return tr("Exposed communication: collective time during which no compute ran on the GPU");
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    if (section >= FirstCauseColumn && section < WaitColumn) {
        const std::string_view cause = gapCauseName(static_cast<GapCause>(section - FirstCauseColumn));
        return tr("idle %1").arg(QString::fromUtf8(cause.data(), static_cast<qsizetype>(cause.size())));
    }
    switch (section) {
    case RankColumn:
        return tr("Rank");
    case UtilizationColumn:
        return tr("Utilization");
    case IdleColumn:
        return tr("Idle");
    case WaitColumn:
        return tr("Comm. wait");
    case TimesLastColumn:
        return tr("Times last");
    case ExposedCommunicationColumn:
        return tr("Exposed comm.");
    case FileColumn:
        return tr("File");
    default:
        return {};
    }
}

QString rankWindowText(const timeline::JobData& job, TimeNs origin)
{
    if (job.summaries.empty())
        return {};
    const std::string_view kind = windowKindName(job.summaries.front().window);
    QString text = QObject::tr("Per rank, over each rank's %1 window")
                       .arg(QString::fromUtf8(kind.data(), static_cast<qsizetype>(kind.size())));
    if (const auto span = job.timeSpan()) {
        text += QObject::tr(" (the windows lie in %1 to %2 from the start)")
                    .arg(durationText(span->first - origin), durationText(span->second - origin));
    }
    text += QObject::tr("; %n collective(s) matched", nullptr, static_cast<int>(job.analysis.collectives.size()));
    if (job.analysis.straggler)
        text += QObject::tr("; straggler rank %1, last in %2 of them")
                    .arg(job.analysis.straggler->rank)
                    .arg(job.analysis.straggler->timesLast);
    return text;
}

} // namespace gapscope::models
