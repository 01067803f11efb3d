// SPDX-License-Identifier: MIT
#include "app/models/kernel_model.h"

#include "app/models/event_details.h"

namespace gapscope::models {

KernelModel::KernelModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void KernelModel::setResult(std::shared_ptr<const AnalysisResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int KernelModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_result ? 0 : static_cast<int>(m_result->kernels.size());
}

int KernelModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant KernelModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const KernelStats& k = kernelAt(index.row());
    if (role == SortRole) {
        switch (index.column()) {
        case NameColumn:
            return QString::fromStdString(k.name);
        case CountColumn:
            return QVariant::fromValue(static_cast<qulonglong>(k.count));
        case TotalColumn:
            return QVariant::fromValue(static_cast<qlonglong>(k.totalNs));
        case MeanColumn:
            return QVariant::fromValue(static_cast<qlonglong>(k.meanNs));
        case P50Column:
            return QVariant::fromValue(static_cast<qlonglong>(k.p50Ns));
        case P95Column:
            return QVariant::fromValue(static_cast<qlonglong>(k.p95Ns));
        case MaxColumn:
            return QVariant::fromValue(static_cast<qlonglong>(k.maxNs));
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return QString::fromStdString(k.name);
    case CountColumn:
        return QString::number(k.count);
    case TotalColumn:
        return durationText(k.totalNs);
    case MeanColumn:
        return durationText(k.meanNs);
    case P50Column:
        return durationText(k.p50Ns);
    case P95Column:
        return durationText(k.p95Ns);
    case MaxColumn:
        return durationText(k.maxNs);
    default:
        return {};
    }
}

QVariant KernelModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    static const char* const names[] = { "Kernel", "Count", "Total", "Mean", "p50", "p95", "Max" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

std::optional<EventRef> longestKernelNamed(const Trace& trace, std::string_view name)
{
    const auto id = trace.strings.find(name);
    if (!id)
        return std::nullopt;
    std::optional<EventRef> best;
    TimeNs bestDuration = -1;
    for (std::uint32_t l = 0; l < trace.lanes.size(); ++l) {
        const Lane& lane = trace.lanes[l];
        if (lane.kind != LaneKind::GpuStream)
            continue;
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (e.name == *id && e.kind == EventKind::Kernel && e.duration() > bestDuration) {
                best = EventRef { LaneIndex { l }, i };
                bestDuration = e.duration();
            }
        }
    }
    return best;
}

} // namespace gapscope::models
