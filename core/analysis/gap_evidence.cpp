// SPDX-License-Identifier: MIT
#include "core/analysis/gap_evidence.h"

#include "core/model/call_names.h"

#include <algorithm>
#include <limits>
#include <numeric>

namespace gapscope {

namespace {

constexpr std::size_t kBlock = Lane::kEndBlockEvents;
constexpr TimeNs kNoEnd = std::numeric_limits<TimeNs>::min();

} // namespace

struct GapEvidenceFinder::LaneIndexes {
    // Host ranges: tree[leaves + b] = the largest end in block b of the lane's events; tree[k] = max of children.
    bool rangesBuilt = false;
    std::size_t leaves = 0;
    std::vector<TimeNs> tree;
    // Synchronizing calls (ascending start): their starts, and for each prefix the call with the latest end (the
    // earliest such call on equal ends) and that end.
    bool syncBuilt = false;
    std::vector<TimeNs> syncStarts;
    std::vector<TimeNs> syncBestEnd;
    std::vector<std::uint32_t> syncBestIndex;

    /// `lane` is a host lane (the launching thread's): its leaves are the block maxima TraceBuilder::finish()
    /// found in its pass over the events.
    void buildRanges(const Lane& lane)
    {
        rangesBuilt = true;
        const std::size_t blocks = lane.blockMaxEnd.size();
        leaves = 1;
        while (leaves < blocks)
            leaves *= 2;
        tree.assign(2 * leaves, kNoEnd);
        std::copy(lane.blockMaxEnd.begin(), lane.blockMaxEnd.end(), tree.begin() + static_cast<std::ptrdiff_t>(leaves));
        for (std::size_t k = leaves - 1; k > 0; --k)
            tree[k] = std::max(tree[2 * k], tree[2 * k + 1]);
    }

    /// The last block before block `b` (exclusive) whose largest end is above `x`, or SIZE_MAX.
    std::size_t lastBlockAbove(std::size_t b, TimeNs x) const
    {
        // Climb from the leaf range [0, b): right-hand nodes come right to left; stop at the first above x.
        std::size_t l = leaves;
        std::size_t r = leaves + b;
        std::size_t found = 0;
        std::vector<std::size_t> lefts;
        while (l < r && found == 0) {
            if (r & 1) {
                --r;
                if (tree[r] > x)
                    found = r;
            }
            if (found == 0 && (l & 1))
                lefts.push_back(l++);
            l >>= 1;
            r >>= 1;
        }
        for (auto it = lefts.rbegin(); found == 0 && it != lefts.rend(); ++it) {
            if (tree[*it] > x)
                found = *it;
        }
        if (found == 0)
            return SIZE_MAX;
        while (found < leaves)
            found = tree[2 * found + 1] > x ? 2 * found + 1 : 2 * found;
        return found - leaves;
    }

    /// The last event before index `i` (exclusive) whose end is above `x`, or SIZE_MAX.
    std::size_t lastEndingAfter(const Lane& lane, std::size_t i, TimeNs x) const
    {
        // Within i's own block first, then the nearest earlier block that holds such an end.
        const std::size_t blockStart = i / kBlock * kBlock;
        for (std::size_t j = i; j-- > blockStart;) {
            if (lane.events[j].end > x)
                return j;
        }
        const std::size_t b = lastBlockAbove(i / kBlock, x);
        if (b == SIZE_MAX)
            return SIZE_MAX;
        for (std::size_t j = std::min(lane.events.size(), (b + 1) * kBlock); j-- > b * kBlock;) {
            if (lane.events[j].end > x)
                return j;
        }
        return SIZE_MAX; // unreachable: the block's largest end is above x
    }

    /// One pass over the lane for its synchronizing API calls (`isSyncName`: whether a name is one's).
    template <typename IsSyncName> void buildSync(const Lane& lane, IsSyncName isSyncName)
    {
        syncBuilt = true;
        TimeNs bestEnd = kNoEnd;
        std::uint32_t bestIndex = 0;
        for (std::uint32_t index = 0; index < lane.events.size(); ++index) {
            const Event& e = lane.events[index];
            if ((e.kind != EventKind::RuntimeApi && e.kind != EventKind::DriverApi) || !isSyncName(e.name))
                continue;
            if (e.end > bestEnd) {
                bestEnd = e.end;
                bestIndex = index;
            }
            syncStarts.push_back(e.start);
            syncBestEnd.push_back(bestEnd);
            syncBestIndex.push_back(bestIndex);
        }
    }
};

/// How far back on the launching thread a dependency search looks for the wait that was enqueued before the
/// launch: a handful of calls, not the whole thread.
constexpr int kDependencyLookback = 64;

/// The cudaStreamWaitEvent (or driver equivalent) enqueued on the launching thread just before the
/// launch, with no launch to the same stream in between: the event the op was made to wait for.
std::optional<EventRef> waitBeforeLaunch(const Trace& trace, EventRef launch, LaneIndex opLane)
{
    const Lane& lane = trace.lanes()[launch.lane.value];
    for (std::uint32_t back = 1; back <= kDependencyLookback && back <= launch.index; ++back) {
        const EventRef ref { launch.lane, launch.index - back };
        const Event& e = lane.events[ref.index];
        if (trace.name(e).find("WaitEvent") != std::string_view::npos)
            return ref;
        if (e.correlation != 0 && (e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi)) {
            for (EventRef op : trace.gpuOpsOf(ref)) {
                if (op.lane == opLane)
                    return std::nullopt;
            }
        }
    }
    return std::nullopt;
}

/// Streams of the gap's device (other than its own) that ran GPU work during a stream gap.
std::string busyOtherStreams(const Trace& trace, const Gap& gap)
{
    std::string streams;
    for (std::uint32_t i = 0; i < trace.lanes().size(); ++i) {
        const Lane& lane = trace.lanes()[i];
        if (lane.kind != LaneKind::GpuStream || lane.device != gap.device
            || (gap.stream && *gap.stream == LaneIndex { i }))
            continue;
        const auto [begin, end] = lane.visibleRange(gap.start, gap.end);
        for (std::size_t k = begin; k < end; ++k) {
            const Event& e = lane.events[k];
            if (isGpuActivity(e.kind) && e.start < gap.end && e.end > gap.start) {
                streams += (streams.empty() ? "" : ", ") + std::to_string(lane.stream);
                break;
            }
        }
    }
    return streams;
}

GapEvidenceFinder::GapEvidenceFinder(const Trace& trace, TimeNs launchThresholdNs)
    : m_trace(trace)
    , m_launchThresholdNs(launchThresholdNs)
    , m_lanes(trace.lanes().size())
{ }

GapEvidenceFinder::~GapEvidenceFinder() = default;

bool GapEvidenceFinder::isSyncCallName(StringId name)
{
    if (m_syncNames.empty())
        m_syncNames.assign(std::max<std::size_t>(1, m_trace.strings().size()), kNotAsked);
    if (name.value >= m_syncNames.size())
        return false;
    std::int8_t& known = m_syncNames[name.value];
    if (known == kNotAsked)
        known = (nameClassesOf(m_trace.strings().view(name)) & kSyncCallName) != 0;
    return known == 1;
}

GapEvidenceFinder::LaneIndexes& GapEvidenceFinder::indexesOf(LaneIndex lane)
{
    auto& slot = m_lanes[lane.value];
    if (!slot)
        slot = std::make_unique<LaneIndexes>();
    return *slot;
}

std::optional<EventRef> GapEvidenceFinder::hostRangeCovering(LaneIndex laneIndex, TimeNs start, TimeNs end)
{
    // A range that covers more than half of [start, end) contains its midpoint, so the candidates are the
    // ranges open at the midpoint: walking back from the last range starting at or before it, the ranges that
    // end after it come innermost first (ranges on a thread nest). Each step back is one query of the max tree,
    // so the walk costs the nesting depth at the midpoint, not the events before it.
    const Lane& lane = m_trace.lanes()[laneIndex.value];
    LaneIndexes& indexes = indexesOf(laneIndex);
    if (!indexes.rangesBuilt)
        indexes.buildRanges(lane);
    // Lengths in unsigned arithmetic and the midpoint by std::midpoint: a file can hold times far apart enough
    // (fuzzing found a gap of 7.8e18 ns) that `end - start` or `2 * overlap` overflow an int64.
    const std::uint64_t length = static_cast<std::uint64_t>(end) - static_cast<std::uint64_t>(start);
    const TimeNs mid = std::midpoint(start, end);
    const auto& events = lane.events;
    std::size_t i = static_cast<std::size_t>(std::partition_point(events.begin(), events.end(), [mid](const Event& e) {
        return e.start <= mid;
    }) - events.begin());
    while ((i = indexes.lastEndingAfter(lane, i, mid)) != SIZE_MAX) {
        const Event& e = events[i];
        if (e.kind == EventKind::NvtxMark || e.end <= e.start)
            continue;
        // Positive: the range is open at mid, as is [start, end). More than half of the gap: overlap > length / 2.
        const std::uint64_t overlap
            = static_cast<std::uint64_t>(std::min(e.end, end)) - static_cast<std::uint64_t>(std::max(e.start, start));
        if (overlap > length - overlap)
            return EventRef { laneIndex, static_cast<std::uint32_t>(i) };
    }
    return std::nullopt;
}

std::optional<EventRef> GapEvidenceFinder::syncCallRunningAt(ProcessIndex process, TimeNs t)
{
    std::optional<EventRef> best;
    const Event* bestEvent = nullptr;
    for (std::uint32_t l = 0; l < m_trace.lanes().size(); ++l) {
        const Lane& lane = m_trace.lanes()[l];
        if (lane.kind != LaneKind::CpuThread || lane.process != process)
            continue;
        LaneIndexes& indexes = indexesOf(LaneIndex { l });
        if (!indexes.syncBuilt)
            indexes.buildSync(lane, [this](StringId name) { return isSyncCallName(name); });
        // The calls that began before t; of those, the one that ends latest.
        const auto k = static_cast<std::size_t>(
            std::lower_bound(indexes.syncStarts.begin(), indexes.syncStarts.end(), t) - indexes.syncStarts.begin());
        if (k == 0 || indexes.syncBestEnd[k - 1] <= t)
            continue;
        const Event& e = lane.events[indexes.syncBestIndex[k - 1]];
        if (!bestEvent || e.end > bestEvent->end || (e.end == bestEvent->end && e.start < bestEvent->start)) {
            best = EventRef { LaneIndex { l }, indexes.syncBestIndex[k - 1] };
            bestEvent = &e;
        }
    }
    return best;
}

std::optional<GapEvidence::Samples> GapEvidenceFinder::samplesOfLauncher(
    EventRef launch, TimeNs start, TimeNs end) const
{
    const CpuSamples& all = m_trace.samples();
    if (all.empty())
        return std::nullopt;
    const Lane& lane = m_trace.lanes()[launch.lane.value];
    const ThreadSamples* thread = all.find(lane.process, lane.tid);
    if (!thread)
        return std::nullopt;
    const auto [first, last] = samplesIn(*thread, start, end);
    if (first == last)
        return std::nullopt;
    return GapEvidence::Samples { static_cast<std::uint32_t>(last - first),
        topSampledFunctions(all, *thread, first, last, kTopSampledFunctions) };
}

std::optional<GapEvidence::CounterStep> GapEvidenceFinder::memoryChangeIn(const Gap& gap) const
{
    std::optional<GapEvidence::CounterStep> first;
    TimeNs firstTime = 0;
    const std::vector<CounterTrack>& tracks = m_trace.counters().tracks();
    for (std::uint32_t t = 0; t < tracks.size(); ++t) {
        const CounterTrack& track = tracks[t];
        if (track.device != gap.device || !track.name.starts_with(kMemoryAllocatedTrack))
            continue;
        const auto it = std::partition_point(
            track.points.begin(), track.points.end(), [&](const CounterPoint& p) { return p.time < gap.start; });
        if (it == track.points.end() || it->time >= gap.end || (first && it->time >= firstTime))
            continue;
        first = GapEvidence::CounterStep { t, static_cast<std::uint32_t>(it - track.points.begin()) };
        firstTime = it->time;
    }
    return first;
}

GapEvidence GapEvidenceFinder::evidence(const Gap& gap)
{
    GapEvidence evidence;
    evidence.closingOp = gap.closingOp;
    if (gap.closingOp)
        evidence.launch = m_trace.launchOf(*gap.closingOp);
    if (evidence.launch && gap.cause == GapCause::Sync)
        evidence.syncCall = syncCallRunningAt(gap.process, gap.start);
    if (evidence.launch && gap.cause == GapCause::Host)
        evidence.hostRange = hostRangeCovering(evidence.launch->lane, gap.start, gap.end);
    // In both the launch came after the gap began: what the launching thread ran meanwhile is the CPU work the
    // GPU waited for (after the synchronizing call returned, for `sync`).
    if (evidence.launch && (gap.cause == GapCause::Host || gap.cause == GapCause::Sync))
        evidence.samples = samplesOfLauncher(*evidence.launch, gap.start, gap.end);
    evidence.memoryChange = memoryChangeIn(gap);
    if (evidence.launch && gap.cause == GapCause::Dependency)
        evidence.awaitedWait = waitBeforeLaunch(m_trace, *evidence.launch, evidence.closingOp->lane);
    evidence.summary = gapEvidenceSummary(m_trace, gap, evidence, m_launchThresholdNs);
    return evidence;
}

GapEvidence gapEvidence(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    return GapEvidenceFinder(trace, launchThresholdNs).evidence(gap);
}

std::string describeGap(const Trace& trace, const Gap& gap, TimeNs launchThresholdNs)
{
    return gapEvidence(trace, gap, launchThresholdNs).summary;
}

} // namespace gapscope
