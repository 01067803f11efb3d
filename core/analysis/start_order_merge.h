// SPDX-License-Identifier: MIT
#pragma once

// Internal to the analysis: the events of several sorted lanes as one sequence in start order.

#include "core/model/trace.h"

#include <cstdint>
#include <span>
#include <vector>

namespace gapscope {

/// One event of the merged sequence.
struct MergedEvent {
    TimeNs start;
    const Event* event;
    LaneIndex lane;
    std::uint32_t index; // within the lane
};

/// A run of one lane's events, [first, last) of `lane`'s vector, to be merged.
struct LaneRun {
    LaneIndex lane;
    const Event* begin; // the lane's first event (for indices)
    const Event* first;
    const Event* last;
};

/// Merges lane runs (each sorted by start) into one sequence sorted by start, handed out in chunks. The merge
/// is a tree of two-way merges shaped by the runs' sizes (the two smallest joined first, as in a Huffman
/// code), so that the events of a busy stream pass through one merge and those of rare streams through a few;
/// each two-way merge picks its next event with a comparison and selects, not a branch, since which stream
/// comes next is what the data decides. Events with equal starts come in run order.
class StartOrderMerge {
public:
    explicit StartOrderMerge(const std::vector<LaneRun>& runs);
    /// The next events in start order; empty once all are handed out. Valid until the next call.
    std::span<const MergedEvent> next();

private:
    struct Node {
        // A leaf reads a run; an inner node merges two nodes.
        LaneRun run {};
        int left = -1;
        int right = -1;
        std::vector<MergedEvent> chunk;
        std::size_t pos = 0; // next unread in `chunk`
        bool done = false; // nothing more will come
    };
    /// Refills node `n`'s chunk (its unread part consumed); sets done when nothing came.
    void refill(int n);
    /// Makes sure node `n` has an unread event, if any remain; false when it has none.
    bool ready(int n);

    std::vector<Node> m_nodes;
    int m_root = -1;
};

} // namespace gapscope
