// SPDX-License-Identifier: MIT
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace gapscope::capture {

/// Notices, from the flush thread, that GapScope stopped receiving CUDA activity while the program
/// kept launching kernels (docs/collector.md): another CUPTI client in the program (torch.profiler's
/// Kineto is the common one) needs no subscriber for cuptiActivityRegisterCallbacks,
/// cuptiActivityDisable or cuptiFinalize, so it can take CUPTI's buffers, switch kinds off or detach
/// CUPTI without GapScope being told.
///
/// Fed one Sample per flush: the kernel launches GapScope's API callbacks counted, the buffers the
/// pool handed out and got back, and the records received per kind, all running totals.
/// - Takeover: at least kMinLaunches launches and not one buffer requested or completed, for at
///   least `window` from the first of those launches. After it the collector calls CUPTI no more (a foreign
///   cuptiFinalize may follow, and any CUPTI call after it would attach CUPTI again on a stale subscriber).
/// - A kind stopped: kernels (or runtime API records, once some came) unchanged for `window` while
///   launches went on and buffers still came back: somebody disabled that kind.
/// Each finding is given once; it says when the records stopped. Not thread-safe: the flush thread's.
class CuptiClientWatch {
public:
    enum Kind : int { Kernels, Runtime, Driver, Memcpy, Memset, Sync, KindCount };
    static const char* kindName(Kind kind);

    struct Sample {
        std::int64_t nowNs = 0;
        std::uint64_t launches = 0;
        std::uint64_t buffersRequested = 0;
        std::uint64_t buffersCompleted = 0;
        std::array<std::uint64_t, KindCount> records {};
    };
    struct Finding {
        bool takeover = false; // else one kind stopped
        Kind kind = Kernels; // the kind that stopped (not a takeover)
        std::int64_t sinceNs = 0; // when records stopped arriving
        std::uint64_t launchesSince = 0;
        /// For a takeover: the kinds that had records, with the time of the sample that last saw
        /// each grow.
        std::array<std::int64_t, KindCount> lastRecordNs {};
        std::array<bool, KindCount> hadRecords {};
    };
    static constexpr std::uint64_t kMinLaunches = 32;

    explicit CuptiClientWatch(std::int64_t windowNs);

    /// The finding this sample completes, if any.
    std::optional<Finding> observe(const Sample& sample);
    bool tookOver() const { return m_takeoverSeen; }
    /// A collector note for a finding; `originNs` is the recording's start, for times relative to it.
    static std::string describe(const Finding& finding, std::int64_t originNs);

private:
    const std::int64_t m_window;
    bool m_started = false;
    Sample m_last;
    std::int64_t m_progressNs = 0; // last sample where a buffer was requested or completed
    std::uint64_t m_launchesAtProgress = 0;
    /// The first sample with launches since then (0: none yet): the window runs from it.
    std::int64_t m_stallStartNs = 0;
    std::array<std::int64_t, KindCount> m_kindChangedNs {};
    std::array<std::int64_t, KindCount> m_kindStallStartNs {};
    std::array<std::uint64_t, KindCount> m_launchesAtKindChange {};
    bool m_takeoverSeen = false;
    std::array<bool, KindCount> m_kindReported {};
};

} // namespace gapscope::capture
