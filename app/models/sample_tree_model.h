// SPDX-License-Identifier: MIT
#pragma once

// The top-down tree of the CPU samples in a time range, one top row per sampled thread: callers first, each row a
// function with its self and total samples there (core/model/sample_call_tree.h). A row's children are made when
// the view asks for them (canFetchMore/fetchMore, i.e. when it is expanded), so that a range of a long capture
// costs the GUI thread the rows on screen, not the whole tree.

#include "core/model/sample_call_tree.h"
#include "core/model/trace.h"

#include <QAbstractItemModel>

#include <memory>
#include <vector>

namespace gapscope::models {

class SampleTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { FunctionColumn, SelfColumn, TotalColumn, ModuleColumn, ColumnCount };

    explicit SampleTreeModel(QObject* parent = nullptr);
    /// The samples of [t0, t1): a row per thread sampled there, unexpanded.
    void setRange(std::shared_ptr<const Trace> trace, TimeNs t0, TimeNs t1);
    void clear();
    /// The samples in the range, over all threads.
    std::size_t sampleCount() const { return m_samples; }
    /// The rows made so far (threads and functions): what the GUI thread has built.
    std::size_t rowsMade() const { return m_items.size(); }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;
    bool canFetchMore(const QModelIndex& parent) const override;
    void fetchMore(const QModelIndex& parent) override;
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    struct Item {
        static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
        std::size_t parent = kNone;
        int row = 0;
        bool isThread = false;
        /// For a thread: its index in CpuSamples::threads(), its chains, and its samples as total.
        std::size_t thread = 0;
        CallTreeNode node;
        std::vector<std::size_t> children;
        bool fetched = false;
    };
    const Item* itemOf(const QModelIndex& index) const;

    std::shared_ptr<const Trace> m_trace;
    std::vector<Item> m_items;
    std::vector<std::size_t> m_top;
    std::size_t m_samples = 0;
};

} // namespace gapscope::models
