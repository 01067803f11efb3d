// SPDX-License-Identifier: MIT
// parallelFor() calls its body once per index whatever the number of threads, and hands back the first exception;
// halfWeightSplit() cuts where half of the weight lies.
#include "core/parallel_for.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace gapscope {
namespace {

class ParallelForTest : public ::testing::TestWithParam<unsigned> { };

TEST_P(ParallelForTest, CallsTheBodyOnceForEveryIndex)
{
    constexpr std::size_t kCount = 1000;
    std::vector<std::atomic<int>> calls(kCount);
    parallelFor(kCount, GetParam(), [&](std::size_t i) { ++calls[i]; });
    for (std::size_t i = 0; i < kCount; ++i)
        EXPECT_EQ(calls[i].load(), 1) << "index " << i;
}

TEST_P(ParallelForTest, UsesNoMoreThreadsThanItemsOrAskedFor)
{
    std::mutex mutex;
    std::set<std::thread::id> seen;
    parallelFor(3, GetParam(), [&](std::size_t) {
        // Long enough that every thread started gets an item.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        const std::lock_guard lock(mutex);
        seen.insert(std::this_thread::get_id());
    });
    EXPECT_GE(seen.size(), 1u);
    EXPECT_LE(seen.size(), std::min<std::size_t>(3, GetParam() == 0 ? 1 : GetParam()));
}

TEST_P(ParallelForTest, RethrowsTheBodysExceptionAfterEveryThreadEnded)
{
    std::atomic<int> calls { 0 };
    EXPECT_THROW(parallelFor(100, GetParam(),
                     [&](std::size_t i) {
                         ++calls;
                         if (i == 7)
                             throw std::runtime_error("item 7");
                     }),
        std::runtime_error);
    EXPECT_GE(calls.load(), 8);
    EXPECT_LE(calls.load(), 100);
}

INSTANTIATE_TEST_SUITE_P(Threads, ParallelForTest, ::testing::Values(0u, 1u, 2u, 4u, 16u));

TEST(ParallelFor, NoItemsCallsNothing)
{
    int calls = 0;
    parallelFor(0, 4, [&](std::size_t) { ++calls; });
    EXPECT_EQ(calls, 0);
}

TEST(ParallelFor, OneThreadRunsTheItemsInOrderOnTheCaller)
{
    std::vector<std::size_t> order;
    const auto caller = std::this_thread::get_id();
    parallelFor(5, 1, [&](std::size_t i) {
        EXPECT_EQ(std::this_thread::get_id(), caller);
        order.push_back(i);
    });
    EXPECT_EQ(order, (std::vector<std::size_t> { 0, 1, 2, 3, 4 }));
}

struct SplitCase {
    std::vector<std::size_t> weights;
    std::size_t split;
};

class HalfWeightSplitTest : public ::testing::TestWithParam<SplitCase> { };

TEST_P(HalfWeightSplitTest, CutsAtTheFirstIndexWhereHalfTheWeightLiesBefore)
{
    const SplitCase& c = GetParam();
    std::size_t total = 0;
    for (const std::size_t w : c.weights)
        total += w;
    EXPECT_EQ(halfWeightSplit(c.weights.size(), total, [&](std::size_t i) { return c.weights[i]; }), c.split);
}

// Worked out by hand: the cut is after the items whose weights first reach total / 2 (rounded down).
INSTANTIATE_TEST_SUITE_P(Cases, HalfWeightSplitTest,
    ::testing::Values(SplitCase { {}, 0 }, SplitCase { { 10 }, 1 }, SplitCase { { 5, 5 }, 1 },
        SplitCase { { 1, 1, 1, 1 }, 2 }, SplitCase { { 9, 1, 1, 1 }, 1 }, SplitCase { { 1, 1, 1, 9 }, 4 },
        SplitCase { { 0, 0, 4, 4 }, 3 }, SplitCase { { 3, 0, 0 }, 1 }));

} // namespace
} // namespace gapscope
