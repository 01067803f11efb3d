// SPDX-License-Identifier: MIT
#pragma once

// The top-down view of a set of CPU samples (callers first, as hotspot and perf report --children show perf
// data): a tree whose roots are the outermost frames of the samples' callchains and whose children are the
// functions each one called. Built a level at a time, so that a viewer makes only the nodes that are expanded.

#include "core/model/cpu_samples.h"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gapscope {

/// A distinct callchain of a set of samples and how many of them ran it.
struct ChainCount {
    std::uint32_t chain = 0;
    std::uint32_t count = 0;
};

/// The distinct callchains of samples [first, last) of `thread`, by chain id, with their sample counts.
std::vector<ChainCount> chainCounts(const ThreadSamples& thread, std::size_t first, std::size_t last);

/// A node of the top-down tree: the path from a root (an outermost frame) down to `frame`, `depth` frames below
/// the root. `total`: the samples whose callchain starts with that path; `self`: those of them that were running
/// `frame` itself (the path is their whole chain).
struct CallTreeNode {
    StackFrame frame;
    std::uint32_t depth = 0;
    std::uint32_t self = 0;
    std::uint32_t total = 0;
    /// The chains through this node: what its children are made of.
    std::vector<ChainCount> chains;
    bool hasChildren() const { return total > self; }
};

/// The nodes `depth` frames below the roots among `chains`, whose chains all share the path above them (the
/// roots: `chains` of a whole set and depth 0; a node's children: its chains and its depth + 1). Ordered by total,
/// then self, both descending, then by function and module id. Chains with no frames belong to no node.
std::vector<CallTreeNode> callTreeLevel(const CpuSamples& all, std::span<const ChainCount> chains, std::uint32_t depth);

} // namespace gapscope
