// SPDX-License-Identifier: MIT
#include "app/models/kernel_model.h"

#include "app/models/event_details.h"

#include <algorithm>
#include <climits>

namespace gapscope::models {

KernelModel::KernelModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void KernelModel::setResult(std::shared_ptr<const AnalysisResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    m_perRank.reset();
    m_rows.clear();
    endResetModel();
}

void KernelModel::setPerRank(std::shared_ptr<const RankKernelList> perRank)
{
    beginResetModel();
    m_perRank = std::move(perRank);
    m_rows.clear();
    if (m_perRank) {
        for (std::uint32_t r = 0; r < m_perRank->size(); ++r) {
            for (std::uint32_t k = 0; k < (*m_perRank)[r].kernels.size(); ++k)
                m_rows.emplace_back(r, k);
        }
    }
    endResetModel();
}

const KernelStats& KernelModel::kernelAt(int row) const
{
    if (m_perRank) {
        const auto [r, k] = m_rows[static_cast<std::size_t>(row)];
        return (*m_perRank)[r].kernels[k];
    }
    return m_result->kernels[static_cast<std::size_t>(row)];
}

const RankKernels* KernelModel::rankAt(int row) const
{
    return m_perRank ? &(*m_perRank)[m_rows[static_cast<std::size_t>(row)].first] : nullptr;
}

int KernelModel::rowCount(const QModelIndex& parent) const
{
    if (parent.isValid())
        return 0;
    if (m_perRank)
        return static_cast<int>(m_rows.size());
    return m_result ? static_cast<int>(m_result->kernels.size()) : 0;
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
    if (index.column() == RankColumn) {
        const RankKernels* rank = rankAt(index.row());
        if (!rank || (role != Qt::DisplayRole && role != SortRole))
            return {};
        return role == SortRole ? QVariant(rank->rank) : QVariant(rank->label);
    }
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
    static const char* const names[] = { "Kernel", "Count", "Total", "Mean", "p50", "p95", "Max", "Rank" };
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

RankKernelList kernelsPerRank(const Trace& trace, const AnalysisResult& result, std::stop_token stop)
{
    RankKernelList list;
    for (std::uint32_t p = 0; p < trace.processes().size(); ++p) {
        if (stop.stop_requested())
            return {};
        const Process& process = trace.processes()[p];
        RankKernels rank;
        rank.rank = process.rank.value_or(-1);
        rank.label = process.rank ? QObject::tr("rank %1").arg(*process.rank) : QObject::tr("pid %1").arg(process.pid);
        rank.kernels = kernelStatistics(trace, result.windows, ProcessIndex { p });
        list.push_back(std::move(rank));
    }
    std::stable_sort(list.begin(), list.end(), [](const RankKernels& a, const RankKernels& b) {
        return (a.rank < 0 ? INT_MAX : a.rank) < (b.rank < 0 ? INT_MAX : b.rank);
    });
    return list;
}

std::optional<EventRef> longestKernelNamed(const Trace& trace, std::string_view name)
{
    const auto id = trace.strings().find(name);
    if (!id)
        return std::nullopt;
    std::optional<EventRef> best;
    TimeNs bestDuration = -1;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
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
