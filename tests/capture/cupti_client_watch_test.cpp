// SPDX-License-Identifier: MIT
// Another CUPTI client in the program (CuptiClientWatch): samples as the flush thread takes them
// every 150 ms, with the launches GapScope's callbacks counted, the pool's buffers and the records
// per kind. A program whose profiler took CUPTI's buffers over is noticed once, with the time the
// records stopped; one that disabled kernels only is noticed as that; a quiet program, or one whose
// buffers keep coming back, is not.

#include "capture/cupti/cupti_client_watch.h"

#include <gtest/gtest.h>

namespace gapscope::capture {
namespace {

constexpr std::int64_t kMs = 1'000'000;
constexpr std::int64_t kOrigin = 1'700'000'000'000'000'000;

using Watch = CuptiClientWatch;

struct Program {
    Watch watch { 2000 * kMs };
    Watch::Sample s { kOrigin, 0, 1, 0, {} };
    std::vector<Watch::Finding> findings;

    /// 150 ms of the program: `launches` kernels launched; `buffers` buffers completed (and as many
    /// requested); each completed buffer held `launches / buffers` kernels and as many runtime calls.
    void interval(std::uint64_t launches, std::uint64_t buffers, bool kernelRecords = true)
    {
        s.nowNs += 150 * kMs;
        s.launches += launches;
        s.buffersRequested += buffers;
        s.buffersCompleted += buffers;
        if (buffers > 0) {
            if (kernelRecords)
                s.records[Watch::Kernels] += launches;
            s.records[Watch::Runtime] += launches;
        }
        if (auto f = watch.observe(s))
            findings.push_back(*f);
    }
};

TEST(CuptiClientWatchTest, ATakeoverIsNoticedOnceWithTheTimeTheRecordsStopped)
{
    Program p;
    p.watch.observe(p.s);
    for (int i = 0; i < 10; ++i) // 1.5 s of normal recording
        p.interval(1000, 1);
    const std::int64_t stopped = p.s.nowNs;
    // Launches, no buffer of ours: the window runs from the first sample that saw them (1.65 s).
    for (int i = 0; i < 14; ++i)
        p.interval(1000, 0);
    EXPECT_TRUE(p.findings.empty()); // 1.95 s since then
    p.interval(1000, 0);
    ASSERT_EQ(p.findings.size(), 1u);
    const Watch::Finding& f = p.findings[0];
    EXPECT_TRUE(f.takeover);
    EXPECT_EQ(f.sinceNs, stopped);
    EXPECT_EQ(f.launchesSince, 15'000u);
    EXPECT_TRUE(f.hadRecords[Watch::Kernels]);
    EXPECT_TRUE(f.hadRecords[Watch::Runtime]);
    EXPECT_FALSE(f.hadRecords[Watch::Memcpy]);
    EXPECT_EQ(f.lastRecordNs[Watch::Kernels], stopped);
    EXPECT_TRUE(p.watch.tookOver());
    for (int i = 0; i < 30; ++i)
        p.interval(1000, 0);
    EXPECT_EQ(p.findings.size(), 1u); // said once
    EXPECT_EQ(Watch::describe(f, kOrigin),
        "GapScope stopped receiving CUDA activity 1500 ms into the recording while the program launched 15000 more "
        "kernels: another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) took CUPTI's activity "
        "buffers or disabled its kinds. Stopped: kernels (last seen 1500 ms), runtime API (last seen 1500 ms). "
        "GapScope makes no CUPTI call from then on (that client may finalize CUPTI), so CUDA activity after that "
        "point is missing; NVTX ranges are still recorded");
}

TEST(CuptiClientWatchTest, AQuietProgramOrOneWhoseBuffersComeBackIsNotATakeover)
{
    Program p;
    p.watch.observe(p.s);
    for (int i = 0; i < 40; ++i) // 6 s of data loading: no launch, no buffer
        p.interval(0, 0);
    for (int i = 0; i < 40; ++i) // a few launches per interval, a buffer every 5th interval
        p.interval(10, i % 5 == 4 ? 1 : 0);
    for (int i = 0; i < 40; ++i) // 31 launches in 6 s, no buffer: too few to tell
        p.interval(i == 0 ? 31 : 0, 0);
    EXPECT_TRUE(p.findings.empty());
    EXPECT_FALSE(p.watch.tookOver());
}

TEST(CuptiClientWatchTest, KernelsDisabledByAnotherClientAreNoticedAsThatKind)
{
    Program p;
    p.watch.observe(p.s);
    for (int i = 0; i < 5; ++i)
        p.interval(1000, 1);
    const std::int64_t stopped = p.s.nowNs;
    for (int i = 0; i < 20; ++i) // runtime records still come, kernel records no more
        p.interval(1000, 1, false);
    ASSERT_EQ(p.findings.size(), 1u);
    EXPECT_FALSE(p.findings[0].takeover);
    EXPECT_EQ(p.findings[0].kind, Watch::Kernels);
    EXPECT_EQ(p.findings[0].sinceNs, stopped);
    EXPECT_EQ(p.findings[0].launchesSince, 15'000u); // 2 s from the first launch without kernels: 15 intervals
    EXPECT_FALSE(p.watch.tookOver());
    EXPECT_EQ(Watch::describe(p.findings[0], kOrigin),
        "CUDA kernels records stopped arriving 750 ms into the recording while the program launched 15000 more "
        "kernels: another CUPTI client in the program (torch.profiler/Kineto, the JAX profiler) disabled that kind; "
        "this recording has no kernels records after that point");
}

} // namespace
} // namespace gapscope::capture
