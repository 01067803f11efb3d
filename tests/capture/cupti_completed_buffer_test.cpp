// SPDX-License-Identifier: MIT
// The buffer-completed callback's work (CompletedBufferReader) on real CUPTI 13.0 records in a
// buffer of the pool: a buffer is read before it goes back to the pool, so the flush thread's
// refill() cannot zero it and the program's threads cannot be handed it while it is walked; a
// buffer completed after the file closed is freed and counted. Core-free: also built under
// ThreadSanitizer (scripts/ci_hardening.sh).

#include "capture/cupti/completed_buffer_reader.h"
#include "tests/capture/recording_sink.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace gapscope::capture {
namespace {

constexpr std::size_t kBufferSize = 64 * 1024;

/// Writes `count` kernel records (start 1000 * (i + 1), 500 ns long, correlation i + 1) at the
/// beginning of `buffer`, as CUPTI lays them out; returns the bytes used.
std::size_t writeKernels(std::uint8_t* buffer, int count, const char* name)
{
    std::size_t used = 0;
    for (int i = 0; i < count; ++i) {
        auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(buffer + used);
        std::memset(k, 0, sizeof(*k));
        k->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        k->start = 1000u * (i + 1);
        k->end = k->start + 500;
        k->deviceId = 0;
        k->contextId = 1;
        k->streamId = 7;
        k->correlationId = static_cast<std::uint32_t>(i + 1);
        k->name = name;
        used += sizeof(*k);
    }
    return used;
}

TEST(CompletedBufferReaderTest, ABufferIsNeitherZeroedNorHandedOutAgainWhileItIsRead)
{
    ActivityBufferPool pool(kBufferSize, 1);
    test::RecordingSink sink;
    CuptiTranslator translator(sink);
    CompletedBufferReader reader(pool, translator);
    std::uint8_t* buffer = pool.take();
    ASSERT_NE(buffer, nullptr);
    const std::size_t used = writeKernels(buffer, 3, "_Z4stepv");

    // While the first record is translated, the flush thread refills the spares and two program
    // threads ask CUPTI for buffers (inline here, at exactly the point where the race hurt).
    std::vector<std::uint8_t*> handedOutDuringWalk;
    sink.onEvent = [&](const native::EventRecord&) {
        if (!handedOutDuringWalk.empty())
            return;
        pool.refill();
        handedOutDuringWalk.push_back(pool.take());
        handedOutDuringWalk.push_back(pool.take());
    };
    const auto completion = reader.complete(buffer, used, true);
    sink.onEvent = nullptr;

    EXPECT_EQ(completion.outcome, CompletedBufferReader::Outcome::Read);
    EXPECT_EQ(completion.walk.records, 3u);
    EXPECT_EQ(completion.walk.status, CUPTI_ERROR_MAX_LIMIT_REACHED);
    const auto events = sink.events();
    ASSERT_EQ(events.size(), 3u);
    for (std::size_t i = 0; i < events.size(); ++i) {
        EXPECT_EQ(events[i].start, static_cast<std::int64_t>(1000 * (i + 1)));
        EXPECT_EQ(events[i].end, events[i].start + 500);
        EXPECT_EQ(events[i].correlation, i + 1);
        EXPECT_EQ(sink.text(events[i].name), "step()");
    }
    ASSERT_EQ(handedOutDuringWalk.size(), 2u);
    for (std::uint8_t* other : handedOutDuringWalk) {
        EXPECT_NE(other, buffer); // still being read: not CUPTI's to fill again
        EXPECT_TRUE(pool.giveBack(other));
    }
    EXPECT_FALSE(pool.owns(buffer)); // given back after the walk...
    EXPECT_EQ(pool.completed(), 3u);
    EXPECT_EQ(pool.outstanding(), 0u);
    EXPECT_FALSE(pool.giveBack(buffer)); // ...once
}

TEST(CompletedBufferReaderTest, BuffersCompletedAfterTheFileClosedAreFreedAndCounted)
{
    ActivityBufferPool pool(kBufferSize, 0, 4);
    test::RecordingSink sink;
    CuptiTranslator translator(sink);
    CompletedBufferReader reader(pool, translator);
    std::uint8_t* late = pool.take();
    const std::size_t used = writeKernels(late, 2, "_Z4stepv");
    const auto completion = reader.complete(late, used, false);
    EXPECT_EQ(completion.outcome, CompletedBufferReader::Outcome::ReleasedLate);
    EXPECT_EQ(completion.walk.records, 0u);
    EXPECT_TRUE(sink.events().empty());
    EXPECT_EQ(pool.releasedLate(), 1u);
    EXPECT_EQ(pool.outstanding(), 0u);
    pool.refill();
    EXPECT_EQ(pool.ready(), 1u); // the demand of the last interval (one take), freshly allocated: not the late one
    // Another CUPTI client's buffer is neither read nor freed, open or closed.
    alignas(8) static std::uint8_t foreign[kBufferSize];
    const std::size_t foreignUsed = writeKernels(foreign, 1, "_Z7foreignv");
    EXPECT_EQ(reader.complete(foreign, foreignUsed, true).outcome, CompletedBufferReader::Outcome::NotOurs);
    EXPECT_EQ(reader.complete(foreign, foreignUsed, false).outcome, CompletedBufferReader::Outcome::NotOurs);
    EXPECT_TRUE(sink.events().empty());
    EXPECT_EQ(pool.releasedLate(), 1u);
}

} // namespace
} // namespace gapscope::capture
