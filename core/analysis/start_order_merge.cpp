// SPDX-License-Identifier: MIT
#include "core/analysis/start_order_merge.h"

#include <algorithm>

namespace gapscope {

HeapMerge::HeapMerge(const std::vector<LaneRun>& runs)
    : m_runs(runs)
{
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        if (m_runs[r].first != m_runs[r].last)
            m_heap.push_back({ m_runs[r].first->start, static_cast<std::uint32_t>(r) });
    }
    std::make_heap(m_heap.begin(), m_heap.end(), later);
}

MergedEvent HeapMerge::take()
{
    std::pop_heap(m_heap.begin(), m_heap.end(), later);
    Head& head = m_heap.back();
    LaneRun& run = m_runs[head.run];
    const Event* e = run.first;
    const MergedEvent out { e->start, e, run.begin, run.lane };
    if (++run.first != run.last) {
        head.start = run.first->start;
        std::push_heap(m_heap.begin(), m_heap.end(), later);
    } else {
        m_heap.pop_back();
    }
    return out;
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
