// SPDX-License-Identifier: MIT
#include "app/models/gap_model.h"

#include "app/models/event_details.h"
#include "app/timeline/timeline_palette.h"

#include <QBrush>

#include <algorithm>

namespace gapscope::models {

GapModel::GapModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

void GapModel::setData(std::shared_ptr<const Trace> trace, timeline::AnalysisSnapshot analysis)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_analysis = std::move(analysis);
    const auto span = m_trace ? m_trace->timeSpan() : std::nullopt;
    m_origin = span ? span->first : 0;
    rebuildRows();
    endResetModel();
}

void GapModel::setThreshold(TimeNs threshold)
{
    if (threshold == m_threshold)
        return;
    beginResetModel();
    m_threshold = threshold;
    rebuildRows();
    endResetModel();
}

void GapModel::rebuildRows()
{
    m_rows.clear();
    m_durations.clear();
    if (!m_analysis.result)
        return;
    // Straight from the runs (a GapList index is a search over them) with each duration worked out once:
    // a trace can have millions of gaps, and this runs on the GUI thread.
    std::vector<std::pair<TimeNs, std::size_t>> listed;
    std::size_t index = 0;
    for (const GapRun& run : m_analysis.result->gaps.runs()) {
        if (run.stream) {
            index += run.gaps.size();
            continue;
        }
        for (const StoredGap& gap : run.gaps) {
            if (gap.duration() >= m_threshold)
                listed.emplace_back(gap.duration(), index);
            ++index;
        }
    }
    // Longest first, then in list order; the proxy may re-sort.
    std::sort(listed.begin(), listed.end(),
        [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    m_rows.reserve(listed.size());
    m_durations.reserve(listed.size());
    for (const auto& [duration, gap] : listed) {
        m_rows.push_back(gap);
        m_durations.push_back(duration);
    }
}

std::optional<int> GapModel::rowOf(std::size_t gap) const
{
    const auto it = std::find(m_rows.begin(), m_rows.end(), gap);
    if (it == m_rows.end())
        return std::nullopt;
    return static_cast<int>(it - m_rows.begin());
}

int GapModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int GapModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant GapModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount())
        return {};
    const std::size_t gapIndex = m_rows[static_cast<std::size_t>(index.row())];
    if (role == GapIndexRole)
        return QVariant::fromValue(static_cast<qulonglong>(gapIndex));
    // The proxy sorts every row by this at each reset: no lookup of the gap for it.
    if (role == SortRole && index.column() == DurationColumn)
        return QVariant::fromValue(static_cast<qlonglong>(m_durations[static_cast<std::size_t>(index.row())]));
    const Gap gap = m_analysis.result->gaps[gapIndex];
    if (role == SortRole) {
        switch (index.column()) {
        case StartColumn:
            return QVariant::fromValue(static_cast<qlonglong>(gap.start));
        case DeviceColumn:
            return QVariant::fromValue(static_cast<qlonglong>(gap.device.value));
        case CauseColumn:
            return static_cast<int>(gap.cause);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::DecorationRole && index.column() == CauseColumn)
        return timeline::gapCauseColor(gap.cause);
    if (role == Qt::TextAlignmentRole && (index.column() == DurationColumn || index.column() == StartColumn))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case DurationColumn:
        return durationText(gap.duration());
    case StartColumn:
        return role == Qt::ToolTipRole ? relativeTime(gap.start, m_origin) + tr(" from trace start")
                                       : relativeTime(gap.start, m_origin);
    case DeviceColumn:
        return deviceName(*m_trace, gap.device);
    case CauseColumn: {
        const std::string_view name = gapCauseName(gap.cause);
        return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
    }
    case EvidenceColumn:
        return gapEvidenceLine(*m_trace, gap, m_analysis.result->options.launchThresholdNs);
    default:
        return {};
    }
}

QVariant GapModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case DurationColumn:
        return tr("Duration");
    case StartColumn:
        return tr("Start (from trace start)");
    case DeviceColumn:
        return tr("Device");
    case CauseColumn:
        return tr("Cause");
    case EvidenceColumn:
        return tr("Evidence");
    default:
        return {};
    }
}

} // namespace gapscope::models
