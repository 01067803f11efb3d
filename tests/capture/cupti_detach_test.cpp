// SPDX-License-Identifier: MIT
// How the collector lets go of CUPTI at exit (CuptiDetach): the exit goes on only after
// cuptiFinalize has returned on the callback's thread; it never finalizes itself while another
// thread that called CUDA may be inside CUDA; a program without such a thread is finalized at once,
// without arming callbacks or waiting; after another client took CUPTI over, nothing is called.

#include "capture/cupti/cupti_detach.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace gapscope::capture {
namespace {

std::atomic<int> g_finalizeCalls { 0 };
std::atomic<int> g_armCalls { 0 };
std::atomic<bool> g_insideFinalize { false };
std::atomic<bool> g_releaseFinalize { false };

void countFinalize()
{
    ++g_finalizeCalls;
}

void blockingFinalize()
{
    ++g_finalizeCalls;
    g_insideFinalize = true;
    while (!g_releaseFinalize)
        std::this_thread::yield();
}

void countArm()
{
    ++g_armCalls;
}

class CuptiDetachTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        g_finalizeCalls = 0;
        g_armCalls = 0;
        g_insideFinalize = false;
        g_releaseFinalize = false;
    }
};

TEST_F(CuptiDetachTest, TheExitGoesOnOnlyAfterTheCallbacksFinalizeReturned)
{
    CuptiDetach detach({ &blockingFinalize, &countArm });
    std::atomic<bool> exitReturned { false };
    CuptiDetach::Result result {};
    std::thread exitThread([&] {
        result = detach.finalizeAtExit(true, std::chrono::seconds(30));
        exitReturned = true;
    });
    while (!detach.finalizeRequested())
        std::this_thread::yield();
    // A program thread leaves a CUDA call: its API-exit callback finalizes and is held inside.
    std::thread programThread([&] { detach.onApiExit(); });
    while (!g_insideFinalize)
        std::this_thread::yield();
    EXPECT_FALSE(detach.usable()); // no CUPTI call once finalizing began
    for (int i = 0; i < 100; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        ASSERT_FALSE(exitReturned) << "the exit went on while cuptiFinalize was still running on another thread";
    }
    g_releaseFinalize = true;
    programThread.join();
    exitThread.join();
    EXPECT_EQ(result, CuptiDetach::Result::FinalizedByCallback);
    EXPECT_EQ(g_finalizeCalls, 1);
    EXPECT_EQ(g_armCalls, 1);
    detach.onApiExit(); // a later call's exit finalizes nothing more
    EXPECT_EQ(g_finalizeCalls, 1);
}

TEST_F(CuptiDetachTest, WithoutAnApiExitCallbackFinalizeIsSkippedNotForced)
{
    CuptiDetach detach({ &countFinalize, &countArm });
    // Another thread that called CUDA is alive but blocked inside it (or idle): no callback comes.
    EXPECT_EQ(detach.finalizeAtExit(true, std::chrono::milliseconds(20)), CuptiDetach::Result::SkippedNoCallback);
    EXPECT_EQ(g_finalizeCalls, 0);
    EXPECT_EQ(g_armCalls, 1);
    detach.onApiExit(); // nor does a late one finalize behind the exit
    EXPECT_EQ(g_finalizeCalls, 0);
}

TEST_F(CuptiDetachTest, AProgramWithNoOtherCudaThreadIsFinalizedAtOnceWithoutWaiting)
{
    CuptiDetach detach({ &countFinalize, &countArm });
    // A wait of an hour: the test would hang if this waited at all.
    EXPECT_EQ(detach.finalizeAtExit(false, std::chrono::hours(1)), CuptiDetach::Result::FinalizedHere);
    EXPECT_EQ(g_finalizeCalls, 1);
    EXPECT_EQ(g_armCalls, 0);
    EXPECT_FALSE(detach.usable());
    EXPECT_EQ(detach.finalizeAtExit(false, std::chrono::hours(1)), CuptiDetach::Result::SkippedUnusable);
    EXPECT_EQ(g_finalizeCalls, 1);
}

TEST_F(CuptiDetachTest, AfterAnotherClientTookCuptiOverNothingIsCalled)
{
    CuptiDetach detach({ &countFinalize, &countArm });
    detach.markForeign();
    EXPECT_FALSE(detach.usable());
    EXPECT_TRUE(detach.foreign());
    EXPECT_EQ(detach.finalizeAtExit(true, std::chrono::hours(1)), CuptiDetach::Result::SkippedUnusable);
    EXPECT_EQ(detach.finalizeAtExit(false, std::chrono::hours(1)), CuptiDetach::Result::SkippedUnusable);
    EXPECT_EQ(g_finalizeCalls, 0);
    EXPECT_EQ(g_armCalls, 0);
    CuptiDetach fatal({ &countFinalize, &countArm });
    fatal.markFatal();
    EXPECT_FALSE(fatal.usable());
    EXPECT_EQ(fatal.finalizeAtExit(false, std::chrono::hours(1)), CuptiDetach::Result::SkippedUnusable);
    EXPECT_EQ(g_finalizeCalls, 0);
}

} // namespace
} // namespace gapscope::capture
