// SPDX-License-Identifier: MIT
#include "core/analysis/gap.h"

#include <algorithm>
#include <cassert>

namespace gapscope {

GapList::GapList(std::initializer_list<Gap> gaps)
{
    if (gaps.size() > 0)
        append(std::vector<Gap>(gaps));
}

std::pair<std::size_t, std::size_t> GapList::locate(std::size_t i) const
{
    assert(i < m_size);
    // The last run starting at or before i; empty runs share their successor's first index and lose to it.
    const auto after = std::upper_bound(m_firstIndex.begin(), m_firstIndex.end(), i);
    const auto run = static_cast<std::size_t>(after - m_firstIndex.begin()) - 1;
    return { run, i - m_firstIndex[run] };
}

const Gap& GapList::operator[](std::size_t i) const
{
    const auto [run, at] = locate(i);
    return m_runs[run][at];
}

Gap& GapList::operator[](std::size_t i)
{
    const auto [run, at] = locate(i);
    return m_runs[run][at];
}

std::size_t GapList::indexOf(const Gap& gap) const
{
    for (std::size_t r = 0; r < m_runs.size(); ++r) {
        const std::vector<Gap>& run = m_runs[r];
        if (!run.empty() && &gap >= run.data() && &gap < run.data() + run.size())
            return m_firstIndex[r] + static_cast<std::size_t>(&gap - run.data());
    }
    assert(false && "the gap is not in this list");
    return m_size;
}

void GapList::push_back(const Gap& gap)
{
    if (m_runs.empty())
        append({});
    m_runs.back().push_back(gap);
    ++m_size;
}

void GapList::append(std::vector<Gap>&& run)
{
    m_firstIndex.push_back(m_size);
    m_size += run.size();
    m_runs.push_back(std::move(run));
}

} // namespace gapscope
