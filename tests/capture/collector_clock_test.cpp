// SPDX-License-Identifier: MIT
// Which POSIX clock CUPTI's timestamps are on, from readings taken back to back.

#include "capture/inject/collector_clock.h"

#include <gtest/gtest.h>

#include <string>

namespace gapscope::capture {
namespace {

struct ClockCase {
    const char* name;
    std::int64_t cupti;
    clockid_t expected;
    std::int64_t expectedOffset;
    const char* expectedName;
};

// Readings as a machine up 3 days on 2026-12-01 gives them: CLOCK_REALTIME ~1.796e18 ns,
// CLOCK_MONOTONIC_RAW and CLOCK_MONOTONIC ~2.6e14 ns apart by NTP slew.
constexpr std::int64_t kRealtime = 1'796'000'000'000'000'000;
constexpr std::int64_t kMonotonicRaw = 259'200'000'000'000;
constexpr std::int64_t kMonotonic = 259'300'000'000'000;

class CollectorClockTest : public ::testing::TestWithParam<ClockCase> { };

TEST_P(CollectorClockTest, FindsTheClockCuptiUses)
{
    const ClockCase& c = GetParam();
    const CollectorClock clock = chooseCollectorClock(c.cupti, kRealtime, kMonotonicRaw, kMonotonic);
    EXPECT_EQ(clock.clock, c.expected);
    EXPECT_EQ(clock.offsetNs, c.expectedOffset);
    EXPECT_EQ(std::string(clock.name), c.expectedName);
}

INSTANTIATE_TEST_SUITE_P(Clocks, CollectorClockTest,
    ::testing::Values(ClockCase { "linux", kRealtime + 2'000, CLOCK_REALTIME, 0, "CLOCK_REALTIME" },
        ClockCase { "wsl", kMonotonicRaw + 1'500, CLOCK_MONOTONIC_RAW, 0, "CLOCK_MONOTONIC_RAW" },
        ClockCase { "monotonic", kMonotonic - 3'000, CLOCK_MONOTONIC, 0, "CLOCK_MONOTONIC" },
        // None of them (a clock CUPTI was told to use): CLOCK_REALTIME moved onto CUPTI's readings.
        ClockCase {
            "other", 5'000'000'000'000, CLOCK_REALTIME, 5'000'000'000'000 - kRealtime, "CLOCK_REALTIME + offset" }),
    [](const ::testing::TestParamInfo<ClockCase>& info) { return std::string(info.param.name); });

TEST(CollectorClockTest, ReadsTheChosenClock)
{
    const CollectorClock realtime = chooseCollectorClock(readClock(CLOCK_REALTIME), readClock(CLOCK_REALTIME),
        readClock(CLOCK_MONOTONIC_RAW), readClock(CLOCK_MONOTONIC));
    EXPECT_EQ(realtime.clock, CLOCK_REALTIME);
    EXPECT_TRUE(realtime.matched);
}

} // namespace
} // namespace gapscope::capture
