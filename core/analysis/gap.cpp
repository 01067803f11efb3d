// SPDX-License-Identifier: MIT
#include "core/analysis/gap.h"

#include <algorithm>
#include <cassert>

namespace gapscope {

GapList::GapList(std::initializer_list<Gap> gaps)
{
    for (const Gap& gap : gaps)
        push_back(gap);
}

std::pair<std::size_t, std::size_t> GapList::locate(std::size_t i) const
{
    assert(i < m_size);
    // The last run starting at or before i; empty runs share their successor's first index and lose to it.
    const auto after = std::upper_bound(m_firstIndex.begin(), m_firstIndex.end(), i);
    const auto run = static_cast<std::size_t>(after - m_firstIndex.begin()) - 1;
    return { run, i - m_firstIndex[run] };
}

Gap GapList::operator[](std::size_t i) const
{
    const auto [run, at] = locate(i);
    return m_runs[run][at];
}

void GapList::push_back(const Gap& gap)
{
    if (m_runs.empty() || !m_runs.back().holds(gap))
        append({ gap.process, gap.device, gap.stream, {} });
    m_runs.back().gaps.emplace_back(gap.start, gap.end, gap.closingOp, gap.cause);
    ++m_size;
}

void GapList::append(GapRun&& run)
{
    m_firstIndex.push_back(m_size);
    m_size += run.gaps.size();
    m_runs.push_back(std::move(run));
}

} // namespace gapscope
