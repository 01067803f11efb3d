// SPDX-License-Identifier: MIT
// The collector's streaming writer, read back with core's reader: concurrent writers, flushes while
// writing, the recording window, file naming, and a file left without its End chunk.

#include "capture/stream/native_stream_writer.h"
#include "core/io/native/native_trace_reader.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <thread>

namespace gapscope::capture {
namespace {

native::EventRecord range(std::int64_t start, std::int64_t end, std::int64_t tid, std::uint32_t name)
{
    return native::EventRecord { start, end, 0, tid, name, 0, 0, -1,
        static_cast<std::uint8_t>(native::EventCode::NvtxRange), 0 };
}

NativeStreamWriter::Header header(std::int64_t pid, std::int32_t rank = -1)
{
    NativeStreamWriter::Header h;
    h.pid = pid;
    h.rank = rank;
    h.clock = native::ClockId::Realtime;
    h.startTimeNs = 1000;
    return h;
}

TEST(NativeStreamWriterTest, ConcurrentThreadsAndFlushesLoseNothing)
{
    test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("p.gapscope"), header(77), error)) << error;
    constexpr int kThreads = 4;
    constexpr int kPerThread = 20000;
    std::atomic<bool> writing { true };
    std::thread flusher([&] {
        while (writing.load())
            writer.flush();
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&writer, t] {
            const std::uint32_t name = writer.internString("thread " + std::to_string(t));
            for (int i = 0; i < kPerThread; ++i)
                writer.addEvent(range(i * 10, i * 10 + 5, 100 + t, name));
        });
    }
    for (std::thread& t : threads)
        t.join();
    writing.store(false);
    flusher.join();
    const auto closed = writer.close(999);
    EXPECT_EQ(closed.error, 0);
    EXPECT_EQ(writer.eventsWritten(), std::uint64_t(kThreads) * kPerThread);

    auto capture = NativeTraceReader::readCapture(dir.file("p.gapscope"));
    ASSERT_TRUE(capture) << capture.error().toString();
    const Trace& trace = capture.value().trace;
    EXPECT_TRUE(capture.value().info.closedCleanly);
    EXPECT_TRUE(trace.warnings().empty());
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].pid, 77);
    ASSERT_EQ(trace.lanes().size(), std::size_t(kThreads));
    for (const Lane& lane : trace.lanes()) {
        ASSERT_EQ(lane.events.size(), std::size_t(kPerThread));
        EXPECT_EQ(trace.name(lane.events.front()), "thread " + std::to_string(lane.tid - 100));
        for (int i = 0; i < kPerThread; ++i)
            ASSERT_EQ(lane.events[i].start, i * 10);
    }
}

TEST(NativeStreamWriterTest, WindowDropsEventsOutsideIt)
{
    test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("w.gapscope"), header(5), error));
    writer.setWindow(100, 200);
    const std::uint32_t name = writer.internString("r");
    // [50,99) ends before the window; [50,100] touches it; [150,160) inside; [199,300) starts inside;
    // [200,210) starts at its end.
    for (auto [s, e] : { std::pair { 50, 99 }, { 50, 100 }, { 150, 160 }, { 199, 300 }, { 200, 210 } })
        writer.addEvent(range(s, e, 1, name));
    writer.close(300);
    auto trace = NativeTraceReader::readFile(dir.file("w.gapscope"));
    ASSERT_TRUE(trace);
    ASSERT_EQ(trace.value().lanes().size(), 1u);
    std::vector<TimeNs> starts;
    for (const Event& e : trace.value().lanes()[0].events)
        starts.push_back(e.start);
    EXPECT_EQ(starts, (std::vector<TimeNs> { 50, 150, 199 }));
}

TEST(NativeStreamWriterTest, NamesFilesByPidAndRankAndNeverOverwrites)
{
    test::TempDir dir;
    std::string path;
    std::string error;
    NativeStreamWriter a;
    ASSERT_TRUE(a.openInDirectory(dir.path().string(), header(1234), path, error)) << error;
    EXPECT_EQ(path, dir.file("gapscope-1234.gapscope"));
    NativeStreamWriter b; // the same pid again (reused by the system): a new name
    ASSERT_TRUE(b.openInDirectory(dir.path().string(), header(1234), path, error)) << error;
    EXPECT_EQ(path, dir.file("gapscope-1234-1.gapscope"));
    NativeStreamWriter c;
    ASSERT_TRUE(c.openInDirectory(dir.path().string(), header(1235, 3), path, error)) << error;
    EXPECT_EQ(path, dir.file("gapscope-rank3-1235.gapscope"));
    EXPECT_EQ(dir.entries(),
        (std::vector<std::string> {
            "gapscope-1234-1.gapscope", "gapscope-1234.gapscope", "gapscope-rank3-1235.gapscope" }));
    NativeStreamWriter d;
    EXPECT_FALSE(d.openInDirectory(dir.file("missing-folder"), header(1), path, error));
    EXPECT_NE(error.find("cannot create"), std::string::npos);
}

TEST(NativeStreamWriterTest, FileWithoutEndLoadsUpToItsLastFlushWithAWarning)
{
    test::TempDir dir;
    const std::string path = dir.file("crashed.gapscope");
    {
        NativeStreamWriter writer;
        std::string error;
        ASSERT_TRUE(writer.open(path, header(9, 0), error));
        const std::uint32_t name = writer.internString("flushed");
        writer.addEvent(range(1, 2, 9, name));
        writer.addEvent(range(3, 4, 9, name));
        writer.addCounters({ 4, 1, 0, 0 });
        writer.flush();
        writer.addEvent(range(5, 6, 9, writer.internString("never flushed")));
        // Destroyed without close(): what a crash leaves behind.
    }
    auto capture = NativeTraceReader::readCapture(path);
    ASSERT_TRUE(capture) << capture.error().toString();
    const Trace& trace = capture.value().trace;
    EXPECT_FALSE(capture.value().info.closedCleanly);
    EXPECT_EQ(trace.eventCount(), 2u);
    EXPECT_EQ(trace.droppedRecords(), 4u);
    EXPECT_EQ(trace.skippedEvents(), 1u);
    EXPECT_EQ(trace.processes()[0].rank, 0);
    ASSERT_EQ(trace.warnings().size(), 1u);
    EXPECT_NE(trace.warnings()[0].message.find("not closed cleanly"), std::string::npos);
}

TEST(NativeStreamWriterTest, StringsAreInternedOncePerFile)
{
    NativeStreamWriter writer;
    EXPECT_EQ(writer.internString(""), 0u);
    const std::uint32_t a = writer.internString("alpha");
    const std::uint32_t b = writer.internString("beta");
    EXPECT_EQ(a, 1u);
    EXPECT_EQ(b, 2u);
    EXPECT_EQ(writer.internString("alpha"), a);
}

TEST(NativeStreamWriterTest, FullDiskStopsTheWriterWhichSaysWhereInTheFile)
{
    test::TempDir dir;
    NativeStreamWriter writer;
    std::string error;
    ASSERT_TRUE(writer.open(dir.file("full.gapscope"), header(88), error)) << error;
    const std::uint32_t before = writer.internString("before");
    for (int i = 0; i < 100; ++i)
        writer.addEvent(range(i * 10, i * 10 + 5, 88, before));
    ASSERT_EQ(writer.flush().error, 0);
    const std::uint64_t durable = std::filesystem::file_size(dir.file("full.gapscope"));
    EXPECT_EQ(durable, 64u + 16u + 16u + 16u + 100u * 48u); // header, strings, events chunk
    {
        // The disk "fills": 16 KB more at most (48 B events, 20,000 of them do not fit).
        test::FileSizeLimit limit(durable + 16 * 1024);
        ASSERT_TRUE(limit.active());
        const std::uint32_t after = writer.internString("after");
        for (int i = 0; i < 20000; ++i)
            writer.addEvent(range(10'000 + i * 10, 10'000 + i * 10 + 5, 88, after));
        const auto failed = writer.flush();
        EXPECT_EQ(failed.error, EFBIG);
        EXPECT_EQ(writer.writeError(), EFBIG);
        // From now on nothing is buffered (the program goes on; memory must not grow) or written.
        writer.addEvent(range(900'000, 900'005, 88, after));
        EXPECT_EQ(writer.flush().error, 0);
        writer.close(1'000'000);
    }
    auto capture = NativeTraceReader::readCapture(dir.file("full.gapscope"));
    ASSERT_TRUE(capture) << capture.error().toString();
    const Trace& trace = capture.value().trace;
    // Everything flushed before the disk filled, nothing after, and the reason.
    EXPECT_EQ(trace.eventCount(), 100u);
    EXPECT_FALSE(capture.value().info.closedCleanly);
    ASSERT_EQ(capture.value().info.processes.size(), 1u);
    const auto& errors = capture.value().info.processes[0].collectorErrors;
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
        "writing the capture file failed after " + std::to_string(durable)
            + " bytes (File too large): the collector stopped recording this process here; the program went on");
}

} // namespace
} // namespace gapscope::capture
