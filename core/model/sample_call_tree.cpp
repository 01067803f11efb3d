// SPDX-License-Identifier: MIT
#include "core/model/sample_call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace gapscope {

std::vector<ChainCount> chainCounts(const ThreadSamples& thread, std::size_t first, std::size_t last)
{
    // A sort of the ids rather than a hash map: a range holds at most a few thousand distinct chains, and the ids
    // come out in order.
    std::vector<std::uint32_t> ids;
    ids.reserve(last - first);
    for (std::size_t i = first; i < last; ++i)
        ids.push_back(thread.samples[i].callchain);
    std::sort(ids.begin(), ids.end());
    std::vector<ChainCount> counts;
    for (const std::uint32_t id : ids) {
        if (counts.empty() || counts.back().chain != id)
            counts.push_back({ id, 0 });
        ++counts.back().count;
    }
    return counts;
}

std::vector<CallTreeNode> callTreeLevel(const CpuSamples& all, std::span<const ChainCount> chains, std::uint32_t depth)
{
    std::vector<CallTreeNode> nodes;
    std::unordered_map<std::uint64_t, std::size_t> nodeOf; // (function, module) -> index in nodes
    for (const ChainCount& c : chains) {
        const std::span<const StackFrame> frames = all.chain(c.chain);
        if (frames.size() <= depth)
            continue;
        // Innermost frame first: the frame `depth` below the outermost one.
        const StackFrame frame = frames[frames.size() - 1 - depth];
        const std::uint64_t key = (std::uint64_t { frame.function.value } << 32) | frame.module.value;
        const auto [it, added] = nodeOf.try_emplace(key, nodes.size());
        if (added)
            nodes.push_back({ .frame = frame, .depth = depth });
        CallTreeNode& node = nodes[it->second];
        node.total += c.count;
        node.self += frames.size() == depth + 1 ? c.count : 0;
        node.chains.push_back(c);
    }
    std::sort(nodes.begin(), nodes.end(), [](const CallTreeNode& a, const CallTreeNode& b) {
        if (a.total != b.total)
            return a.total > b.total;
        if (a.self != b.self)
            return a.self > b.self;
        if (a.frame.function.value != b.frame.function.value)
            return a.frame.function.value < b.frame.function.value;
        return a.frame.module.value < b.frame.module.value;
    });
    return nodes;
}

} // namespace gapscope
