// SPDX-License-Identifier: MIT
#include "core/io/chrome/chrome_categories.h"
#include "core/io/chrome/chrome_trace_writer.h"
#include "core/io/common/json_stream_writer.h"
#include "tests/core/every_kind_trace.h"

#include "tests/temp_dir.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <limits>
#include <sstream>

#include <zlib.h>

namespace gapscope {
namespace {

using nlohmann::json;

// ---- exact microseconds ---------------------------------------------------------------------

struct MicrosecondsCase {
    TimeNs ns;
    const char* text;
};

class FormatMicroseconds : public testing::TestWithParam<MicrosecondsCase> { };

TEST_P(FormatMicroseconds, WritesTheExactDecimalWithoutTrailingZeros)
{
    char buffer[32];
    char* end = formatMicroseconds(buffer, GetParam().ns);
    EXPECT_EQ(std::string(buffer, end), GetParam().text);
}

INSTANTIATE_TEST_SUITE_P(Cases, FormatMicroseconds,
    testing::Values(MicrosecondsCase { 0, "0" }, MicrosecondsCase { 1, "0.001" }, MicrosecondsCase { 10, "0.01" },
        MicrosecondsCase { 100, "0.1" }, MicrosecondsCase { 1234567, "1234.567" },
        MicrosecondsCase { 1234500, "1234.5" }, MicrosecondsCase { 1234000, "1234" },
        MicrosecondsCase { 1234050, "1234.05" }, MicrosecondsCase { -1500, "-1.5" }, MicrosecondsCase { -7, "-0.007" },
        // A 2024 epoch timestamp in ns: a double would round its last digits.
        MicrosecondsCase { 1712195495519695753, "1712195495519695.753" },
        MicrosecondsCase { std::numeric_limits<TimeNs>::max(), "9223372036854775.807" },
        MicrosecondsCase { std::numeric_limits<TimeNs>::min(), "-9223372036854775.808" }));

// ---- JSON pieces ------------------------------------------------------------------------------

TEST(JsonStreamWriter, EscapesStringsSoThatTheyParseBackToTheSameText)
{
    const std::string tricky = std::string("quote\" backslash\\ newline\n tab\t bell\x07 µs ") + "\xff" + " end";
    std::ostringstream out;
    {
        JsonStreamWriter writer(out, 64); // tiny buffer: the escaping crosses buffer flushes
        writer.raw('[');
        writer.string(tricky);
        writer.raw(',');
        writer.string(std::string(500, 'k'));
        writer.raw(']');
    }
    const json parsed = json::parse(out.str());
    // The invalid byte 0xff becomes U+FFFD; everything else comes back unchanged.
    EXPECT_EQ(parsed[0].get<std::string>(),
        std::string("quote\" backslash\\ newline\n tab\t bell\x07 µs ") + "\xef\xbf\xbd" + " end");
    EXPECT_EQ(parsed[1].get<std::string>(), std::string(500, 'k'));
    EXPECT_NE(out.str().find("\\u0007"), std::string::npos);
}

TEST(JsonStreamWriter, TopLevelKeysSkipNestedObjectsAndStrings)
{
    EXPECT_EQ(topLevelKeys(R"({"a": 1, "b": {"device": 2}, "c": [{"stream": 3}], "d": "x,\"e\": 4"})"),
        (std::vector<std::string_view> { "a", "b", "c", "d" }));
    EXPECT_TRUE(topLevelKeys("{}").empty());
    EXPECT_TRUE(topLevelKeys("").empty());
    EXPECT_EQ(objectBody(" { \"a\": 1 } ").members, "\"a\": 1");
    EXPECT_TRUE(objectBody("{ }").isObject);
    EXPECT_TRUE(objectBody("{ }").members.empty());
    EXPECT_FALSE(objectBody("[1]").isObject);
}

// ---- categories -------------------------------------------------------------------------------

struct CategoryCase {
    EventKind kind;
    const char* written;
};

class CategoryMapping : public testing::TestWithParam<CategoryCase> { };

TEST_P(CategoryMapping, WrittenCategoryReadsBackAsTheSameKind)
{
    EXPECT_EQ(categoryForKind(GetParam().kind), GetParam().written);
    EXPECT_EQ(kindFromCategory(GetParam().written), GetParam().kind);
}

INSTANTIATE_TEST_SUITE_P(EveryKind, CategoryMapping,
    testing::Values(CategoryCase { EventKind::Kernel, "kernel" }, CategoryCase { EventKind::Memcpy, "gpu_memcpy" },
        CategoryCase { EventKind::Memset, "gpu_memset" }, CategoryCase { EventKind::Sync, "cuda_sync" },
        CategoryCase { EventKind::RuntimeApi, "cuda_runtime" }, CategoryCase { EventKind::DriverApi, "cuda_driver" },
        CategoryCase { EventKind::NvtxRange, "nvtx_range" }, CategoryCase { EventKind::NvtxMark, "nvtx_mark" },
        CategoryCase { EventKind::CpuOp, "cpu_op" }, CategoryCase { EventKind::PythonFunction, "python_function" },
        CategoryCase { EventKind::UserAnnotation, "user_annotation" },
        CategoryCase { EventKind::GpuUserAnnotation, "gpu_user_annotation" },
        CategoryCase { EventKind::Overhead, "overhead" }, CategoryCase { EventKind::Other, "other" }));

TEST(CategoryMapping, LegacyAndOtherProducersNamesMapToTheirKinds)
{
    // Kineto before 2022 (the legacy array sample) and case variants.
    EXPECT_EQ(kindFromCategory("Kernel"), EventKind::Kernel);
    EXPECT_EQ(kindFromCategory("Memcpy"), EventKind::Memcpy);
    EXPECT_EQ(kindFromCategory("Memset"), EventKind::Memset);
    EXPECT_EQ(kindFromCategory("Runtime"), EventKind::RuntimeApi);
    EXPECT_EQ(kindFromCategory("Operator"), EventKind::CpuOp);
    EXPECT_EQ(kindFromCategory("GPU_MEMCPY"), EventKind::Memcpy);
    EXPECT_EQ(kindFromCategory("nvtx"), EventKind::NvtxRange);
    // Kineto's own bookkeeping (the "Trace" span, flows) and unknown names are Other.
    EXPECT_EQ(kindFromCategory("Trace"), EventKind::Other);
    EXPECT_EQ(kindFromCategory("ac2g"), EventKind::Other);
    EXPECT_EQ(kindFromCategory(""), EventKind::Other);
}

// ---- whole traces -----------------------------------------------------------------------------

using test::buildEveryKindTrace;

std::string writeToString(const Trace& trace)
{
    std::ostringstream out;
    ChromeTraceWriter::write(trace, out);
    return out.str();
}

/// The output line holding the event named `name` with phase `ph` (the writer puts one event per line).
std::string lineOf(const std::string& text, std::string_view ph, std::string_view name)
{
    std::istringstream lines(text);
    const std::string phase = "\"ph\":\"" + std::string(ph) + "\"";
    const std::string quotedName = "\"name\":\"" + std::string(name) + "\"";
    for (std::string line; std::getline(lines, line);) {
        if (line.find(phase) != std::string::npos && line.find(quotedName) != std::string::npos)
            return line;
    }
    return {};
}

std::size_t countOf(std::string_view text, std::string_view needle)
{
    std::size_t count = 0;
    for (auto pos = text.find(needle); pos != std::string_view::npos; pos = text.find(needle, pos + 1))
        ++count;
    return count;
}

const json* findEvent(const json& events, std::string_view ph, std::string_view name, std::int64_t pid = -1)
{
    for (const json& e : events) {
        if (e.value("ph", "") == ph && e.value("name", "") == name && (pid < 0 || e.value("pid", -2) == pid))
            return &e;
    }
    return nullptr;
}

TEST(ChromeTraceWriter, WritesTheKinetoDialectForEveryKind)
{
    const std::string text = writeToString(buildEveryKindTrace());
    const json doc = json::parse(text);
    EXPECT_EQ(doc["schemaVersion"], 1);
    EXPECT_EQ(doc["distributedInfo"], json::parse(R"({"rank": 3})"));
    EXPECT_EQ(doc["deviceProperties"], json::parse(R"([{"id": 1, "name": "NVIDIA H100"}])"));
    const json& events = doc["traceEvents"];

    // 17 events (15 complete; the mark and the zero-length Other instants), 3 flow pairs, and metadata.
    std::map<std::string, int> phases;
    for (const json& e : events)
        ++phases[e["ph"].get<std::string>()];
    EXPECT_EQ(phases["X"], 15);
    EXPECT_EQ(phases["i"], 2);
    EXPECT_EQ(phases["s"], 3);
    EXPECT_EQ(phases["f"], 3);

    // Exact µs text from int64 ns: 1234567 ns → 1234.567, duration 65433 ns → 65.433.
    const std::string kernelLine = lineOf(text, "X", "gemm_kernel");
    EXPECT_NE(kernelLine.find(R"("pid":1,"tid":7,"ts":1234.567,"dur":65.433)"), std::string::npos) << kernelLine;
    // The stored args already hold correlation and device: written once, the stream added.
    EXPECT_EQ(countOf(kernelLine, "\"correlation\""), 1u);
    EXPECT_EQ(countOf(kernelLine, "\"device\""), 1u);
    const json* kernel = findEvent(events, "X", "gemm_kernel");
    ASSERT_NE(kernel, nullptr);
    EXPECT_EQ((*kernel)["cat"], "kernel");
    EXPECT_EQ((*kernel)["args"], json::parse(R"({"grid": [1, 2, 3], "correlation": 77, "device": 1, "stream": 7})"));

    const json* copy = findEvent(events, "X", "Memcpy HtoD (Pageable -> Device)");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ((*copy)["cat"], "gpu_memcpy");
    EXPECT_EQ((*copy)["args"], json::parse(R"({"device": 1, "stream": 7, "correlation": 79, "bytes": 4096})"));
    const json* set = findEvent(events, "X", "Memset (Device)");
    ASSERT_NE(set, nullptr);
    EXPECT_EQ((*set)["pid"], 1);
    EXPECT_EQ((*set)["tid"], 20);
    EXPECT_EQ((*set)["args"], json::parse(R"({"device": 1, "stream": 20, "correlation": 78, "bytes": 128})"));
    const json* annotation = findEvent(events, "X", "Optimizer.step");
    ASSERT_NE(annotation, nullptr);
    EXPECT_EQ((*annotation)["cat"], "gpu_user_annotation");
    EXPECT_EQ((*annotation)["args"], json::parse(R"({"device": 1, "stream": 20})"));

    // Host events: the process's pid and the thread's tid; correlation added to launches that lack it.
    const json* driver = findEvent(events, "X", "cuLaunchKernel");
    ASSERT_NE(driver, nullptr);
    EXPECT_EQ((*driver)["pid"], 4242);
    EXPECT_EQ((*driver)["tid"], 4243);
    EXPECT_EQ((*driver)["cat"], "cuda_driver");
    EXPECT_EQ((*driver)["args"], json::parse(R"({"correlation": 78})"));
    const json* op = findEvent(events, "X", "aten::mm");
    ASSERT_NE(op, nullptr);
    EXPECT_EQ((*op)["args"], json::parse(R"({"External id": 5})"));
    EXPECT_EQ(lineOf(text, "X", "forward").find("\"args\""), std::string::npos); // nothing to write
    EXPECT_NE(lineOf(text, "X", "forward").find(R"("cat":"nvtx_range")"), std::string::npos);

    const json* mark = findEvent(events, "i", "checkpoint");
    ASSERT_NE(mark, nullptr);
    EXPECT_EQ((*mark)["cat"], "nvtx_mark");
    EXPECT_EQ((*mark)["s"], "t");
    EXPECT_FALSE(mark->contains("dur"));
    EXPECT_NE(lineOf(text, "i", "checkpoint").find(R"("ts":1400})"), std::string::npos);
    // A zero-length event of no known kind is an instant too (Kineto's `[memory]` events); with a duration
    // it stays complete.
    const json* memory = findEvent(events, "i", "[memory]");
    ASSERT_NE(memory, nullptr);
    EXPECT_EQ((*memory)["cat"], "other");
    EXPECT_EQ((*memory)["args"], json::parse(R"({"Bytes": 4})"));
    const json* misc = findEvent(events, "X", "misc");
    ASSERT_NE(misc, nullptr);
    EXPECT_EQ((*misc)["dur"].get<double>(), 0.001);
}

TEST(ChromeTraceWriter, WritesOneFlowPairPerLinkedLaunch)
{
    const json events = json::parse(writeToString(buildEveryKindTrace()))["traceEvents"];
    std::map<std::uint32_t, std::vector<const json*>> flows;
    for (const json& e : events) {
        if (e["ph"] == "s" || e["ph"] == "f")
            flows[e["id"].get<std::uint32_t>()].push_back(&e);
    }
    // 80 (cudaGetDevice) launched nothing: no flow.
    ASSERT_EQ(flows.size(), 3u);
    for (const auto& [id, pair] : flows) {
        ASSERT_EQ(pair.size(), 2u) << id;
        const json& start = *pair[0];
        const json& finish = *pair[1];
        EXPECT_EQ(start["ph"], "s");
        EXPECT_EQ(start["cat"], "ac2g");
        EXPECT_EQ(start["pid"], 4242);
        EXPECT_EQ(start["tid"], 4243);
        EXPECT_EQ(finish["ph"], "f");
        EXPECT_EQ(finish["bp"], "e");
        EXPECT_EQ(finish["pid"], 1);
    }
    // The kernel's flow: from the call at 1100 µs on the thread to the kernel at 1234.567 µs on stream 7.
    EXPECT_DOUBLE_EQ(flows[77][0]->at("ts").get<double>(), 1100.0);
    EXPECT_DOUBLE_EQ(flows[77][1]->at("ts").get<double>(), 1234.567);
    EXPECT_EQ(flows[77][1]->at("tid"), 7);
    EXPECT_EQ(flows[78][1]->at("tid"), 20);
}

TEST(ChromeTraceWriter, NamesProcessesThreadsGpusAndStreams)
{
    const json events = json::parse(writeToString(buildEveryKindTrace()))["traceEvents"];
    auto metadata = [&](std::string_view name, std::int64_t pid, std::int64_t tid) -> json {
        for (const json& e : events) {
            if (e["ph"] == "M" && e["name"] == name && e["pid"] == pid && e["tid"] == tid)
                return e["args"];
        }
        return nullptr;
    };
    EXPECT_EQ(metadata("process_name", 4242, 0), json::parse(R"({"name": "train.py"})"));
    EXPECT_EQ(metadata("process_labels", 4242, 0), json::parse(R"({"labels": "rank 3"})"));
    EXPECT_EQ(metadata("process_sort_index", 4242, 0), nullptr); // the model has none
    EXPECT_EQ(metadata("thread_name", 4242, 4243), json::parse(R"j({"name": "thread 4243 (python)"})j"));
    EXPECT_EQ(metadata("process_name", 1, 0), json::parse(R"({"name": "GPU 1"})"));
    EXPECT_EQ(metadata("process_labels", 1, 0), json::parse(R"({"labels": "GPU 1"})"));
    EXPECT_EQ(metadata("process_sort_index", 1, 0), json::parse(R"({"sort_index": 16777217})"));
    EXPECT_EQ(metadata("thread_name", 1, 7), json::parse(R"({"name": "stream 7"})"));
    // An unnamed stream lane gets the name Kineto would give it.
    EXPECT_EQ(metadata("thread_name", 1, 20), json::parse(R"({"name": "stream 20"})"));
    EXPECT_EQ(metadata("thread_sort_index", 1, 20), json::parse(R"({"sort_index": 20})"));
}

TEST(ChromeTraceWriter, WritesBackTheFileMetadataAndFillsWhatItLacks)
{
    // The trace reopened, changed, and finished again.
    const auto edited = [](Trace trace, const auto& change) {
        TraceBuilder builder(std::move(trace));
        change(builder);
        return std::move(builder).finish();
    };
    Trace trace = edited(buildEveryKindTrace(), [](TraceBuilder& b) {
        b.processes()[0].rank = 0;
        b.processes()[0].fileMetadataJson = R"({"schemaVersion": 1,
            "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 128},
            "displayTimeUnit": "ns", "traceName": "x.json", "traceEvents": "must not be copied"})";
    });
    json doc = json::parse(writeToString(trace));
    EXPECT_EQ(doc["distributedInfo"], json::parse(R"({"backend": "nccl", "rank": 0, "world_size": 128})"));
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    EXPECT_EQ(doc["traceName"], "x.json");
    EXPECT_TRUE(doc["traceEvents"].is_array());
    EXPECT_EQ(doc["deviceProperties"], json::parse(R"([{"id": 1, "name": "NVIDIA H100"}])")); // from the model

    // distributedInfo without a rank gets the model's; stored deviceProperties win over the model's.
    trace = edited(std::move(trace), [](TraceBuilder& b) {
        b.processes()[0].rank = 5;
        b.processes()[0].fileMetadataJson
            = R"({"distributedInfo": {"backend": "nccl"}, "deviceProperties": [{"id": 1, "name": "A100"}]})";
    });
    doc = json::parse(writeToString(trace));
    EXPECT_EQ(doc["distributedInfo"], json::parse(R"({"backend": "nccl", "rank": 5})"));
    EXPECT_EQ(doc["deviceProperties"], json::parse(R"([{"id": 1, "name": "A100"}])"));
    EXPECT_EQ(doc["schemaVersion"], 1);

    // A device's stored properties object is written as is.
    trace = edited(std::move(trace), [](TraceBuilder& b) {
        b.processes()[0].fileMetadataJson.clear();
        b.devices()[0].propertiesJson = R"({"id": 1, "name": "NVIDIA H100", "totalGlobalMem": 85520809984})";
    });
    doc = json::parse(writeToString(trace));
    EXPECT_EQ(
        doc["deviceProperties"], json::parse(R"([{"id": 1, "name": "NVIDIA H100", "totalGlobalMem": 85520809984}])"));
}

TEST(ChromeTraceWriter, EmptyTraceIsAValidFile)
{
    const json doc = json::parse(writeToString(Trace {}));
    EXPECT_EQ(doc["schemaVersion"], 1);
    EXPECT_TRUE(doc["traceEvents"].empty());
    EXPECT_FALSE(doc.contains("distributedInfo"));
    EXPECT_FALSE(doc.contains("deviceProperties"));
}

std::string gunzipFile(const std::string& path)
{
    gzFile file = gzopen(path.c_str(), "rb");
    std::string content;
    char buffer[1 << 16];
    for (int n; (n = gzread(file, buffer, sizeof buffer)) > 0;)
        content.append(buffer, static_cast<std::size_t>(n));
    gzclose(file);
    return content;
}

TEST(ChromeTraceWriter, WriteFileCompressesGzNamesOnly)
{
    test::TempDir dir;
    const Trace trace = buildEveryKindTrace();
    const std::string expected = writeToString(trace);
    ASSERT_TRUE(ChromeTraceWriter::writeFile(trace, dir.file("t.json")));
    ASSERT_TRUE(ChromeTraceWriter::writeFile(trace, dir.file("t.json.gz")));
    EXPECT_EQ(test::readWholeFile(dir.file("t.json")), expected);
    const std::string compressed = test::readWholeFile(dir.file("t.json.gz"));
    ASSERT_GE(compressed.size(), 2u);
    EXPECT_EQ(static_cast<unsigned char>(compressed[0]), 0x1f); // gzip magic
    EXPECT_EQ(static_cast<unsigned char>(compressed[1]), 0x8b);
    EXPECT_EQ(gunzipFile(dir.file("t.json.gz")), expected);
    EXPECT_EQ(dir.entries(), (std::vector<std::string> { "t.json", "t.json.gz" }));
}

} // namespace
} // namespace gapscope
