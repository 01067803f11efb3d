// SPDX-License-Identifier: MIT
// loadTraceFile / loadTraceFiles / saveTraceFile, and the read → write → read round trip of the Chrome
// writer over the real traces in tests/data and a hand-built trace with every EventKind.
#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/chrome/chrome_trace_writer.h"
#include "core/io/native/native_trace_writer.h"
#include "core/io/trace_file.h"
#include "tests/core/every_kind_trace.h"

#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include "tests/core/hand_trace.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <tuple>

#include <sys/stat.h>

namespace gapscope {
namespace {

using test::countKind;

using test::dataPath;
using test::TempDir;

// ---- model comparison -----------------------------------------------------------------------

/// A lane's identity independent of its index: (process, kind, tid) or (process, kind, device id, stream).
using LaneKey = std::tuple<std::uint32_t, int, std::int64_t, int>;

LaneKey keyOf(const Trace& trace, const Lane& lane)
{
    if (lane.kind == LaneKind::GpuStream)
        return { lane.process.value, 1, lane.stream, trace.devices()[lane.device.value].id };
    return { lane.process.value, 0, lane.tid, 0 };
}

/// The written args must hold what the original args held; the writer may only add the model's own
/// fields (device, stream, correlation, bytes) where the original lacked them, with the model's values.
testing::AssertionResult sameArgs(
    const Trace& original, const Event& a, const Trace& reread, const Event& b, const Lane& lane)
{
    const std::string_view textA = original.argsJson(a);
    const std::string_view textB = reread.argsJson(b);
    if (textA == textB)
        return testing::AssertionSuccess();
    const auto parse = [](std::string_view text) {
        return text.empty() ? nlohmann::json::object() : nlohmann::json::parse(text, nullptr, false);
    };
    const nlohmann::json argsA = parse(textA);
    const nlohmann::json argsB = parse(textB);
    if (!argsA.is_object() || !argsB.is_object())
        return testing::AssertionFailure() << "args are not objects: " << textA << " / " << textB;
    for (const auto& [key, value] : argsA.items()) {
        if (!argsB.contains(key) || argsB[key] != value)
            return testing::AssertionFailure()
                << "args key '" << key << "' lost or changed: " << textA << " → " << textB;
    }
    for (const auto& [key, value] : argsB.items()) {
        if (argsA.contains(key))
            continue;
        nlohmann::json expected;
        if (key == "device" && lane.kind == LaneKind::GpuStream)
            expected = original.devices()[lane.device.value].id;
        else if (key == "stream" && lane.kind == LaneKind::GpuStream)
            expected = lane.stream;
        else if (key == "correlation")
            expected = a.correlation;
        else if (key == "bytes")
            expected = a.bytes;
        else
            return testing::AssertionFailure() << "args key '" << key << "' added: " << textA << " → " << textB;
        if (value != expected)
            return testing::AssertionFailure()
                << "added args key '" << key << "' is " << value.dump() << ", not " << expected.dump();
    }
    return testing::AssertionSuccess();
}

testing::AssertionResult sameEvent(const Trace& original, const Event& a, const Trace& reread, const Event& b)
{
    if (a.kind != b.kind || a.start != b.start || a.end != b.end || original.name(a) != reread.name(b)
        || a.correlation != b.correlation || a.bytes != b.bytes || a.copyKind != b.copyKind)
        return testing::AssertionFailure()
            << eventKindName(a.kind) << " '" << original.name(a) << "' [" << a.start << ", " << a.end << ") corr "
            << a.correlation << " bytes " << a.bytes << " copy " << copyKindName(a.copyKind) << " came back as "
            << eventKindName(b.kind) << " '" << reread.name(b) << "' [" << b.start << ", " << b.end << ") corr "
            << b.correlation << " bytes " << b.bytes << " copy " << copyKindName(b.copyKind);
    return testing::AssertionSuccess();
}

/// Same processes (pid, name, rank), devices (id, name, properties), lanes (kind, tid/stream, name) and per
/// lane the same events (kind, start, end, name, correlation, bytes, copy kind, args content).
void expectSameModel(const Trace& original, const Trace& reread)
{
    ASSERT_EQ(original.processes().size(), reread.processes().size());
    for (std::size_t p = 0; p < original.processes().size(); ++p) {
        EXPECT_EQ(original.processes()[p].pid, reread.processes()[p].pid);
        EXPECT_EQ(original.processes()[p].name, reread.processes()[p].name);
        EXPECT_EQ(original.processes()[p].rank, reread.processes()[p].rank);
        if (original.processes()[p].sortIndex) {
            EXPECT_EQ(original.processes()[p].sortIndex, reread.processes()[p].sortIndex);
        }
    }
    ASSERT_EQ(original.devices().size(), reread.devices().size());
    for (std::size_t d = 0; d < original.devices().size(); ++d) {
        EXPECT_EQ(original.devices()[d].process, reread.devices()[d].process);
        EXPECT_EQ(original.devices()[d].id, reread.devices()[d].id);
        EXPECT_EQ(original.devices()[d].name, reread.devices()[d].name);
        if (!original.devices()[d].propertiesJson.empty()) {
            EXPECT_EQ(nlohmann::json::parse(original.devices()[d].propertiesJson),
                nlohmann::json::parse(reread.devices()[d].propertiesJson));
        }
    }
    std::map<LaneKey, const Lane*> rereadLanes;
    for (const Lane& lane : reread.lanes())
        rereadLanes.emplace(keyOf(reread, lane), &lane);
    ASSERT_EQ(original.lanes().size(), reread.lanes().size());
    for (const Lane& lane : original.lanes()) {
        const auto it = rereadLanes.find(keyOf(original, lane));
        ASSERT_NE(it, rereadLanes.end()) << "lane lost: " << (lane.kind == LaneKind::GpuStream ? "stream " : "tid ")
                                         << (lane.kind == LaneKind::GpuStream ? lane.stream : lane.tid);
        const Lane& other = *it->second;
        // A stream lane without a name (legacy files' tid "stream 7") is written with the name Kineto gives it.
        const bool unnamedStream = lane.kind == LaneKind::GpuStream && lane.name.empty();
        EXPECT_EQ(unnamedStream ? "stream " + std::to_string(lane.stream) : lane.name, other.name);
        if (lane.sortIndex) {
            EXPECT_EQ(lane.sortIndex, other.sortIndex);
        }
        ASSERT_EQ(lane.events.size(), other.events.size()) << "lane " << lane.name;
        for (std::size_t i = 0; i < lane.events.size(); ++i) {
            ASSERT_TRUE(sameEvent(original, lane.events[i], reread, other.events[i])) << "lane " << lane.name;
            ASSERT_TRUE(sameArgs(original, lane.events[i], reread, other.events[i], lane)) << "lane " << lane.name;
        }
    }
}

std::string writeToString(const Trace& trace)
{
    std::ostringstream out;
    ChromeTraceWriter::write(trace, out);
    return out.str();
}

// ---- real traces ------------------------------------------------------------------------------

struct RealTraceCase {
    const char* label;
    const char* path;
    // Counted in the file itself (X events of that category, e.g. cat "kernel" or legacy "Kernel").
    std::size_t kernels;
    std::size_t memcpys;
    std::size_t memsets;
    std::optional<int> rank; // distributedInfo.rank
};

class RealTraceRoundTrip : public testing::TestWithParam<RealTraceCase> { };

TEST_P(RealTraceRoundTrip, ReadWriteReadGivesTheSameModel)
{
    const RealTraceCase& c = GetParam();
    auto original = loadTraceFile(dataPath(c.path));
    ASSERT_TRUE(original) << original.error().toString();
    EXPECT_EQ(countKind(original.value(), EventKind::Kernel), c.kernels);
    EXPECT_EQ(countKind(original.value(), EventKind::Memcpy), c.memcpys);
    EXPECT_EQ(countKind(original.value(), EventKind::Memset), c.memsets);
    ASSERT_FALSE(original.value().processes().empty());
    EXPECT_EQ(original.value().processes()[0].rank, c.rank);

    TempDir dir;
    const std::string written = dir.file("out.pt.trace.json.gz");
    const auto saved = saveTraceFile(original.value(), written);
    ASSERT_TRUE(saved) << saved.error().toString();
    auto reread = loadTraceFile(written);
    ASSERT_TRUE(reread) << reread.error().toString();
    EXPECT_EQ(reread.value().skippedEvents(), 0u);
    EXPECT_TRUE(reread.value().warnings().empty())
        << reread.value().warnings().front().message << " at byte " << reread.value().warnings().front().byteOffset;
    EXPECT_EQ(reread.value().eventCount(), original.value().eventCount());
    expectSameModel(original.value(), reread.value());

    // Writing what was read back gives the same bytes: nothing drifts over repeated conversions.
    EXPECT_TRUE(writeToString(original.value()) == writeToString(reread.value()));
}

INSTANTIATE_TEST_SUITE_P(TestData, RealTraceRoundTrip,
    testing::Values(RealTraceCase { "simpleAdd",
                        "hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz", 79, 16, 3, 0 },
        RealTraceCase { "eventSync", "hta/critical_path/cuda_event_sync/event_sync_trace.json.gz", 4, 1, 0, 0 },
        RealTraceCase { "eventSyncMultiStream",
            "hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz", 3, 0, 3, 0 },
        RealTraceCase { "resnet50", test::kResnet50Trace, 8772, 12, 312, std::nullopt },
        RealTraceCase { "legacyArray", test::kResnet50LegacyTrace, 9538, 12, 377, std::nullopt },
        RealTraceCase { "sampledRank0", "hta/trace_filter/sampled_rank-0.json.gz", 1154, 40, 10, 0 },
        RealTraceCase { "sampledRank1", "hta/trace_filter/sampled_rank-1.json.gz", 1104, 40, 10, 1 },
        RealTraceCase { "nsResolution", "hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz", 4350,
            1600, 145, 0 },
        RealTraceCase { "cpuOnly", "hta/rank_non_gpu/rank_non_gpu.json.gz", 0, 0, 0, 0 },
        RealTraceCase {
            "tbPluginDerived", "kineto/derived/tb_plugin_test_gpu_utilization.json", 5, 0, 0, std::nullopt },
        RealTraceCase { "tracelensFalconsai", "tracelens/h100/Falconsai_nsfw_image_detection__1016002.json.gz", 154, 0,
            2, std::nullopt }),
    [](const auto& info) { return std::string(info.param.label); });

TEST(RealTraceRoundTrip, FloatMicrosecondsComeBackToTheSameNanoseconds)
{
    // The ns-resolution trace writes ts as floats: "ts": 1712195495519689.047, "dur": 63.813 (its first event).
    auto original = loadTraceFile(dataPath("hta/ns_resolution_trace/rank-0.Apr_03_18_51_38.1102.pt.trace.json.gz"));
    ASSERT_TRUE(original) << original.error().toString();
    const std::string text = writeToString(original.value());
    // Written as exact decimals, not re-rounded floats.
    EXPECT_NE(text.find(R"("ts":1712195495519689.047,"dur":63.813,)"), std::string::npos);
    // Its second event, "dur": 53.090, comes out without the trailing zero.
    EXPECT_NE(text.find(R"("ts":1712195495519695.812,"dur":53.09,)"), std::string::npos);
    auto reread = ChromeTraceReader::parse(text, "written.json");
    ASSERT_TRUE(reread) << reread.error().toString();
    bool found = false;
    for (const Lane& lane : reread.value().lanes()) {
        for (const Event& e : lane.events) {
            if (e.start == 1712195495519689047
                && reread.value().name(e) == "autograd::engine::evaluate_function: DivBackward1") {
                EXPECT_EQ(e.end - e.start, 63813);
                found = true;
            }
        }
    }
    EXPECT_TRUE(found);
}

// ---- hand-built: every kind -------------------------------------------------------------------

using test::buildEveryKindTrace;

/// A 2024 epoch time in ns, not representable as a double: buildEveryKindTrace(kEpochOrigin)'s times keep every
/// digit through a write and a read.
constexpr TimeNs kEpochOrigin = 1712195495519695753;

TEST(HandBuiltRoundTrip, EveryKindComesBackTheSame)
{
    const Trace original = buildEveryKindTrace(kEpochOrigin);
    const std::string text = writeToString(original);
    auto reread = ChromeTraceReader::parse(text, "every_kind.json");
    ASSERT_TRUE(reread) << reread.error().toString();
    EXPECT_EQ(reread.value().skippedEvents(), 0u);
    EXPECT_EQ(reread.value().eventCount(), 17u);
    expectSameModel(original, reread.value());
    for (int k = 0; k < kEventKindCount; ++k)
        EXPECT_GE(countKind(reread.value(), static_cast<EventKind>(k)), 1u) << eventKindName(static_cast<EventKind>(k));
    // Launch links survive: the kernel's launch is the cudaLaunchKernel call, via correlation 77.
    const Trace& t = reread.value();
    for (std::uint32_t l = 0; l < t.lanes().size(); ++l) {
        for (std::uint32_t i = 0; i < t.lanes()[l].events.size(); ++i) {
            const Event& e = t.lanes()[l].events[i];
            if (e.correlation == 77 && e.kind == EventKind::Kernel) {
                const auto launch = t.launchOf({ LaneIndex { l }, i });
                ASSERT_TRUE(launch);
                EXPECT_EQ(t.name(t.event(*launch)), "cudaLaunchKernel");
            }
        }
    }
    EXPECT_EQ(writeToString(reread.value()), text);
}

TEST(HandBuiltRoundTrip, UnnamedStreamLanesComeBackNamedLikeKineto)
{
    TraceBuilder builder;
    Process process;
    process.pid = 77;
    const ProcessIndex p = builder.addProcess(process);
    const LaneIndex lane = builder.streamLane(builder.device(p, 3), 13);
    Event e;
    e.kind = EventKind::Kernel;
    e.name = builder.strings().intern("k");
    e.start = 1000;
    e.end = 2000;
    builder.lanes()[lane.value].events.push_back(e);
    Trace trace = std::move(builder).finish();
    auto reread = ChromeTraceReader::parse(writeToString(trace), "unnamed.json");
    ASSERT_TRUE(reread) << reread.error().toString();
    ASSERT_EQ(reread.value().devices().size(), 1u);
    EXPECT_EQ(reread.value().devices()[0].id, 3);
    ASSERT_EQ(reread.value().lanes().size(), 1u);
    EXPECT_EQ(reread.value().lanes()[0].name, "stream 13");
    EXPECT_EQ(reread.value().lanes()[0].stream, 13);
    EXPECT_EQ(reread.value().lanes()[0].sortIndex, 13);
}

// ---- several files ----------------------------------------------------------------------------

TEST(LoadTraceFiles, LoadsTheRanksOfOneJobIntoOneTrace)
{
    auto both = loadTraceFiles(
        { dataPath("hta/trace_filter/sampled_rank-0.json.gz"), dataPath("hta/trace_filter/sampled_rank-1.json.gz") });
    ASSERT_TRUE(both) << both.error().toString();
    const Trace& trace = both.value();
    ASSERT_EQ(trace.processes().size(), 2u);
    EXPECT_EQ(trace.processes()[0].pid, 4037); // host pids of the two files (their cpu_op events)
    EXPECT_EQ(trace.processes()[0].rank, 0);
    EXPECT_EQ(trace.processes()[1].pid, 4045);
    EXPECT_EQ(trace.processes()[1].rank, 1);
    EXPECT_EQ(countKind(trace, EventKind::Kernel), 1154u + 1104u);
    ASSERT_EQ(trace.devices().size(), 2u);
    EXPECT_EQ(trace.devices()[1].process, ProcessIndex { 1 });
    // Finalized: correlation lookups work across the merged trace, within each process.
    std::size_t linked = 0;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        if (trace.lanes()[l].kind != LaneKind::GpuStream)
            continue;
        for (std::uint32_t i = 0; i < trace.lanes()[l].events.size(); ++i) {
            if (const auto launch = trace.launchOf({ LaneIndex { l }, i }))
                linked += trace.lanes()[launch->lane.value].process == trace.lanes()[l].process;
        }
    }
    EXPECT_GT(linked, 0u);
}

TEST(SaveTraceFile, SeveralProcessesGoIntoOneFileWithEveryEvent)
{
    auto both = loadTraceFiles(
        { dataPath("hta/trace_filter/sampled_rank-0.json.gz"), dataPath("hta/trace_filter/sampled_rank-1.json.gz") });
    ASSERT_TRUE(both) << both.error().toString();
    TempDir dir;
    const std::string path = dir.file("job.json");
    ASSERT_TRUE(saveTraceFile(both.value(), path));
    auto reread = loadTraceFile(path);
    ASSERT_TRUE(reread) << reread.error().toString();
    // Every event and both host processes come back. A Kineto file has one rank and puts every GPU under
    // the file's main process (GPU pid = device id), so which rank drove which GPU is not kept: save one
    // file per process for that.
    EXPECT_EQ(reread.value().eventCount(), both.value().eventCount());
    EXPECT_EQ(countKind(reread.value(), EventKind::Kernel), 1154u + 1104u);
    ASSERT_EQ(reread.value().processes().size(), 2u);
    EXPECT_EQ(reread.value().processes()[0].pid, 4037);
    EXPECT_EQ(reread.value().processes()[1].pid, 4045);
    EXPECT_EQ(reread.value().processes()[1].name, both.value().processes()[1].name);
}

TEST(LoadTraceFiles, AnErrorInAnyFileNamesThatFile)
{
    TempDir dir;
    const std::string bad = dir.file("rank-1.json");
    test::writeWholeFile(bad, R"({"traceEvents": [{"ph": "X", "name": "k", "ts": 1)");
    auto result = loadTraceFiles({ dataPath("hta/trace_filter/sampled_rank-0.json.gz"), bad });
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, bad);
    EXPECT_NE(result.error().toString().find(bad), std::string::npos);
    EXPECT_FALSE(loadTraceFiles({}));
}

// ---- choosing the reader by content -----------------------------------------------------------

TEST(LoadTraceFile, ChoosesTheReaderByContentNotByName)
{
    TempDir dir;
    // gzip content under a name without .gz
    std::filesystem::copy_file(
        dataPath("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz"), dir.file("compressed.trace"));
    auto compressed = loadTraceFile(dir.file("compressed.trace"));
    ASSERT_TRUE(compressed) << compressed.error().toString();
    EXPECT_EQ(countKind(compressed.value(), EventKind::Kernel), 4u);
    // Plain JSON with a byte order mark and leading whitespace, named .gz; a bare array.
    test::writeWholeFile(dir.file("plain.gz"),
        "\xef\xbb\xbf \n\t[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", "
        "\"pid\": 0, \"tid\": 7, \"ts\": 1.5, \"dur\": 2, "
        "\"args\": {\"device\": 0, \"stream\": 7}}]");
    auto plain = loadTraceFile(dir.file("plain.gz"));
    ASSERT_TRUE(plain) << plain.error().toString();
    ASSERT_EQ(plain.value().eventCount(), 1u);
    EXPECT_EQ(countKind(plain.value(), EventKind::Kernel), 1u);
}

TEST(LoadTraceFile, HandsCaptureFilesToTheNativeReader)
{
    TempDir dir;
    const Trace original = buildEveryKindTrace(kEpochOrigin);
    const std::string path = dir.file("run.json"); // the name says JSON; the magic bytes say capture
    const auto written = NativeTraceWriter::writeFile(original, path);
    ASSERT_TRUE(written) << written.error().toString();
    auto loaded = loadTraceFile(path);
    ASSERT_TRUE(loaded) << loaded.error().toString();
    EXPECT_EQ(loaded.value().eventCount(), original.eventCount());
    EXPECT_EQ(countKind(loaded.value(), EventKind::NvtxMark), 1u);
}

struct BadInputCase {
    const char* label;
    const char* content; // nullptr: the file does not exist
    const char* message; // part of the error message
};

class LoadTraceFileErrors : public testing::TestWithParam<BadInputCase> { };

TEST_P(LoadTraceFileErrors, AreErrorsNamingTheFile)
{
    TempDir dir;
    const std::string path = dir.file("input.json");
    if (GetParam().content)
        test::writeWholeFile(path, GetParam().content);
    auto result = loadTraceFile(path);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, path);
    EXPECT_NE(result.error().message.find(GetParam().message), std::string::npos) << result.error().message;
}

INSTANTIATE_TEST_SUITE_P(Cases, LoadTraceFileErrors,
    testing::Values(BadInputCase { "missing", nullptr, "No such file" }, BadInputCase { "empty", "", "empty" },
        BadInputCase { "text", "hello, world\n", "not a trace GapScope reads" },
        BadInputCase { "captureCutOffInItsHeader", "\x89GSC\r\n\x1a\n", "header" }),
    [](const auto& info) { return std::string(info.param.label); });

// ---- saving -----------------------------------------------------------------------------------

TEST(SaveTraceFile, UnsupportedExtensionListsTheSupportedOnes)
{
    TempDir dir;
    const std::string path = dir.file("trace.csv");
    const auto result = saveTraceFile(buildEveryKindTrace(kEpochOrigin), path);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, path);
    EXPECT_NE(result.error().message.find(".json, .json.gz"), std::string::npos) << result.error().message;
    EXPECT_TRUE(dir.entries().empty());
}

TEST(SaveTraceFile, MissingFolderIsAnErrorNamingTheFile)
{
    TempDir dir;
    const std::string path = dir.file("missing/trace.json");
    const auto result = saveTraceFile(buildEveryKindTrace(kEpochOrigin), path);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, path);
    EXPECT_TRUE(dir.entries().empty());
}

TEST(SaveTraceFile, FailedWriteLeavesTheExistingFileIntact)
{
    TempDir dir;
    const std::string path = dir.file("trace.json.gz");
    std::filesystem::copy_file(dataPath("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz"), path);
    const std::string before = test::readWholeFile(path);
    auto big = loadTraceFile(dataPath("hta/trace_filter/sampled_rank-0.json.gz"));
    ASSERT_TRUE(big);
    IoResult<void> result;
    {
        test::FileSizeLimit limit(16 * 1024); // the disk "fills up" after 16 KiB of the ~147 KB output
        if (!limit.active())
            GTEST_SKIP() << "setrlimit(RLIMIT_FSIZE) is not permitted here";
        result = saveTraceFile(big.value(), path);
    }
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, path);
    EXPECT_NE(result.error().message.find("write failed: File too large"), std::string::npos) << result.error().message;
    EXPECT_EQ(test::readWholeFile(path), before);
    EXPECT_EQ(dir.entries(), std::vector<std::string> { "trace.json.gz" }); // no temporary left behind
    auto stillLoads = loadTraceFile(path);
    ASSERT_TRUE(stillLoads) << stillLoads.error().toString();
    EXPECT_EQ(countKind(stillLoads.value(), EventKind::Kernel), 4u);
}

TEST(SaveTraceFile, ReadOnlyFolderLeavesTheExistingFileIntact)
{
    TempDir dir;
    const std::string path = dir.file("trace.json");
    test::writeWholeFile(path, "{\"traceEvents\": []}");
    ::chmod(dir.path().c_str(), 0555);
    test::writeWholeFile(dir.file("probe"), "x");
    if (std::filesystem::exists(dir.file("probe")))
        GTEST_SKIP() << "running with permission to write into read-only folders (root)";
    const auto result = saveTraceFile(buildEveryKindTrace(kEpochOrigin), path);
    ASSERT_FALSE(result);
    EXPECT_EQ(result.error().file, path);
    EXPECT_EQ(test::readWholeFile(path), "{\"traceEvents\": []}");
}

} // namespace
} // namespace gapscope
