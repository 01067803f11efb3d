// SPDX-License-Identifier: MIT
#pragma once

// What the analysis knows of each lane without reading all of its events again: the few host events it looks
// for, and what a GPU lane holds. Built from a finished Trace in one pass over its events; the analysis owns
// it, so the trace model carries no analysis state.

#include "core/model/trace.h"

#include <cstdint>
#include <vector>

namespace gapscope {

/// One lane's summary.
struct LaneSummary {
    /// Indices (ascending) of the host events the analysis looks for: synchronizing API calls
    /// (isSynchronizingCall), and the ranges that can define a step (ProfilerStep#N of any kind, every NVTX
    /// range and user annotation). Empty on GPU lanes.
    std::vector<std::uint32_t> syncCalls;
    std::vector<std::uint32_t> stepCandidates;
    /// Bit 1 << kind for each kind among the lane's events.
    std::uint32_t eventKinds = 0;
    /// Whether one of its kernels has a communication name (isCommunicationKernel).
    bool communicationKernels = false;
    /// Whether every event is a kernel, and none of them a communication kernel: the analysis then takes the
    /// lane's events as compute kernels without asking each what it is.
    bool holdsOnlyComputeKernels() const
    {
        return eventKinds == 1u << static_cast<int>(EventKind::Kernel) && !communicationKernels;
    }
};

/// The summaries of every lane of one trace, by lane index.
class LaneSummaries {
public:
    /// One pass over the trace's events (on a big trace, the lanes split between two threads).
    explicit LaneSummaries(const Trace& trace);

    const LaneSummary& operator[](LaneIndex lane) const { return m_lanes[lane.value]; }
    std::size_t size() const { return m_lanes.size(); }

private:
    std::vector<LaneSummary> m_lanes;
};

} // namespace gapscope
