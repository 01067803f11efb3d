// SPDX-License-Identifier: MIT
// The CUPTI activity buffer pool: zeroed buffers, recycled after the
// flush thread zeroes them, foreign buffers left alone, buffers that never came back counted.

#include "capture/cupti/activity_buffer_pool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace gapscope::capture {
namespace {

bool allZero(const std::uint8_t* buffer, std::size_t size)
{
    return std::all_of(buffer, buffer + size, [](std::uint8_t b) { return b == 0; });
}

TEST(ActivityBufferPoolTest, HandsOutZeroedAlignedBuffersAndRecyclesThemZeroed)
{
    constexpr std::size_t kSize = 64 * 1024;
    ActivityBufferPool pool(kSize, 2);
    pool.refill();
    EXPECT_EQ(pool.ready(), 2u);
    std::uint8_t* a = pool.take();
    std::uint8_t* b = pool.take();
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % 8, 0u);
    EXPECT_TRUE(allZero(a, kSize));
    EXPECT_EQ(pool.zeroedOnCaller(), 0u); // both came from the spares
    EXPECT_EQ(pool.outstanding(), 2u);

    std::memset(a, 0xab, kSize); // CUPTI filled it
    EXPECT_TRUE(pool.giveBack(a));
    EXPECT_EQ(pool.outstanding(), 1u);
    EXPECT_EQ(pool.completed(), 1u);
    pool.refill(); // the flush thread zeroes it and keeps it as a spare
    EXPECT_EQ(pool.ready(), 2u);
    std::uint8_t* again = nullptr;
    std::uint8_t* other = nullptr;
    for (int i = 0; i < 2; ++i) {
        std::uint8_t* taken = pool.take();
        (taken == a ? again : other) = taken;
    }
    ASSERT_EQ(again, a); // recycled, not freed
    EXPECT_TRUE(allZero(a, kSize));
    ASSERT_NE(other, nullptr);
    EXPECT_EQ(pool.requested(), 4u);
    EXPECT_EQ(pool.outstanding(), 3u);

    // No spare ready: allocated and zeroed on the caller's thread, and counted as such.
    std::uint8_t* late = pool.take();
    ASSERT_NE(late, nullptr);
    EXPECT_TRUE(allZero(late, kSize));
    EXPECT_EQ(pool.zeroedOnCaller(), 1u);
    for (std::uint8_t* buffer : { b, again, other, late })
        EXPECT_TRUE(pool.giveBack(buffer));
    EXPECT_EQ(pool.outstanding(), 0u);
    EXPECT_EQ(pool.completed(), 5u);
    pool.refill();
    EXPECT_EQ(pool.ready(), 4u); // at most twice the spares are kept
}

TEST(ActivityBufferPoolTest, LeavesBuffersItDidNotHandOutAlone)
{
    ActivityBufferPool pool(4096, 1);
    alignas(8) static std::uint8_t foreign[4096];
    foreign[0] = 42;
    EXPECT_FALSE(pool.giveBack(foreign)); // another CUPTI client's buffer: not ours to free or reuse
    EXPECT_EQ(foreign[0], 42);
    EXPECT_EQ(pool.completed(), 0u);
    std::uint8_t* mine = pool.take();
    EXPECT_TRUE(pool.giveBack(mine));
    EXPECT_FALSE(pool.giveBack(mine)); // and no buffer comes back twice
    EXPECT_EQ(pool.completed(), 1u);
}

TEST(ActivityBufferPoolTest, BuffersThatNeverComeBackStayOutstanding)
{
    // What the collector sees when a program's own CUPTI client replaced its buffer callbacks:
    // CUPTI completes the buffers GapScope gave it to somebody else.
    ActivityBufferPool pool(4096, 0);
    std::uint8_t* first = pool.take();
    std::uint8_t* second = pool.take();
    std::uint8_t* third = pool.take();
    EXPECT_TRUE(pool.giveBack(first));
    EXPECT_EQ(pool.requested(), 3u);
    EXPECT_EQ(pool.completed(), 1u);
    EXPECT_EQ(pool.outstanding(), 2u);
    // The pool never frees what it handed out (CUPTI, or whoever it completed them to, holds them): here the
    // test stands for that other client (LeakSanitizer reported them in the sanitizer build).
    std::free(second);
    std::free(third);
}

} // namespace
} // namespace gapscope::capture
