// SPDX-License-Identifier: MIT
// The native capture format: NativeTraceWriter -> NativeTraceReader round trips, and the reader on
// hand-assembled files: cut off at every kind of place, a newer version, random bytes, bad events,
// unknown chunks and longer records from a newer writer.

#include "core/io/native/native_format.h"
#include "core/io/native/native_trace_reader.h"
#include "core/io/native/native_trace_writer.h"
#include "core/io/trace_file.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <sstream>

namespace gapscope {
namespace {

using native::ChunkType;
using native::EventCode;
using native::EventRecord;

/// Assembles native files byte by byte, so tests know exactly where each chunk starts.
class NativeBytes {
public:
    explicit NativeBytes(std::uint32_t version = native::kFormatVersion, std::int64_t pid = 4242, std::int32_t rank = 3)
    {
        native::FileHeader h {};
        std::memcpy(h.magic, native::kMagic, sizeof(h.magic));
        h.formatVersion = version;
        h.headerSize = sizeof(h);
        std::strncpy(h.producer, "gapscope test", sizeof(h.producer) - 1);
        h.clock = static_cast<std::uint32_t>(native::ClockId::CuptiTimestamp);
        h.rank = rank;
        h.pid = pid;
        append(&h, sizeof(h));
    }

    void strings(const std::vector<std::pair<std::uint32_t, std::string>>& entries)
    {
        std::string payload;
        for (const auto& [id, text] : entries) {
            const native::StringRecord entry { id, static_cast<std::uint32_t>(text.size()) };
            payload.append(reinterpret_cast<const char*>(&entry), sizeof(entry));
            payload += text;
            payload.append(native::paddedStringSize(entry.length) - sizeof(entry) - text.size(), '\0');
        }
        chunk(ChunkType::Strings, 0, static_cast<std::uint32_t>(entries.size()), payload);
    }

    template <typename T>
    void records(ChunkType type, const std::vector<T>& values, std::uint16_t recordSize = sizeof(T))
    {
        std::string payload;
        for (const T& v : values) {
            payload.append(reinterpret_cast<const char*>(&v), sizeof(T));
            payload.append(recordSize - sizeof(T), '\x7f'); // fields a newer writer appended
        }
        chunk(type, recordSize, static_cast<std::uint32_t>(values.size()), payload);
    }

    void chunk(ChunkType type, std::uint16_t recordSize, std::uint32_t count, const std::string& payload)
    {
        const native::ChunkHeader h { native::kChunkMarker, static_cast<std::uint16_t>(type), recordSize, count,
            static_cast<std::uint32_t>(payload.size()) };
        append(&h, sizeof(h));
        bytes += payload;
    }

    void end() { records(ChunkType::End, std::vector<native::EndRecord> { { 0, 0 } }); }

    std::string bytes;

private:
    void append(const void* data, std::size_t size) { bytes.append(static_cast<const char*>(data), size); }
};

EventRecord event(std::int64_t start, std::int64_t end, std::int64_t lane, std::uint32_t name, EventCode code,
    std::int16_t device = -1, std::uint32_t correlation = 0)
{
    return EventRecord { start, end, 0, lane, name, correlation, 0, device, static_cast<std::uint8_t>(code), 0 };
}

IoResult<NativeTraceReader::Capture> parse(const std::string& bytes)
{
    return NativeTraceReader::parse(bytes, "test.gapscope");
}

bool hasWarningContaining(const Trace& trace, const std::string& text)
{
    for (const ImportWarning& w : trace.warnings()) {
        if (w.message.find(text) != std::string::npos)
            return true;
    }
    return false;
}

std::vector<std::string> namesOnLane(const Trace& trace, const Lane& lane)
{
    std::vector<std::string> names;
    for (const Event& e : lane.events)
        names.emplace_back(trace.name(e));
    return names;
}

const Lane* threadLaneOf(const Trace& trace, std::int64_t tid)
{
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == LaneKind::CpuThread && lane.tid == tid)
            return &lane;
    }
    return nullptr;
}

// ---- round trip through the core writer --------------------------------------------------------

/// Two processes; threads, streams on two devices, every event kind, args, names, counts, warnings.
Trace handBuiltTrace()
{
    TraceBuilder trace;
    Process first;
    first.pid = 100;
    first.rank = 0;
    first.name = "train.py";
    first.sortIndex = 5;
    first.fileMetadataJson = R"({"schemaVersion":1})";
    const ProcessIndex p0 = trace.addProcess(first);
    Process second;
    second.pid = 200;
    second.name = "worker";
    const ProcessIndex p1 = trace.addProcess(second);

    const LaneIndex main = trace.threadLane(p0, 100);
    trace.lanes()[main.value].name = "MainThread";
    trace.lanes()[main.value].sortIndex = 1;
    const auto add = [&](LaneIndex lane, TimeNs start, TimeNs end, std::string_view name, EventKind kind,
                         std::uint32_t correlation = 0, std::uint64_t bytes = 0, CopyKind copy = CopyKind::Unknown,
                         std::string args = {}) {
        Event e;
        e.start = start;
        e.end = end;
        e.name = trace.strings().intern(name);
        e.kind = kind;
        e.correlation = correlation;
        e.bytes = bytes;
        e.copyKind = copy;
        if (!args.empty())
            e.args = trace.addArgs(std::move(args));
        trace.lanes()[lane.value].events.push_back(e);
    };
    add(main, 1000, 9000, "step", EventKind::NvtxRange);
    add(main, 1100, 1300, "cudaLaunchKernel", EventKind::RuntimeApi, 7);
    add(main, 1400, 1500, "cudaMemcpyAsync", EventKind::RuntimeApi, 8);
    add(main, 1600, 1700, "cuLaunchKernel", EventKind::DriverApi, 9);
    add(main, 2000, 2000, "checkpoint", EventKind::NvtxMark);
    add(main, 2100, 2200, "aten::mm", EventKind::CpuOp, 0, 0, CopyKind::Unknown, R"({"Input Dims":[[2,2]]})");
    add(main, 2300, 2400, "forward", EventKind::PythonFunction);
    add(main, 2500, 2600, "ProfilerStep#1", EventKind::UserAnnotation);
    add(main, 2700, 2800, "misc", EventKind::Other);
    const LaneIndex collector = trace.threadLane(p0, native::kCollectorLane);
    trace.lanes()[collector.value].name = native::kCollectorLaneName; // what the reader calls it anyway
    add(collector, 3000, 3050, "GapScope flush", EventKind::Overhead);

    const DeviceIndex gpu0 = trace.device(p0, 0);
    trace.devices()[gpu0.value].name = "NVIDIA H100";
    trace.devices()[gpu0.value].propertiesJson = R"({"id":0,"numSms":132})";
    const LaneIndex s7 = trace.streamLane(gpu0, 7);
    trace.lanes()[s7.value].name = "stream 7 (compute)";
    add(s7, 1200, 4000, "gemm_kernel", EventKind::Kernel, 7, 0, CopyKind::Unknown, R"({"grid":[1,2,3]})");
    add(s7, 4100, 4600, "Memcpy HtoD (Pinned -> Device)", EventKind::Memcpy, 8, 1 << 20, CopyKind::HtoD);
    add(s7, 4700, 4800, "Memset (Device)", EventKind::Memset, 0, 4096);
    add(s7, 4900, 5000, "Stream Sync", EventKind::Sync);
    add(s7, 5100, 5200, "gpu annotation", EventKind::GpuUserAnnotation);
    const DeviceIndex gpu1 = trace.device(p0, 1);
    const LaneIndex s13 = trace.streamLane(gpu1, 13);
    add(s13, 1800, 2600, "Memcpy PtoP (Device -> Device)", EventKind::Memcpy, 9, 512, CopyKind::PtoP);

    const LaneIndex workerThread = trace.threadLane(p1, 201);
    trace.lanes()[workerThread.value].name = "loader";
    add(workerThread, 500, 800, "load batch", EventKind::NvtxRange);

    trace.droppedRecords() = 12;
    trace.skippedEvents() = 3;
    trace.warnings().push_back({ "part-100.gapscope", 640, "the capture was not closed cleanly" });
    return std::move(trace).finish();
}

TEST(NativeFormatTest, WriterAndReaderRoundTripEverythingTheModelHolds)
{
    const Trace original = handBuiltTrace();
    std::ostringstream out;
    ASSERT_TRUE(NativeTraceWriter::write(original, out, { native::ClockId::CuptiTimestamp }));
    auto parsed = parse(out.str());
    ASSERT_TRUE(parsed) << parsed.error().toString();
    const Trace& trace = parsed.value().trace;
    const NativeFileInfo& info = parsed.value().info;
    EXPECT_TRUE(info.closedCleanly);
    EXPECT_EQ(info.clock, native::ClockId::CuptiTimestamp);
    EXPECT_EQ(info.bytesLoaded, out.str().size());

    ASSERT_EQ(trace.processes().size(), 2u);
    EXPECT_EQ(trace.processes()[0].pid, 100);
    EXPECT_EQ(trace.processes()[0].rank, 0);
    EXPECT_EQ(trace.processes()[0].name, "train.py");
    EXPECT_EQ(trace.processes()[0].sortIndex, 5);
    EXPECT_EQ(trace.processes()[0].fileMetadataJson, R"({"schemaVersion":1})");
    EXPECT_EQ(trace.processes()[1].pid, 200);
    EXPECT_FALSE(trace.processes()[1].rank.has_value());
    EXPECT_EQ(trace.processes()[1].name, "worker");
    EXPECT_EQ(trace.droppedRecords(), 12u);
    EXPECT_EQ(trace.skippedEvents(), 3u);
    ASSERT_EQ(trace.warnings().size(), 1u); // the original's warning, kept; the file itself is clean
    EXPECT_EQ(trace.warnings()[0].file, "part-100.gapscope");
    EXPECT_EQ(trace.warnings()[0].byteOffset, 640u);
    EXPECT_EQ(trace.eventCount(), original.eventCount());
    ASSERT_EQ(trace.lanes().size(), original.lanes().size());

    // Lanes come back in the writer's order with the same events, field by field.
    for (std::size_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& a = original.lanes()[l];
        const Lane& b = trace.lanes()[l];
        SCOPED_TRACE("lane " + std::to_string(l) + " " + a.name);
        EXPECT_EQ(a.kind, b.kind);
        EXPECT_EQ(a.process, b.process);
        EXPECT_EQ(a.tid, b.tid);
        EXPECT_EQ(a.stream, b.stream);
        EXPECT_EQ(a.name, b.name);
        EXPECT_EQ(a.sortIndex, b.sortIndex);
        ASSERT_EQ(a.events.size(), b.events.size());
        for (std::size_t i = 0; i < a.events.size(); ++i) {
            const Event& x = a.events[i];
            const Event& y = b.events[i];
            EXPECT_EQ(x.start, y.start);
            EXPECT_EQ(x.end, y.end);
            EXPECT_EQ(x.bytes, y.bytes);
            EXPECT_EQ(original.name(x), trace.name(y));
            EXPECT_EQ(x.correlation, y.correlation);
            EXPECT_EQ(original.argsJson(x), trace.argsJson(y));
            EXPECT_EQ(x.kind, y.kind);
            EXPECT_EQ(x.copyKind, y.copyKind);
            EXPECT_EQ(x.depth, y.depth);
        }
    }
    ASSERT_EQ(trace.devices().size(), 2u);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA H100");
    EXPECT_EQ(trace.devices()[0].propertiesJson, R"({"id":0,"numSms":132})");
    EXPECT_EQ(trace.devices()[1].id, 1);

    // The correlation index works on the loaded trace: the kernel's launch is cudaLaunchKernel.
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        if (lane.kind != LaneKind::GpuStream || lane.stream != 7)
            continue;
        const auto launch = trace.launchOf(EventRef { LaneIndex { l }, 0 });
        ASSERT_TRUE(launch.has_value());
        EXPECT_EQ(trace.name(trace.event(*launch)), "cudaLaunchKernel");
    }
}

TEST(NativeFormatTest, LoadTraceFileRecognisesTheNativeFormatByContent)
{
    test::TempDir dir;
    const std::string path = dir.file("recording.bin"); // the name does not matter, the magic does
    ASSERT_TRUE(NativeTraceWriter::writeFile(handBuiltTrace(), path));
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded) << loaded.error().toString();
    EXPECT_EQ(loaded.value().processes().size(), 2u);
    EXPECT_EQ(loaded.value().eventCount(), 17u);
    EXPECT_EQ(loaded.value().processes()[0].sourceFile, path);
}

// ---- files cut off ---------------------------------------------------------------------------------

/// header (64) | strings @64 (16 + 8+8 + 8+8 = 48) | events A @112 (16 + 3*48 = 160) |
/// events B @272 (16 + 2*48 = 112) | end @384 (16 + 16 = 32) | size 416
std::string fiveEventFile()
{
    NativeBytes file;
    file.strings({ { 1, "alpha" }, { 2, "beta" } });
    file.records(ChunkType::Events,
        std::vector<EventRecord> { event(10, 20, 1, 1, EventCode::NvtxRange), event(30, 40, 1, 2, EventCode::NvtxRange),
            event(50, 60, 2, 1, EventCode::NvtxRange) });
    file.records(ChunkType::Events,
        std::vector<EventRecord> {
            event(70, 80, 2, 2, EventCode::NvtxRange), event(90, 95, 7, 1, EventCode::Kernel, 0) });
    file.end();
    return file.bytes;
}

struct CutCase {
    const char* name;
    std::size_t size; // bytes kept
    std::size_t events; // events that must load
    const char* warning; // a warning that must be there ("" for none)
};

class NativeCutOffTest : public ::testing::TestWithParam<CutCase> { };

TEST_P(NativeCutOffTest, LoadsUpToTheLastCompleteChunkWithAWarning)
{
    const CutCase& c = GetParam();
    const std::string whole = fiveEventFile();
    ASSERT_EQ(whole.size(), 416u);
    auto parsed = parse(whole.substr(0, c.size));
    ASSERT_TRUE(parsed) << parsed.error().toString();
    const Trace& trace = parsed.value().trace;
    EXPECT_EQ(trace.eventCount(), c.events);
    if (*c.warning == '\0') {
        EXPECT_TRUE(trace.warnings().empty());
        EXPECT_TRUE(parsed.value().info.closedCleanly);
    } else {
        EXPECT_TRUE(hasWarningContaining(trace, c.warning)) << "no warning containing: " << c.warning;
        EXPECT_FALSE(parsed.value().info.closedCleanly);
    }
}

INSTANTIATE_TEST_SUITE_P(CutPoints, NativeCutOffTest,
    ::testing::Values(CutCase { "HeaderOnly", 64, 0, "not closed cleanly" },
        CutCase { "InsideStringsHeader", 70, 0, "cut off inside a chunk header" },
        CutCase { "InsideStrings", 100, 0, "cut off inside a chunk: loaded the 64 bytes" },
        CutCase { "AfterStrings", 112, 0, "not closed cleanly" },
        CutCase { "InsideFirstEvents", 200, 0, "cut off inside a chunk: loaded the 112 bytes" },
        CutCase { "AfterFirstEvents", 272, 3, "not closed cleanly" },
        CutCase { "InsideSecondEvents", 380, 3, "cut off inside a chunk: loaded the 272 bytes" },
        CutCase { "BeforeEnd", 384, 5, "not closed cleanly" },
        CutCase { "InsideEnd", 400, 5, "cut off inside a chunk: loaded the 384 bytes" },
        CutCase { "Whole", 416, 5, "" }),
    [](const ::testing::TestParamInfo<CutCase>& info) { return std::string(info.param.name); });

TEST(NativeFormatTest, CutOffWarningCarriesTheOffsetOfTheBrokenChunk)
{
    const std::string whole = fiveEventFile();
    auto parsed = parse(whole.substr(0, 300));
    ASSERT_TRUE(parsed);
    ASSERT_EQ(parsed.value().trace.warnings().size(), 1u);
    EXPECT_EQ(parsed.value().trace.warnings()[0].byteOffset, 272u);
    EXPECT_EQ(parsed.value().info.bytesLoaded, 272u);
    EXPECT_EQ(parsed.value().trace.warnings()[0].file, "test.gapscope");
}

TEST(NativeFormatTest, HeaderCutOffIsAnError)
{
    const std::string whole = fiveEventFile();
    auto parsed = parse(whole.substr(0, 30));
    ASSERT_FALSE(parsed);
    EXPECT_NE(parsed.error().message.find("cut off inside its header"), std::string::npos);
}

// ---- not ours, or not ours to read ---------------------------------------------------------------

TEST(NativeFormatTest, NewerFormatVersionIsRefusedClearly)
{
    NativeBytes file(native::kFormatVersion + 1);
    file.end();
    auto parsed = parse(file.bytes);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(parsed.error().byteOffset, 8u);
    EXPECT_EQ(parsed.error().message,
        "written by a newer GapScope (capture format version 2; this build reads versions up to 1): update "
        "GapScope to open it");
}

TEST(NativeFormatTest, RandomBytesAreNotACapture)
{
    std::mt19937 random(20240611);
    std::string bytes(4096, '\0');
    for (char& c : bytes)
        c = static_cast<char>(random());
    auto parsed = parse(bytes);
    ASSERT_FALSE(parsed);
    EXPECT_EQ(
        parsed.error().message, "not a GapScope capture file (it does not start with the native format's signature)");
    EXPECT_FALSE(parse(std::string()));
    EXPECT_FALSE(parse(std::string(R"({"traceEvents":[]})")));
}

TEST(NativeFormatTest, RandomBytesAfterAValidHeaderLoadNothingWithAWarning)
{
    NativeBytes file;
    std::mt19937 random(7);
    for (int i = 0; i < 1000; ++i)
        file.bytes += static_cast<char>(random());
    auto parsed = parse(file.bytes);
    ASSERT_TRUE(parsed);
    EXPECT_EQ(parsed.value().trace.eventCount(), 0u);
    EXPECT_TRUE(hasWarningContaining(parsed.value().trace, "no chunk starts here (the file is damaged)"));
    EXPECT_EQ(parsed.value().trace.warnings()[0].byteOffset, 64u);
}

// ---- bad records inside good chunks ---------------------------------------------------------------

TEST(NativeFormatTest, BadEventsAreSkippedCountedAndLocated)
{
    NativeBytes file; // strings @64 (16 + 16 = 32), events @96: records start at 112
    file.strings({ { 1, "good" } });
    EventRecord unknownKind = event(10, 20, 1, 1, EventCode::NvtxRange);
    unknownKind.code = 200;
    file.records(ChunkType::Events,
        std::vector<EventRecord> { event(10, 20, 1, 1, EventCode::NvtxRange), unknownKind,
            event(30, 40, 1, 9, EventCode::NvtxRange), // string 9 undefined
            event(50, 45, 1, 1, EventCode::NvtxRange), // ends before it starts
            event(60, 70, 1, 1, EventCode::NvtxMark) });
    file.end();
    auto parsed = parse(file.bytes);
    ASSERT_TRUE(parsed);
    const Trace& trace = parsed.value().trace;
    EXPECT_EQ(trace.eventCount(), 2u);
    EXPECT_EQ(trace.skippedEvents(), 3u);
    ASSERT_EQ(trace.warnings().size(), 3u);
    EXPECT_EQ(trace.warnings()[0].byteOffset, 112u + 48u);
    EXPECT_EQ(trace.warnings()[0].message, "skipped an event: unknown event kind 200");
    EXPECT_EQ(trace.warnings()[1].byteOffset, 112u + 96u);
    EXPECT_EQ(trace.warnings()[1].message, "skipped an event: it refers to a string the file does not define");
    EXPECT_EQ(trace.warnings()[2].byteOffset, 112u + 144u);
    EXPECT_EQ(trace.warnings()[2].message, "skipped an event: it ends before it starts");
}

TEST(NativeFormatTest, UnknownChunksAndLongerRecordsFromANewerWriterAreRead)
{
    NativeBytes file;
    file.strings({ { 1, "k" } });
    file.chunk(static_cast<ChunkType>(77), 0, 1, std::string(24, 'x'));
    // A newer writer appended 16 bytes to each event: the known prefix still reads.
    file.records(ChunkType::Events,
        std::vector<EventRecord> {
            event(100, 200, 5, 1, EventCode::Kernel, 2, 31), event(300, 450, 5, 1, EventCode::Kernel, 2, 32) },
        sizeof(EventRecord) + 16);
    file.end();
    auto parsed = parse(file.bytes);
    ASSERT_TRUE(parsed) << parsed.error().toString();
    const Trace& trace = parsed.value().trace;
    ASSERT_EQ(trace.eventCount(), 2u);
    ASSERT_EQ(trace.lanes().size(), 1u);
    EXPECT_EQ(trace.lanes()[0].kind, LaneKind::GpuStream);
    EXPECT_EQ(trace.lanes()[0].stream, 5);
    EXPECT_EQ(trace.devices()[trace.lanes()[0].device.value].id, 2);
    EXPECT_EQ(trace.lanes()[0].events[1].start, 300);
    EXPECT_EQ(trace.lanes()[0].events[1].end, 450);
    EXPECT_EQ(trace.lanes()[0].events[1].correlation, 32u);
    EXPECT_EQ(trace.lanes()[0].events[1].kind, EventKind::Kernel);
    ASSERT_EQ(trace.warnings().size(), 1u);
    EXPECT_EQ(trace.warnings()[0].message, "skipped a chunk of unknown type 77 (written by a newer GapScope?)");
}

// ---- what the collector writes ---------------------------------------------------------------------

TEST(NativeFormatTest, CollectorFileMetadataNamesLanesAndDescribesTheProcess)
{
    NativeBytes file(native::kFormatVersion, 4242, 3);
    file.strings({ { 1, "python3" }, { 2, "ranks-main" }, { 3, "pt_main_thread" }, { 4, "worker" }, { 5, "step" },
        { 6, "CUPTI unavailable" }, { 7, "GapScope flush" }, { 8, "python3 train.py" } });
    using native::MetadataKey;
    const auto meta = [](MetadataKey key, std::uint32_t text, std::int64_t subject = 0, std::int64_t number = 0) {
        return native::MetadataRecord { static_cast<std::uint32_t>(key), -1, subject, number, text, 0 };
    };
    file.records(ChunkType::Metadata,
        std::vector<native::MetadataRecord> { meta(MetadataKey::ProcessName, 1), meta(MetadataKey::CommandLine, 8),
            meta(MetadataKey::ParentPid, 0, 0, 4000), meta(MetadataKey::ThreadOsName, 3, 4242), // the kernel's name...
            meta(MetadataKey::ThreadName, 2, 4242), // ...loses to the program's own
            meta(MetadataKey::ThreadOsName, 4, 4250), meta(MetadataKey::ThreadName, 4, 9999), // no events
            meta(MetadataKey::CollectorError, 6), meta(MetadataKey::CuptiStatus, 6, 0, 0) });
    file.records(ChunkType::Events,
        std::vector<EventRecord> { event(10, 50, 4242, 5, EventCode::NvtxRange),
            event(20, 30, 4250, 5, EventCode::NvtxRange),
            event(60, 61, native::kCollectorLane, 7, EventCode::Overhead) });
    file.records(ChunkType::Counters, std::vector<native::CountersRecord> { { 5, 2, 1, 0 }, { 1, 0, 0, 8 } });
    file.end();
    auto parsed = parse(file.bytes);
    ASSERT_TRUE(parsed) << parsed.error().toString();
    const Trace& trace = parsed.value().trace;
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].pid, 4242);
    EXPECT_EQ(trace.processes()[0].rank, 3);
    EXPECT_EQ(trace.processes()[0].name, "python3");
    ASSERT_EQ(trace.lanes().size(), 3u); // thread 9999 was named but has no events: no lane
    EXPECT_EQ(threadLaneOf(trace, 4242)->name, "ranks-main");
    EXPECT_EQ(threadLaneOf(trace, 4250)->name, "worker");
    EXPECT_EQ(threadLaneOf(trace, native::kCollectorLane)->name, native::kCollectorLaneName);
    EXPECT_EQ(threadLaneOf(trace, native::kCollectorLane)->events[0].kind, EventKind::Overhead);
    EXPECT_EQ(trace.droppedRecords(), 6u);
    EXPECT_EQ(trace.skippedEvents(), 2u);
    ASSERT_EQ(trace.warnings().size(), 1u);
    EXPECT_EQ(trace.warnings()[0].message, "collector in process 4242: CUPTI unavailable");

    const NativeFileInfo& info = parsed.value().info;
    ASSERT_EQ(info.processes.size(), 1u);
    EXPECT_EQ(info.processes[0].parentPid, 4000);
    EXPECT_EQ(info.processes[0].commandLine, "python3 train.py");
    EXPECT_EQ(info.processes[0].cuptiActive, false);
    EXPECT_EQ(info.processes[0].collectorErrors, std::vector<std::string> { "CUPTI unavailable" });
    EXPECT_EQ(info.processes[0].counters.droppedRecords, 6u);
    EXPECT_EQ(info.processes[0].counters.unknownRecords, 1u);
    EXPECT_EQ(info.processes[0].counters.truncatedBytes, 8u);
    EXPECT_EQ(info.producer, "gapscope test");
}

TEST(NativeFormatTest, ProcessChunksStartNewProcesses)
{
    NativeBytes file(native::kFormatVersion, 1, -1);
    file.strings({ { 1, "a" }, { 2, "proc-two" } });
    file.records(ChunkType::Process, std::vector<native::ProcessRecord> { { 11, 0, 0 } });
    file.records(ChunkType::Events, std::vector<EventRecord> { event(1, 2, 11, 1, EventCode::NvtxRange) });
    file.records(ChunkType::Process, std::vector<native::ProcessRecord> { { 22, 1, 2 } });
    file.records(ChunkType::Events,
        std::vector<EventRecord> {
            event(3, 4, 22, 1, EventCode::NvtxRange), event(5, 6, 22, 1, EventCode::NvtxRange) });
    file.end();
    auto parsed = parse(file.bytes);
    ASSERT_TRUE(parsed);
    const Trace& trace = parsed.value().trace;
    ASSERT_EQ(trace.processes().size(), 2u); // no implicit process for the header's pid 1: it has no data
    EXPECT_EQ(trace.processes()[0].pid, 11);
    EXPECT_EQ(trace.processes()[0].rank, 0);
    EXPECT_EQ(trace.processes()[1].pid, 22);
    EXPECT_EQ(trace.processes()[1].rank, 1);
    EXPECT_EQ(trace.processes()[1].name, "proc-two");
    ASSERT_EQ(trace.lanes().size(), 2u);
    EXPECT_EQ(trace.lanes()[0].process.value, 0u);
    EXPECT_EQ(trace.lanes()[0].events.size(), 1u);
    EXPECT_EQ(trace.lanes()[1].process.value, 1u);
    EXPECT_EQ(namesOnLane(trace, trace.lanes()[1]), (std::vector<std::string> { "a", "a" }));
}

} // namespace
} // namespace gapscope
