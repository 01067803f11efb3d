// SPDX-License-Identifier: MIT
#pragma once

// One idle gap (DESIGN.md §4), and the list of every gap an analysis found.

#include "core/model/packed_optional.h"
#include "core/model/trace.h"

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <vector>

namespace gapscope {

enum class GapCause : std::uint8_t { Sync, Host, Launch, Dependency, Unknown };
inline constexpr int kGapCauseCount = 5;

/// One idle gap, as compact as the figures allow: analyze() lists every gap of a trace with its cause.
struct Gap {
    TimeNs start = 0;
    TimeNs end = 0;
    ProcessIndex process;
    DeviceIndex device;
    /// Set for a stream gap; none for a device gap (all streams idle).
    PackedOptional<LaneIndex> stream;
    /// The GPU op that ended the gap (GapEvidence::closingOp); none when no activity follows it.
    PackedOptional<EventRef> closingOp;
    GapCause cause = GapCause::Unknown;
    TimeNs duration() const { return end - start; }
};
static_assert(sizeof(Gap) == 40, "a trace can have millions of gaps: keep Gap at 40 bytes");

/// A sequence of gaps kept as the runs that filled it: the analysis measures a large device on several threads,
/// each listing the gaps of its time slice, and the list adopts each run's storage instead of copying it
/// (on a trace of millions of gaps, copying them costs as much as finding them). Read as one sequence: by
/// index (a binary search over the few runs) or from begin() to end().
class GapList {
public:
    GapList() = default;
    GapList(std::initializer_list<Gap> gaps);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    const Gap& operator[](std::size_t i) const;
    Gap& operator[](std::size_t i);
    /// The index of `gap`, which is in this list.
    std::size_t indexOf(const Gap& gap) const;

    void push_back(const Gap& gap);
    /// Appends `run` as it is, taking over its storage.
    void append(std::vector<Gap>&& run);

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Gap;
        using difference_type = std::ptrdiff_t;
        using pointer = const Gap*;
        using reference = const Gap&;
        const_iterator() = default;
        reference operator*() const { return (*m_runs)[m_run][m_at]; }
        pointer operator->() const { return &**this; }
        const_iterator& operator++()
        {
            if (++m_at == (*m_runs)[m_run].size()) {
                m_at = 0;
                ++m_run;
                skipEmpty();
            }
            return *this;
        }
        const_iterator operator++(int)
        {
            const_iterator before = *this;
            ++*this;
            return before;
        }
        bool operator==(const const_iterator& other) const { return m_run == other.m_run && m_at == other.m_at; }

    private:
        friend class GapList;
        const_iterator(const std::vector<std::vector<Gap>>* runs, std::size_t run)
            : m_runs(runs)
            , m_run(run)
        {
            skipEmpty();
        }
        void skipEmpty()
        {
            while (m_run < m_runs->size() && (*m_runs)[m_run].empty())
                ++m_run;
        }
        const std::vector<std::vector<Gap>>* m_runs = nullptr;
        std::size_t m_run = 0;
        std::size_t m_at = 0;
    };
    const_iterator begin() const { return { &m_runs, 0 }; }
    const_iterator end() const { return { &m_runs, m_runs.size() }; }

    /// The runs, in order (some may be empty).
    const std::vector<std::vector<Gap>>& runs() const { return m_runs; }

private:
    /// The run holding index i, and i's place in it.
    std::pair<std::size_t, std::size_t> locate(std::size_t i) const;

    std::vector<std::vector<Gap>> m_runs;
    /// m_firstIndex[r]: the list index of run r's first gap.
    std::vector<std::size_t> m_firstIndex;
    std::size_t m_size = 0;
};

} // namespace gapscope
