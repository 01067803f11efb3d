// SPDX-License-Identifier: MIT
#pragma once

#include "core/analysis/analysis.h"

#include <memory>
#include <optional>
#include <vector>

namespace gapscope {

/// Works out the evidence of gaps (GapEvidence) in O(log n) per gap: the indexes it needs (per host lane, the
/// largest end of each block of 32 events and a max tree over the blocks; per lane of synchronizing calls, the
/// call with the latest end so far, found in one pass over the lane) are built on first use and kept for the next gap,
/// so listing every gap of a trace costs no walk over its events per gap. gapEvidence() is one finder used once.
class GapEvidenceFinder {
public:
    GapEvidenceFinder(const Trace& trace, TimeNs launchThresholdNs);
    ~GapEvidenceFinder();
    GapEvidenceFinder(const GapEvidenceFinder&) = delete;
    GapEvidenceFinder& operator=(const GapEvidenceFinder&) = delete;

    GapEvidence evidence(const Gap& gap);

    /// The innermost range on a host lane that covers more than half of [start, end) (NVTX marks and
    /// zero-length events aside).
    std::optional<EventRef> hostRangeCovering(LaneIndex lane, TimeNs start, TimeNs end);
    /// The synchronizing API call of the process that began before `t` and ends latest, if it runs past `t`;
    /// ties go to the earlier start, then to the lower lane.
    std::optional<EventRef> syncCallRunningAt(ProcessIndex process, TimeNs t);

    /// The CPU samples of the thread of `launch` in [start, end), nullopt when there are none.
    std::optional<GapEvidence::Samples> samplesOfLauncher(EventRef launch, TimeNs start, TimeNs end) const;
    /// The first point inside the gap of a memory track of the gap's device.
    std::optional<GapEvidence::CounterStep> memoryChangeIn(const Gap& gap) const;
    /// How many sampled functions a gap's evidence lists.
    static constexpr std::size_t kTopSampledFunctions = 5;

private:
    struct LaneIndexes;
    LaneIndexes& indexesOf(LaneIndex lane);
    /// Whether a name is a synchronizing call's (isSynchronizingCall), each name asked once.
    bool isSyncCallName(StringId name);
    static constexpr std::int8_t kNotAsked = -1;

    const Trace& m_trace;
    TimeNs m_launchThresholdNs;
    std::vector<std::unique_ptr<LaneIndexes>> m_lanes;
    std::vector<std::int8_t> m_syncNames; // by string id: 1 a synchronizing call's name, 0 not, or kNotAsked
};

/// The cudaStreamWaitEvent (or driver equivalent) enqueued on the launching thread just before `launch`, with no
/// launch to `opLane` in between: the event the op was made to wait for.
std::optional<EventRef> waitBeforeLaunch(const Trace& trace, EventRef launch, LaneIndex opLane);
/// The streams of the gap's device (other than a stream gap's own) that ran GPU work during the gap: "13, 14".
std::string busyOtherStreams(const Trace& trace, const Gap& gap);

/// The one-line GapEvidence::summary of a gap with its evidence found (gap_causes.cpp).
std::string gapEvidenceSummary(
    const Trace& trace, const Gap& gap, const GapEvidence& evidence, TimeNs launchThresholdNs);

} // namespace gapscope
