// SPDX-License-Identifier: MIT
#pragma once

// Which clock CUPTI's timestamps are on. cuptiGetTimestamp is CLOCK_REALTIME on
// Linux but CLOCK_MONOTONIC_RAW on WSL; the launcher's record window is on CLOCK_REALTIME. The
// collector reads CUPTI's clock once at start, finds which POSIX clock it is, and from then on
// timestamps NVTX calls and its own events with clock_gettime on that clock: no CUPTI call on the
// hot path, and none after cuptiFinalize. Header-only: the collector may not link core.

#include <cstdint>
#include <ctime>

namespace gapscope::capture {

struct CollectorClock {
    clockid_t clock = CLOCK_REALTIME;
    /// Added to the clock's reading: 0 when CUPTI's clock is one of the POSIX clocks.
    std::int64_t offsetNs = 0;
    /// "CLOCK_REALTIME", "CLOCK_MONOTONIC_RAW", "CLOCK_MONOTONIC", or "CLOCK_REALTIME + offset".
    const char* name = "CLOCK_REALTIME";
    bool matched = true;
};

/// Readings of CUPTI's clock and the candidates taken back to back; `toleranceNs` bounds the time
/// between them (and any drift CUPTI applies).
inline CollectorClock chooseCollectorClock(std::int64_t cuptiNs, std::int64_t realtimeNs, std::int64_t monotonicRawNs,
    std::int64_t monotonicNs, std::int64_t toleranceNs = 50'000'000)
{
    const auto near = [toleranceNs](std::int64_t a, std::int64_t b) { return (a > b ? a - b : b - a) <= toleranceNs; };
    if (near(cuptiNs, realtimeNs))
        return { CLOCK_REALTIME, 0, "CLOCK_REALTIME", true };
    if (near(cuptiNs, monotonicRawNs))
        return { CLOCK_MONOTONIC_RAW, 0, "CLOCK_MONOTONIC_RAW", true };
    if (near(cuptiNs, monotonicNs))
        return { CLOCK_MONOTONIC, 0, "CLOCK_MONOTONIC", true };
    return { CLOCK_REALTIME, cuptiNs - realtimeNs, "CLOCK_REALTIME + offset", false };
}

inline std::int64_t readClock(clockid_t clock)
{
    timespec ts {};
    clock_gettime(clock, &ts);
    return std::int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

} // namespace gapscope::capture
