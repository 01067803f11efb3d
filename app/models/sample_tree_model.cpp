// SPDX-License-Identifier: MIT
#include "app/models/sample_tree_model.h"

#include "app/models/string_view_text.h"

#include <QFileInfo>

namespace gapscope::models {

SampleTreeModel::SampleTreeModel(QObject* parent)
    : QAbstractItemModel(parent)
{ }

void SampleTreeModel::clear()
{
    beginResetModel();
    m_trace.reset();
    m_items.clear();
    m_top.clear();
    m_samples = 0;
    endResetModel();
}

void SampleTreeModel::setRange(std::shared_ptr<const Trace> trace, TimeNs t0, TimeNs t1)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_items.clear();
    m_top.clear();
    m_samples = 0;
    if (m_trace) {
        const std::vector<ThreadSamples>& threads = m_trace->samples().threads();
        for (std::size_t t = 0; t < threads.size(); ++t) {
            const auto [first, last] = samplesIn(threads[t], t0, t1);
            if (first == last)
                continue;
            Item item;
            item.row = static_cast<int>(m_top.size());
            item.isThread = true;
            item.thread = t;
            item.node.total = static_cast<std::uint32_t>(last - first);
            item.node.chains = chainCounts(threads[t], first, last);
            m_samples += last - first;
            m_top.push_back(m_items.size());
            m_items.push_back(std::move(item));
        }
    }
    endResetModel();
}

const SampleTreeModel::Item* SampleTreeModel::itemOf(const QModelIndex& index) const
{
    return index.isValid() ? &m_items[index.internalId()] : nullptr;
}

QModelIndex SampleTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    const Item* p = itemOf(parent);
    const std::vector<std::size_t>& rows = p ? p->children : m_top;
    if (row < 0 || column < 0 || column >= ColumnCount || static_cast<std::size_t>(row) >= rows.size())
        return {};
    return createIndex(row, column, static_cast<quintptr>(rows[static_cast<std::size_t>(row)]));
}

QModelIndex SampleTreeModel::parent(const QModelIndex& child) const
{
    const Item* item = itemOf(child);
    if (!item || item->parent == Item::kNone)
        return {};
    return createIndex(m_items[item->parent].row, 0, static_cast<quintptr>(item->parent));
}

int SampleTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    const Item* p = itemOf(parent);
    return static_cast<int>(p ? p->children.size() : m_top.size());
}

int SampleTreeModel::columnCount(const QModelIndex&) const
{
    return ColumnCount;
}

bool SampleTreeModel::hasChildren(const QModelIndex& parent) const
{
    const Item* p = itemOf(parent);
    if (!p)
        return !m_top.empty();
    // A thread's samples all have frames but for the empty chains, which make no row.
    return p->fetched ? !p->children.empty() : p->isThread || p->node.hasChildren();
}

bool SampleTreeModel::canFetchMore(const QModelIndex& parent) const
{
    const Item* p = itemOf(parent);
    return p && !p->fetched && (p->isThread || p->node.hasChildren());
}

void SampleTreeModel::fetchMore(const QModelIndex& parent)
{
    if (!canFetchMore(parent))
        return;
    const std::size_t at = parent.internalId();
    const std::uint32_t depth = m_items[at].isThread ? 0 : m_items[at].node.depth + 1;
    std::vector<CallTreeNode> nodes = callTreeLevel(m_trace->samples(), m_items[at].node.chains, depth);
    m_items[at].fetched = true;
    if (nodes.empty())
        return;
    beginInsertRows(parent, 0, static_cast<int>(nodes.size()) - 1);
    for (CallTreeNode& node : nodes) {
        Item item;
        item.parent = at;
        item.row = static_cast<int>(m_items[at].children.size());
        item.thread = m_items[at].thread;
        item.node = std::move(node);
        m_items[at].children.push_back(m_items.size());
        m_items.push_back(std::move(item)); // may move m_items: `at` is an index, not a reference
    }
    endInsertRows();
}

QVariant SampleTreeModel::data(const QModelIndex& index, int role) const
{
    const Item* item = itemOf(index);
    if (!item || !m_trace)
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == SelfColumn || index.column() == TotalColumn
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    const StringTable& strings = m_trace->strings();
    switch (index.column()) {
    case FunctionColumn:
        if (item->isThread) {
            const ThreadSamples& thread = m_trace->samples().threads()[item->thread];
            return tr("thread %1 (pid %2)").arg(thread.tid).arg(m_trace->processes()[thread.process.value].pid);
        }
        return fromView(strings.view(item->node.frame.function));
    case SelfColumn:
        return item->isThread ? QVariant() : QVariant(item->node.self);
    case TotalColumn:
        return item->node.total;
    case ModuleColumn: {
        if (item->isThread)
            return {};
        const QString module = fromView(strings.view(item->node.frame.module));
        // The file name on screen, its path in the tooltip.
        return role == Qt::ToolTipRole ? module : QFileInfo(module).fileName();
    }
    default:
        return {};
    }
}

QVariant SampleTreeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case FunctionColumn:
        return tr("Function (callers first)");
    case SelfColumn:
        return tr("Self");
    case TotalColumn:
        return tr("Total");
    case ModuleColumn:
        return tr("Module");
    default:
        return {};
    }
}

} // namespace gapscope::models
