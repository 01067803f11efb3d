// SPDX-License-Identifier: MIT
#include "core/analysis/lane_summaries.h"

#include "core/model/call_names.h"
#include "core/parallel_for.h"

#include <thread>

namespace gapscope {

namespace {

LaneSummary summarize(const Lane& lane, const std::vector<std::uint8_t>& nameClasses)
{
    LaneSummary summary;
    const auto classOf = [&nameClasses](StringId name) {
        // A select, not a branch: an unknown name reads the classes of the empty name (none).
        return nameClasses[name.value < nameClasses.size() ? name.value : 0];
    };
    std::uint32_t kinds = 0;
    if (lane.kind == LaneKind::GpuStream) {
        bool communication = false;
        for (const Event& e : lane.events) {
            kinds |= 1u << static_cast<unsigned>(e.kind);
            communication |= (e.kind == EventKind::Kernel) & ((classOf(e.name) & kCommunicationName) != 0);
        }
        summary.communicationKernels = communication;
    } else {
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            kinds |= 1u << static_cast<unsigned>(e.kind);
            const std::uint8_t classes = classOf(e.name);
            if ((classes & kSyncCallName) && (e.kind == EventKind::RuntimeApi || e.kind == EventKind::DriverApi))
                [[unlikely]]
                summary.syncCalls.push_back(i);
            if ((classes & kProfilerStepName) || e.kind == EventKind::NvtxRange || e.kind == EventKind::UserAnnotation)
                [[unlikely]]
                summary.stepCandidates.push_back(i);
        }
    }
    summary.eventKinds = kinds;
    return summary;
}

} // namespace

LaneSummaries::LaneSummaries(const Trace& trace)
    : m_lanes(trace.lanes().size())
{
    const std::vector<std::uint8_t>& nameClasses = trace.nameClasses();
    const auto summarizeLanes = [&](std::size_t begin, std::size_t end) {
        for (std::size_t l = begin; l < end; ++l)
            m_lanes[l] = summarize(trace.lanes()[l], nameClasses);
    };
    // Below a million events a thread costs more than it saves; above, a second one takes the lanes that hold
    // the second half of the events.
    constexpr std::size_t kParallelEvents = 1'000'000;
    const std::size_t total = trace.eventCount();
    if (total < kParallelEvents || std::thread::hardware_concurrency() < 2) {
        summarizeLanes(0, m_lanes.size());
        return;
    }
    const std::size_t split
        = halfWeightSplit(m_lanes.size(), total, [&](std::size_t l) { return trace.lanes()[l].events.size(); });
    const std::size_t bounds[] = { 0, split, m_lanes.size() };
    parallelFor(2, 2, [&](std::size_t part) { summarizeLanes(bounds[part], bounds[part + 1]); });
}

} // namespace gapscope
