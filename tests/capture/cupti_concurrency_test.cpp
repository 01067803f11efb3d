// SPDX-License-Identifier: MIT
// The collector's CUPTI pieces under concurrent producers, as in a program: launching threads take
// buffers (CUPTI's bufferRequested) and fill them with real CUPTI 13.0 records, completion threads
// walk them (bufferCompleted, on CUPTI's threads), memset callbacks link driver calls on the
// program's threads, and a flush thread refills the spares and writes the file, all at once. Every
// record must reach the file exactly once. Core-free: scripts/ci_hardening.sh runs it under
// ThreadSanitizer, where a data race is a failure.

#include "capture/cupti/completed_buffer_reader.h"
#include "capture/stream/native_stream_writer.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace gapscope::capture {
namespace {

constexpr std::size_t kBufferSize = 16 * 1024;
constexpr int kLaunchers = 4;
constexpr int kBuffersPerLauncher = 200;
constexpr int kKernelsPerBuffer = 50; // 50 x 224 B fit in 16 KB

/// Buffers filled by the launchers, waiting for a completion thread (CUPTI's queue).
class CompletionQueue {
public:
    void push(std::uint8_t* buffer, std::size_t size)
    {
        std::lock_guard lock(m_mutex);
        m_items.push_back({ buffer, size });
        m_ready.notify_one();
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_ready.notify_all();
    }
    bool pop(std::uint8_t*& buffer, std::size_t& size)
    {
        std::unique_lock lock(m_mutex);
        m_ready.wait(lock, [this] { return m_closed || !m_items.empty(); });
        if (m_items.empty())
            return false;
        buffer = m_items.front().first;
        size = m_items.front().second;
        m_items.pop_front();
        return true;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<std::pair<std::uint8_t*, std::size_t>> m_items;
    bool m_closed = false;
};

std::size_t fill(std::uint8_t* buffer, int launcher, int index)
{
    std::size_t used = 0;
    for (int k = 0; k < kKernelsPerBuffer; ++k) {
        const bool memset = k % 10 == 9;
        if (memset) {
            auto* m = reinterpret_cast<CUpti_ActivityMemset4*>(buffer + used);
            std::memset(m, 0, sizeof(*m));
            m->kind = CUPTI_ACTIVITY_KIND_MEMSET;
            m->start = 1'000'000u * (index + 1) + k * 100u;
            m->end = m->start + 50;
            m->bytes = 64;
            m->streamId = static_cast<std::uint32_t>(launcher);
            m->correlationId = static_cast<std::uint32_t>((launcher << 24) | (index << 8) | k);
            used += sizeof(*m);
            continue;
        }
        auto* r = reinterpret_cast<CUpti_ActivityKernel10*>(buffer + used);
        std::memset(r, 0, sizeof(*r));
        r->kind = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
        r->start = 1'000'000u * (index + 1) + k * 100u;
        r->end = r->start + 80;
        r->streamId = static_cast<std::uint32_t>(launcher);
        r->contextId = 1;
        r->correlationId = static_cast<std::uint32_t>((launcher << 24) | (index << 8) | k);
        r->name = launcher % 2 ? "_Z4evenv" : "_Z3oddv";
        used += sizeof(*r);
    }
    return used;
}

TEST(CuptiConcurrencyTest, EveryRecordOfConcurrentProducersReachesTheFileOnce)
{
    test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("c.gapscope"), { 1, -1, native::ClockId::CuptiTimestamp, 0 }, error)) << error;
    ActivityBufferPool pool(kBufferSize, 4, 32);
    pool.refill();
    CuptiTranslator translator(writer);
    CompletedBufferReader reader(pool, translator);
    CompletionQueue queue;
    std::atomic<bool> stop { false };

    std::thread flusher([&] {
        while (!stop.load()) {
            pool.refill();
            writer.flush();
            std::this_thread::yield();
        }
    });
    std::vector<std::thread> completers;
    std::atomic<std::uint64_t> walked { 0 };
    for (int c = 0; c < 2; ++c) {
        completers.emplace_back([&] {
            std::uint8_t* buffer = nullptr;
            std::size_t size = 0;
            while (queue.pop(buffer, size)) {
                const auto completion = reader.complete(buffer, size, true);
                EXPECT_EQ(completion.outcome, CompletedBufferReader::Outcome::Read);
                EXPECT_EQ(completion.walk.status, CUPTI_ERROR_MAX_LIMIT_REACHED);
                walked += completion.walk.records;
            }
        });
    }
    std::vector<std::thread> launchers;
    for (int l = 0; l < kLaunchers; ++l) {
        launchers.emplace_back([&, l] {
            for (int i = 0; i < kBuffersPerLauncher; ++i) {
                std::uint8_t* buffer = pool.take();
                ASSERT_NE(buffer, nullptr);
                // A memset callback of this thread links its driver call meanwhile.
                translator.linkDriverCall(static_cast<std::uint32_t>((l << 24) | (i << 8) | 9), 7);
                queue.push(buffer, fill(buffer, l, i));
            }
        });
    }
    for (std::thread& t : launchers)
        t.join();
    queue.close();
    for (std::thread& t : completers)
        t.join();
    stop = true;
    flusher.join();
    writer.close(0);

    constexpr std::uint64_t kRecords = std::uint64_t { kLaunchers } * kBuffersPerLauncher * kKernelsPerBuffer;
    EXPECT_EQ(walked.load(), kRecords);
    EXPECT_EQ(writer.eventsWritten(), kRecords);
    EXPECT_EQ(translator.recordCounts()[0], kRecords * 9 / 10); // kernels
    EXPECT_EQ(translator.recordCounts()[4], kRecords / 10); // memsets
    EXPECT_EQ(pool.outstanding(), 0u);
    EXPECT_EQ(pool.completed(), std::uint64_t { kLaunchers } * kBuffersPerLauncher);
}

} // namespace
} // namespace gapscope::capture
