// SPDX-License-Identifier: MIT
// What `gapscope record` says about a recording, from per-process files written by hand with the
// collector's writer: the collector's own overhead counted once, a program that crashed or replaced
// itself with exec, a collector that could not write any more, and the collector's notes.

#include "capture/launcher/recording_summary.h"
#include "capture/stream/native_stream_writer.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <csignal>

namespace gapscope::capture {
namespace {

/// A per-process file as the collector writes it.
class PartFile {
public:
    PartFile(const std::string& path, std::int64_t pid)
    {
        NativeStreamWriter::Header header;
        header.pid = pid;
        header.clock = native::ClockId::CuptiTimestamp;
        std::string error;
        EXPECT_TRUE(m_writer.open(path, header, error)) << error;
        text(native::MetadataKey::ProcessName, "client");
        // CUDA was recorded: no note about a missing driver comes between the ones under test.
        text(native::MetadataKey::CuptiStatus, "CUPTI API version 130001", 1);
    }
    void text(native::MetadataKey key, const std::string& value, std::int64_t number = 0)
    {
        m_writer.addMetadata({ static_cast<std::uint32_t>(key), -1, 0, number, m_writer.internString(value), 0 });
    }
    void event(std::int64_t start, std::int64_t end, std::int64_t lane, const std::string& name, native::EventCode code)
    {
        m_writer.addEvent(
            { start, end, 0, lane, m_writer.internString(name), 0, 0, -1, static_cast<std::uint8_t>(code), 0 });
    }
    void close() { m_writer.close(10'000); }
    /// Flushed but never closed: what a crash, a kill or an exec leaves.
    void abandon() { m_writer.flush(); }

private:
    NativeStreamWriter m_writer;
};

TEST(RecordingSummaryTest, CollectorOverheadCountsEachInstantOnceAndNotTheProgramsCosts)
{
    gapscope::test::TempDir dir;
    PartFile part(dir.file("gapscope-4242.gapscope"), 4242);
    part.event(100, 200, native::kCollectorLane, "GapScope flush", native::EventCode::Overhead);
    // CUPTI's buffer flush happens inside GapScope's flush: the same 30 ns are not counted twice.
    part.event(120, 150, native::kCollectorLane, "CUPTI buffer flush", native::EventCode::Overhead);
    part.event(300, 310, native::kCollectorLane, "CUPTI instrumentation", native::EventCode::Overhead);
    // JIT compilation is the program's cost: on its thread, not in the collector's overhead.
    part.event(400, 900, 4242, "Driver compiler", native::EventCode::Other);
    part.text(native::MetadataKey::CuptiStatus, "CUPTI API version 130001, 8 activity kinds enabled", 1);
    part.text(native::MetadataKey::CollectorNote,
        "the program received SIGINT: the collector flushed and closed this "
        "file, then let the signal end the program");
    part.close();
    auto gathered = gatherRecording(dir.path().string(), true, 4242, ProgramExit { std::nullopt, SIGINT });
    ASSERT_TRUE(gathered) << gathered.error().toString();
    const RecordingSummary& summary = gathered.value().summary;
    EXPECT_EQ(summary.collectorOverheadNs, 110);
    EXPECT_EQ(summary.overheadEvents, 3u);
    EXPECT_EQ(summary.eventsByKind[static_cast<int>(EventKind::Other)], 1u);
    ASSERT_EQ(summary.processes.size(), 1u);
    EXPECT_TRUE(summary.processes[0].closedCleanly);
    EXPECT_TRUE(summary.notes.empty());

    const std::string text = formatSummary(summary, ProgramExit { std::nullopt, SIGINT }, 2.0);
    EXPECT_NE(text.find("    CUPTI: CUPTI API version 130001, 8 activity kinds enabled\n"), std::string::npos) << text;
    EXPECT_NE(text.find("    collector note: the program received SIGINT: the collector flushed and closed this file"),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("Collector overhead: 0.000 ms in 3 overhead records"), std::string::npos) << text;
}

TEST(RecordingSummaryTest, SaysHowTheProgramEndedWhenItsFileWasNotClosed)
{
    gapscope::test::TempDir dir;
    PartFile part(dir.file("gapscope-4242.gapscope"), 4242);
    part.event(100, 200, 4242, "before-crash", native::EventCode::NvtxRange);
    part.abandon();
    auto gathered = gatherRecording(dir.path().string(), true, 4242, ProgramExit { std::nullopt, SIGSEGV });
    ASSERT_TRUE(gathered) << gathered.error().toString();
    const RecordingSummary& summary = gathered.value().summary;
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_EQ(summary.notes[0],
        "Process 4242 (the program) was ended by signal 11 (Segmentation fault) before the collector closed its file: "
        "the trace holds what was flushed until then; what came after its last flush is missing.");
    EXPECT_EQ(gathered.value().trace.eventCount(), 1u);
}

TEST(RecordingSummaryTest, ExecWithoutForkKeepsOneFilePerProgramImageInOrder)
{
    gapscope::test::TempDir dir;
    {
        PartFile before(dir.file("gapscope-4243.gapscope"), 4243);
        before.event(100, 200, 4243, "image1:work", native::EventCode::NvtxRange);
        before.abandon();
    }
    PartFile after(dir.file("gapscope-4243-1.gapscope"), 4243);
    after.event(300, 400, 4243, "image2:work", native::EventCode::NvtxRange);
    after.close();
    auto gathered = gatherRecording(dir.path().string(), true, 4243, ProgramExit { 0, std::nullopt });
    ASSERT_TRUE(gathered) << gathered.error().toString();
    const RecordingSummary& summary = gathered.value().summary;
    ASSERT_EQ(summary.processes.size(), 2u);
    EXPECT_EQ(summary.processes[0].file, dir.file("gapscope-4243.gapscope")); // the image before exec first
    EXPECT_FALSE(summary.processes[0].closedCleanly);
    EXPECT_TRUE(summary.processes[1].closedCleanly);
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_EQ(summary.notes[0],
        "Process 4243 replaced its program with exec() (no fork): the file of the program before it ends at its last "
        "flush, and the new program has a file of its own.");
    EXPECT_EQ(gathered.value().trace.eventCount(), 2u);
}

TEST(RecordingSummaryTest, ACollectorThatCouldNotWriteSaysSo)
{
    gapscope::test::TempDir dir;
    PartFile part(dir.file("gapscope-4244.gapscope"), 4244);
    part.text(native::MetadataKey::CollectorError,
        "writing the capture file failed after 4912 bytes (No space left "
        "on device): the collector stopped recording this process here; "
        "the program went on");
    part.abandon();
    auto gathered = gatherRecording(dir.path().string(), true, 4244, ProgramExit { 0, std::nullopt });
    ASSERT_TRUE(gathered) << gathered.error().toString();
    const RecordingSummary& summary = gathered.value().summary;
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_EQ(summary.notes[0],
        "The collector of process 4244 could not write its capture file any more (the disk filled or a file size "
        "limit was reached): it stopped recording there and the program went on; the trace ends at that point.");
}

} // namespace
} // namespace gapscope::capture
