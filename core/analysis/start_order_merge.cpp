// SPDX-License-Identifier: MIT
#include "core/analysis/start_order_merge.h"

#include <algorithm>
#include <utility>

namespace gapscope {

namespace {

/// Events per chunk: a chunk of each node stays in the first-level cache while it is merged.
constexpr std::size_t kChunk = 512;

} // namespace

StartOrderMerge::StartOrderMerge(const std::vector<LaneRun>& runs)
{
    // (events, node) of the nodes not yet merged into another.
    std::vector<std::pair<std::size_t, int>> open;
    for (const LaneRun& run : runs) {
        if (run.first == run.last)
            continue;
        Node leaf;
        leaf.run = run;
        m_nodes.push_back(std::move(leaf));
        open.emplace_back(static_cast<std::size_t>(run.last - run.first), static_cast<int>(m_nodes.size() - 1));
    }
    while (open.size() > 1) {
        // The two smallest join; ties keep the earlier node on the left, so equal starts come in run order
        // within each merge.
        std::stable_sort(open.begin(), open.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        const auto [sizeA, a] = open.back();
        open.pop_back();
        const auto [sizeB, b] = open.back();
        open.pop_back();
        Node inner;
        inner.left = std::min(a, b);
        inner.right = std::max(a, b);
        m_nodes.push_back(std::move(inner));
        open.emplace_back(sizeA + sizeB, static_cast<int>(m_nodes.size() - 1));
    }
    if (!open.empty())
        m_root = open.front().second;
    for (Node& node : m_nodes)
        node.chunk.reserve(kChunk);
}

bool StartOrderMerge::ready(int n)
{
    Node& node = m_nodes[static_cast<std::size_t>(n)];
    if (node.pos < node.chunk.size())
        return true;
    if (node.done)
        return false;
    refill(n);
    return node.pos < node.chunk.size();
}

void StartOrderMerge::refill(int n)
{
    Node& node = m_nodes[static_cast<std::size_t>(n)];
    node.chunk.resize(kChunk);
    node.pos = 0;
    MergedEvent* const out = node.chunk.data();
    std::size_t filled = 0;
    if (node.left < 0) {
        LaneRun& run = node.run;
        filled = std::min(kChunk, static_cast<std::size_t>(run.last - run.first));
        for (std::size_t i = 0; i < filled; ++i, ++run.first)
            out[i] = { run.first->start, run.first, run.begin, run.lane };
    } else {
        while (filled < kChunk) {
            const bool hasLeft = ready(node.left);
            const bool hasRight = ready(node.right);
            if (!hasLeft && !hasRight)
                break;
            Node& left = m_nodes[static_cast<std::size_t>(node.left)];
            Node& right = m_nodes[static_cast<std::size_t>(node.right)];
            if (!hasLeft || !hasRight) {
                Node& only = hasLeft ? left : right;
                const std::size_t take = std::min(kChunk - filled, only.chunk.size() - only.pos);
                std::copy_n(only.chunk.data() + only.pos, take, out + filled);
                only.pos += take;
                filled += take;
                continue;
            }
            // As many steps as can run without either side running dry.
            const std::size_t steps
                = std::min({ kChunk - filled, left.chunk.size() - left.pos, right.chunk.size() - right.pos });
            const MergedEvent* l = left.chunk.data() + left.pos;
            const MergedEvent* r = right.chunk.data() + right.pos;
            for (std::size_t s = 0; s < steps; ++s) {
                const bool takeLeft = l->start <= r->start;
                out[filled + s] = *(takeLeft ? l : r);
                l += takeLeft ? 1 : 0;
                r += takeLeft ? 0 : 1;
            }
            filled += steps;
            left.pos = static_cast<std::size_t>(l - left.chunk.data());
            right.pos = static_cast<std::size_t>(r - right.chunk.data());
        }
    }
    node.chunk.resize(filled);
    node.done = filled == 0;
}

std::span<const MergedEvent> StartOrderMerge::next()
{
    if (m_root < 0 || !ready(m_root))
        return {};
    Node& root = m_nodes[static_cast<std::size_t>(m_root)];
    const std::span<const MergedEvent> chunk(root.chunk.data() + root.pos, root.chunk.size() - root.pos);
    root.pos = root.chunk.size();
    return chunk;
}

FewRunsMerge::FewRunsMerge(const std::vector<LaneRun>& runs)
{
    m_head.fill(kDone);
    for (std::size_t r = 0; r < runs.size() && r < kMaxRuns; ++r) {
        const LaneRun& run = runs[r];
        m_next[r] = run.first;
        m_last[r] = run.last;
        m_begin[r] = run.begin;
        m_lane[r] = run.lane;
        if (run.first != run.last)
            m_head[r] = run.first->start;
    }
    for (std::size_t r = 0; r < kMaxRuns; r += 2) // each pair's matches; the last replay sees them all
        replay(r);
}

} // namespace gapscope
