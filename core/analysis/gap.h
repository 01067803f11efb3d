// SPDX-License-Identifier: MIT
#pragma once

// One idle gap (docs/definitions.md), and the list of every gap an analysis found.

#include "core/model/huge_pages.h"
#include "core/model/trace.h"

#include <cstddef>
#include <initializer_list>
#include <iterator>
#include <optional>
#include <vector>

namespace gapscope {

enum class GapCause : std::uint8_t { Sync, Host, Launch, Dependency, Unknown };
inline constexpr int kGapCauseCount = 5;

/// One idle gap, as the analysis hands it out.
struct Gap {
    TimeNs start = 0;
    TimeNs end = 0;
    ProcessIndex process;
    DeviceIndex device;
    /// Set for a stream gap; none for a device gap (all streams idle).
    std::optional<LaneIndex> stream;
    /// The GPU op that ended the gap (GapEvidence::closingOp); none when no activity follows it.
    std::optional<EventRef> closingOp;
    GapCause cause = GapCause::Unknown;
    TimeNs duration() const { return end - start; }
};

/// A gap as a GapList stores it: what varies from one gap of a run to the next, in 24 bytes (a trace can have
/// millions of gaps; the run holds the process, device and stream they share).
class StoredGap {
public:
    StoredGap() = default;
    StoredGap(TimeNs gapStart, TimeNs gapEnd, std::optional<EventRef> closing, GapCause cause)
        : start(gapStart)
        , end(gapEnd)
        , m_laneAndCause(packLane(closing) | (static_cast<std::uint32_t>(cause) << kLaneBits))
        , m_index(closing ? closing->index : 0)
    { }
    /// A gap with a closing op.
    StoredGap(TimeNs gapStart, TimeNs gapEnd, EventRef closing, GapCause cause)
        : start(gapStart)
        , end(gapEnd)
        , m_laneAndCause(packLane(closing.lane) | (static_cast<std::uint32_t>(cause) << kLaneBits))
        , m_index(closing.index)
    { }

    TimeNs start = 0;
    TimeNs end = 0;
    TimeNs duration() const { return end - start; }
    std::optional<EventRef> closingOp() const
    {
        const std::uint32_t lane = m_laneAndCause & kLaneMask;
        return lane == kLaneMask ? std::nullopt : std::optional<EventRef>(EventRef { { lane }, m_index });
    }
    void setClosingOp(std::optional<EventRef> closing)
    {
        m_laneAndCause = packLane(closing) | (m_laneAndCause & ~kLaneMask);
        m_index = closing ? closing->index : 0;
    }
    GapCause cause() const { return static_cast<GapCause>(m_laneAndCause >> kLaneBits); }
    void setCause(GapCause cause)
    {
        m_laneAndCause = (m_laneAndCause & kLaneMask) | (static_cast<std::uint32_t>(cause) << kLaneBits);
    }

private:
    // The closing op's lane in the low 29 bits (all ones: no closing op), the cause in the top 3.
    static constexpr int kLaneBits = 29;
    static constexpr std::uint32_t kLaneMask = (1u << kLaneBits) - 1;
    static std::uint32_t packLane(std::optional<EventRef> closing)
    {
        return closing ? packLane(closing->lane) : kLaneMask;
    }
    static std::uint32_t packLane(LaneIndex lane) { return lane.value < kLaneMask ? lane.value : kLaneMask; }
    std::uint32_t m_laneAndCause = kLaneMask | (static_cast<std::uint32_t>(GapCause::Unknown) << kLaneBits);
    std::uint32_t m_index = 0;
};
static_assert(sizeof(StoredGap) == 24, "a trace can have millions of gaps: keep StoredGap at 24 bytes");

/// Gaps in time order that share a process, a device and a stream (none: device gaps): one time slice of a
/// device's gaps, or one stream's.
struct GapRun {
    ProcessIndex process;
    DeviceIndex device;
    std::optional<LaneIndex> stream;
    std::vector<StoredGap, HugePageAllocator<StoredGap>> gaps;
    Gap operator[](std::size_t i) const
    {
        const StoredGap& g = gaps[i];
        return { g.start, g.end, process, device, stream, g.closingOp(), g.cause() };
    }
    /// Whether `gap` belongs with this run's gaps.
    bool holds(const Gap& gap) const { return gap.process == process && gap.device == device && gap.stream == stream; }
};

/// A sequence of gaps kept as the runs that filled it: the analysis measures a large device on several threads,
/// each listing the gaps of its time slice, and the list adopts each run's storage instead of copying it
/// (on a trace of millions of gaps, copying them costs as much as finding them). Read as one sequence of
/// gaps, handed out by value: by index (a binary search over the few runs) or from begin() to end().
class GapList {
public:
    GapList() = default;
    GapList(std::initializer_list<Gap> gaps);

    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    Gap operator[](std::size_t i) const;

    void push_back(const Gap& gap);
    /// Appends `run` as it is, taking over its storage.
    void append(GapRun&& run);

    class const_iterator {
    public:
        using iterator_category = std::forward_iterator_tag;
        using value_type = Gap;
        using difference_type = std::ptrdiff_t;
        using pointer = void;
        using reference = Gap;
        const_iterator() = default;
        Gap operator*() const { return (*m_runs)[m_run][m_at]; }
        const_iterator& operator++()
        {
            if (++m_at == (*m_runs)[m_run].gaps.size()) {
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
        const_iterator(const std::vector<GapRun>* runs, std::size_t run)
            : m_runs(runs)
            , m_run(run)
        {
            skipEmpty();
        }
        void skipEmpty()
        {
            while (m_run < m_runs->size() && (*m_runs)[m_run].gaps.empty())
                ++m_run;
        }
        const std::vector<GapRun>* m_runs = nullptr;
        std::size_t m_run = 0;
        std::size_t m_at = 0;
    };
    const_iterator begin() const { return { &m_runs, 0 }; }
    const_iterator end() const { return { &m_runs, m_runs.size() }; }

    /// The runs, in order (some may be empty).
    const std::vector<GapRun>& runs() const { return m_runs; }

private:
    /// The run holding index i, and i's place in it.
    std::pair<std::size_t, std::size_t> locate(std::size_t i) const;

    std::vector<GapRun> m_runs;
    /// m_firstIndex[r]: the list index of run r's first gap.
    std::vector<std::size_t> m_firstIndex;
    std::size_t m_size = 0;
};

} // namespace gapscope
