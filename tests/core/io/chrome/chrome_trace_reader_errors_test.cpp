// SPDX-License-Identifier: MIT
// ChromeTraceReader on malformed input: fatal problems are IoErrors with file and byte offset; one bad event
// is skipped, counted and reported with its offset, and the import goes on.
#include "core/io/chrome/chrome_trace_reader.h"
#include "tests/temp_dir.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <fstream>
#include <iterator>

namespace gapscope {
namespace {

std::string readBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void writeBytes(const std::string& path, std::string_view bytes)
{
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// How many bytes zlib inflates from a (possibly cut) gzip stream before its input runs out.
std::size_t inflatableBytes(const std::string& gz)
{
    z_stream zs {};
    inflateInit2(&zs, 16 + MAX_WBITS);
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
    zs.avail_in = static_cast<uInt>(gz.size());
    std::string out(1 << 16, '\0');
    std::size_t total = 0;
    int rc = Z_OK;
    while (rc == Z_OK) {
        zs.next_out = reinterpret_cast<Bytef*>(out.data());
        zs.avail_out = static_cast<uInt>(out.size());
        rc = inflate(&zs, Z_NO_FLUSH);
        total += out.size() - zs.avail_out;
        if (zs.avail_in == 0 && zs.avail_out != 0)
            break;
    }
    inflateEnd(&zs);
    return total;
}

// --- Whole-file problems: an IoError naming the file and the byte offset.

struct FatalCase {
    const char* label;
    std::string json;
    std::uint64_t offset;
    const char* messagePart;
};

void PrintTo(const FatalCase& c, std::ostream* os)
{
    *os << c.label;
}

class FatalInputTest : public ::testing::TestWithParam<FatalCase> { };

TEST_P(FatalInputTest, IsAnIoErrorWithFileAndOffset)
{
    const FatalCase& c = GetParam();
    const auto result = ChromeTraceReader::parse(c.json, "bad.json");
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().file, "bad.json");
    EXPECT_EQ(result.error().byteOffset, c.offset) << result.error().toString();
    EXPECT_NE(result.error().message.find(c.messagePart), std::string::npos) << result.error().message;
}

INSTANTIATE_TEST_SUITE_P(HandWritten, FatalInputTest,
    ::testing::Values(FatalCase { "empty", "", 0, "empty" },
        FatalCase { "only whitespace", " \n\t ", 4, "only whitespace" },
        FatalCase { "text", "hello", 0, "not valid JSON" },
        FatalCase { "bad literal", "[tru]", 4, "not valid JSON: invalid literal" },
        FatalCase { "number at top level", "42", 0, "not a Chrome trace" },
        FatalCase { "object without traceEvents", R"({"schemaVersion": 1})", 0, "no \"traceEvents\"" },
        FatalCase { "traceEvents not an array", R"({"traceEvents": 5})", 16, "is not an array" },
        // Truncation: the offset is where the content ended.
        FatalCase { "truncated in an event", R"({"traceEvents": [{"ph": "X")", 27, "ends early" },
        FatalCase { "truncated in a string", R"([{"name": "aten::a)", 18, "ends early" },
        FatalCase { "truncated top-level object", R"({"traceEvents": []  )", 20, "ends early" },
        FatalCase { "missing comma", R"([{"ph": "X"} {"ph": "X"}])", 13, "expected ',' or ']'" },
        FatalCase { "bad escape", R"([{"name": "a\qb"}])", 13, "invalid escape" },
        FatalCase { "NUL byte", std::string("[{\"name\": \"a\0b\"}]", 17), 12, "NUL byte" },
        FatalCase { "trailing data", "[] []", 3, "after the top-level value" }));

TEST(ChromeTraceReaderErrorsTest, LargeTruncatedFileLoadsItsCompleteEventsWithAWarning)
{
    // Longer than the reader's 1 MB window, so the truncation is found after the window slid. The 40,000
    // complete events before the cut load; the warning names the end of the content.
    std::string json = "[";
    for (int i = 0; i < 40000; ++i)
        json += R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":)" + std::to_string(i)
            + R"(,"dur":1},)";
    json += R"({"ph":"X","cat":"cpu_op","na)";
    const auto result = ChromeTraceReader::parse(json, "big.json");
    ASSERT_TRUE(result.ok()) << result.error().toString();
    EXPECT_EQ(result.value().eventCount(), 40000u);
    ASSERT_EQ(result.value().warnings().size(), 1u);
    EXPECT_EQ(result.value().warnings()[0].byteOffset, json.size());
    EXPECT_EQ(result.value().warnings()[0].file, "big.json");
    EXPECT_NE(result.value().warnings()[0].message.find("ends early"), std::string::npos);
    EXPECT_NE(result.value().warnings()[0].message.find("40000 complete events"), std::string::npos);
}

TEST(ChromeTraceReaderErrorsTest, TruncatedAfterAnEventLoadsThatEvent)
{
    const std::string json = R"([{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},)";
    const auto result = ChromeTraceReader::parse(json, "cut.json");
    ASSERT_TRUE(result.ok()) << result.error().toString();
    EXPECT_EQ(result.value().eventCount(), 1u);
    ASSERT_EQ(result.value().warnings().size(), 1u);
    EXPECT_EQ(result.value().warnings()[0].byteOffset, json.size());
}

struct FileCase {
    const char* file;
    std::optional<std::uint64_t> offset;
    const char* messagePart;
};

void PrintTo(const FileCase& c, std::ostream* os)
{
    *os << c.file;
}

class MalformedFileTest : public ::testing::TestWithParam<FileCase> { };

TEST_P(MalformedFileTest, IsAnIoErrorNamingTheFile)
{
    const FileCase& c = GetParam();
    const std::string path = test::dataPath(c.file);
    const auto result = ChromeTraceReader::readFile(path);
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.error().file, path);
    EXPECT_EQ(result.error().byteOffset, c.offset) << result.error().toString();
    EXPECT_NE(result.error().message.find(c.messagePart), std::string::npos) << result.error().message;
}

INSTANTIATE_TEST_SUITE_P(TestData, MalformedFileTest,
    ::testing::Values(FileCase { "malformed/does_not_exist.json", std::nullopt, "No such file" }, // no place in it
        FileCase { "malformed/empty.json", 0, "the file is empty" },
        FileCase { "malformed/not_json.txt", 0, "not valid JSON" },
        FileCase { "malformed/not_a_trace.json", 0, "no \"traceEvents\"" }));

TEST(ChromeTraceReaderErrorsTest, TruncatedFileLoadsItsFirstEventWithAWarningNamingTheFile)
{
    const std::string path = test::dataPath("malformed/truncated.json");
    const auto result = ChromeTraceReader::readFile(path);
    ASSERT_TRUE(result.ok()) << result.error().toString();
    EXPECT_EQ(result.value().eventCount(), 1u); // aten::add; aten::mul is cut off
    ASSERT_EQ(result.value().warnings().size(), 1u);
    EXPECT_EQ(result.value().warnings()[0].file, path);
    EXPECT_EQ(result.value().warnings()[0].byteOffset, 219u);
    EXPECT_NE(result.value().warnings()[0].message.find("ends early"), std::string::npos);
}

TEST(ChromeTraceReaderErrorsTest, TruncatedGzipLoadsWhatInflatedAndSaysSo)
{
    const std::string path = test::dataPath("malformed/truncated_simple_add.json.gz");
    const auto result = ChromeTraceReader::readFile(path);
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Trace& trace = result.value();
    EXPECT_GT(trace.eventCount(), 100u);
    ASSERT_FALSE(trace.warnings().empty());
    const ImportWarning& cut = trace.warnings().back();
    EXPECT_EQ(cut.file, path);
    EXPECT_NE(cut.message.find("gzip stream is truncated"), std::string::npos) << cut.message;
    // The offset is in the decompressed content: all that zlib could inflate from the 12,000 bytes.
    const std::size_t inflated = inflatableBytes(readBytes(path));
    EXPECT_GT(inflated, 100000u);
    EXPECT_EQ(cut.byteOffset, inflated);
}

TEST(ChromeTraceReaderErrorsTest, CorruptGzipIsAnError)
{
    test::TempDir dir;
    std::string bytes = readBytes(test::dataPath("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz"));
    for (std::size_t i = 100; i < 140; ++i)
        bytes[i] = static_cast<char>(bytes[i] ^ 0x5a);
    const std::string path = dir.file("corrupt.json.gz");
    writeBytes(path, bytes);
    const auto result = ChromeTraceReader::readFile(path);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message.find("corrupt gzip data"), std::string::npos) << result.error().message;
}

TEST(ChromeTraceReaderErrorsTest, GzipIsDetectedByContentNotName)
{
    test::TempDir dir;
    const std::string gz = readBytes(test::dataPath("hta/critical_path/cuda_event_sync/event_sync_trace.json.gz"));
    writeBytes(dir.file("renamed.json"), gz);
    const auto fromGz = ChromeTraceReader::readFile(dir.file("renamed.json"));
    ASSERT_TRUE(fromGz.ok()) << fromGz.error().toString();
    EXPECT_EQ(fromGz.value().eventCount(), 35u);
    writeBytes(dir.file("plain.json.gz"), R"([{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}])");
    const auto plain = ChromeTraceReader::readFile(dir.file("plain.json.gz"));
    ASSERT_TRUE(plain.ok()) << plain.error().toString();
    EXPECT_EQ(plain.value().eventCount(), 1u);
}

// --- One bad event: skipped, counted, reported with the offset of its '{'; its neighbours load.

struct BadEventCase {
    const char* label;
    const char* event;
    const char* messagePart;
};

void PrintTo(const BadEventCase& c, std::ostream* os)
{
    *os << c.label;
}

class BadEventTest : public ::testing::TestWithParam<BadEventCase> { };

TEST_P(BadEventTest, IsSkippedWithAWarningAtItsOffset)
{
    const BadEventCase& c = GetParam();
    const std::string good1 = R"({"ph":"X","cat":"cpu_op","name":"before","pid":1,"tid":1,"ts":1,"dur":1})";
    const std::string good2 = R"({"ph":"X","cat":"cpu_op","name":"after","pid":1,"tid":1,"ts":3,"dur":1})";
    const std::string json = "{\"traceEvents\": [\n  " + good1 + ",\n  " + c.event + ",\n  " + good2 + "\n]}";
    const auto result = ChromeTraceReader::parse(json, "events.json");
    ASSERT_TRUE(result.ok()) << result.error().toString();
    const Trace& trace = result.value();
    EXPECT_EQ(trace.eventCount(), 2u);
    EXPECT_EQ(trace.skippedEvents(), 1u);
    ASSERT_EQ(trace.warnings().size(), 1u);
    EXPECT_EQ(trace.warnings()[0].file, "events.json");
    EXPECT_EQ(trace.warnings()[0].byteOffset, json.find(c.event));
    EXPECT_NE(trace.warnings()[0].message.find(c.messagePart), std::string::npos) << trace.warnings()[0].message;
}

INSTANTIATE_TEST_SUITE_P(HandWritten, BadEventTest,
    ::testing::Values(BadEventCase { "missing ph", R"({"name":"x","pid":1,"tid":1,"ts":2,"dur":1})", "no \"ph\"" },
        BadEventCase {
            "ph not a string", R"({"ph":88,"name":"x","pid":1,"tid":1,"ts":2,"dur":1})", "\"ph\" is not a string" },
        BadEventCase { "missing ts", R"({"ph":"X","name":"x","pid":1,"tid":1,"dur":1})", "no \"ts\"" },
        BadEventCase {
            "ts a string", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":"2","dur":1})", "\"ts\" is not a number" },
        BadEventCase {
            "ts out of range", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":1e20,"dur":1})", "out of range" },
        BadEventCase { "missing name", R"({"ph":"X","pid":1,"tid":1,"ts":2,"dur":1})", "no \"name\"" },
        BadEventCase { "name an object", R"({"ph":"X","name":{"a":1},"pid":1,"tid":1,"ts":2,"dur":1})",
            "\"name\" is not a string" },
        BadEventCase { "missing dur", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":2})", "no \"dur\"" },
        BadEventCase {
            "dur null", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":2,"dur":null})", "\"dur\" is not a number" },
        BadEventCase { "negative dur", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":2,"dur":-0.5})", "negative" },
        BadEventCase { "pid a list", R"({"ph":"X","name":"x","pid":[1],"tid":1,"ts":2,"dur":1})", "\"pid\"" },
        BadEventCase { "tid a fraction", R"({"ph":"X","name":"x","pid":1,"tid":1.5,"ts":2,"dur":1})", "\"tid\"" },
        BadEventCase { "args a string", R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":2,"dur":1,"args":"a"})",
            "\"args\" is not an object" },
        BadEventCase { "flow without id", R"({"ph":"s","pid":1,"tid":1,"ts":2,"cat":"ac2g"})", "\"id\"" },
        BadEventCase { "not an object", R"([1, 2])", "not a JSON object" }));

TEST(ChromeTraceReaderErrorsTest, ManyBadEventsAreAllCountedButWarningsAreCapped)
{
    std::string json = "[";
    for (int i = 0; i < 250; ++i)
        json += R"({"ph":"X","name":"no ts","pid":1,"tid":1,"dur":1},)";
    json += R"({"ph":"X","name":"good","pid":1,"tid":1,"ts":1,"dur":1}])";
    const auto result = ChromeTraceReader::parse(json, "many.json");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.value().eventCount(), 1u);
    EXPECT_EQ(result.value().skippedEvents(), 250u);
    // 100 event warnings plus one that says how many were skipped in all.
    ASSERT_EQ(result.value().warnings().size(), 101u);
    EXPECT_EQ(result.value().warnings()[99].byteOffset, 1u + 99u * 50u); // each bad event: 49 bytes and a ','
    EXPECT_NE(result.value().warnings()[100].message.find("250 malformed events"), std::string::npos);
}

TEST(ChromeTraceReaderErrorsTest, UnsupportedPhasesAreReportedOnceAndNotCountedAsMalformed)
{
    const std::string json = R"([{"ph":"b","name":"a","id":1,"pid":1,"tid":1,"ts":1},)"
                             R"({"ph":"X","name":"x","pid":1,"tid":1,"ts":1,"dur":1},)"
                             R"({"ph":"b","name":"a","id":2,"pid":1,"tid":1,"ts":2}])";
    const auto result = ChromeTraceReader::parse(json, "async.json");
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result.value().eventCount(), 1u);
    EXPECT_EQ(result.value().skippedEvents(), 0u);
    ASSERT_EQ(result.value().warnings().size(), 1u);
    EXPECT_EQ(result.value().warnings()[0].byteOffset, 1u);
    EXPECT_EQ(result.value().warnings()[0].message, "2 events of unsupported phase \"b\" were ignored");
}

} // namespace
} // namespace gapscope

namespace gapscope {
namespace {

class TruncationTest : public ::testing::TestWithParam<std::size_t> { };

TEST_P(TruncationTest, EveryPrefixOfATraceIsTruncatedAtItsOwnEnd)
{
    // Any proper prefix of a JSON document ending at its last ']' is incomplete: the error must say so at
    // exactly the prefix length, whatever the window size (16 bytes makes every item straddle a boundary).
    const std::string json = readBytes(test::dataPath("kineto/derived/tb_plugin_test_gpu_utilization.json"));
    const std::size_t lastBracket = json.rfind(']');
    ASSERT_NE(lastBracket, std::string::npos);
    ChromeReadOptions options;
    options.windowBytes = GetParam();
    // A prefix holding complete events loads them, with a warning at the cut; one holding none is an error there.
    std::size_t loaded = 0;
    std::size_t previousEvents = 0;
    for (std::size_t length = 1; length <= lastBracket; ++length) {
        const auto result = ChromeTraceReader::parse(std::string_view(json).substr(0, length), "cut.json", options);
        if (!result.ok()) {
            EXPECT_EQ(loaded, 0u) << length; // once events load, every longer prefix loads too
            EXPECT_EQ(result.error().byteOffset, length);
            EXPECT_NE(result.error().message.find("ends early"), std::string::npos) << result.error().message;
            continue;
        }
        ++loaded;
        ASSERT_FALSE(result.value().warnings().empty()) << length;
        EXPECT_EQ(result.value().warnings().back().byteOffset, length);
        EXPECT_NE(result.value().warnings().back().message.find("ends early"), std::string::npos);
        EXPECT_GE(result.value().eventCount(), previousEvents) << length;
        previousEvents = result.value().eventCount();
    }
    EXPECT_GT(loaded, 0u);
    const auto whole = ChromeTraceReader::parse(json, "whole.json", options);
    ASSERT_TRUE(whole.ok()) << whole.error().toString();
    EXPECT_EQ(whole.value().eventCount(), 11u);
}

INSTANTIATE_TEST_SUITE_P(WindowSizes, TruncationTest, ::testing::Values(16u, 100u, 1u << 20));

TEST(ChromeTraceReaderErrorsTest, CorruptedBytesNeverCrashAndStayWithinTheInput)
{
    // Deterministic byte flips in a real trace: every result is a trace or an error placed inside the input.
    const std::string original = readBytes(test::dataPath("kineto/derived/tb_plugin_test_gpu_utilization.json"));
    std::uint64_t x = 0x2545f4914f6cdd1dull;
    const auto next = [&x] {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        return x * 0x2545f4914f6cdd1dull;
    };
    const char replacements[] = { '"', '{', '}', '[', ']', ',', ':', '\\', '0', '-', '.', 'e', ' ', '\0', 'x' };
    int errors = 0;
    for (int round = 0; round < 2000; ++round) {
        std::string json = original;
        for (int flips = 0; flips < 3; ++flips)
            json[next() % json.size()] = replacements[next() % sizeof replacements];
        ChromeReadOptions options;
        options.windowBytes = round % 2 ? 16 : 1 << 20;
        const auto result = ChromeTraceReader::parse(json, "flipped.json", options);
        if (!result.ok()) {
            ++errors;
            ASSERT_TRUE(result.error().byteOffset);
            EXPECT_LE(*result.error().byteOffset, json.size());
        } else {
            EXPECT_LE(result.value().eventCount() + result.value().skippedEvents(), 11u + 3u);
        }
    }
    EXPECT_GT(errors, 0);
}

} // namespace
} // namespace gapscope

namespace gapscope {
namespace {

class TopLevelValueAcrossWindows : public ::testing::TestWithParam<std::size_t> { };

TEST_P(TopLevelValueAcrossWindows, ANumberCutByTheWindowIsReadWhole)
{
    // Found by the chrome_json fuzz target: a top-level number cut by the window's end was taken as complete and
    // the rest of its digits failed as "expected ',' or '}'". Every window size from 8 to 96 bytes cuts one of
    // these numbers somewhere; each must read as the whole file does.
    const std::string json = R"({"schemaVersion": 1, "baseTimeNanoseconds": 1712867402348624000, "traceEvents": [)"
                             R"({"ph": "X", "name": "k", "cat": "kernel", "pid": 0, "tid": 7, "ts": 1000, "dur": 5,)"
                             R"( "args": {"device": 0, "stream": 7}}], "displayTimeUnit": 123456789012, "x": true})";
    const auto whole = ChromeTraceReader::parse(json, "whole.json");
    ASSERT_TRUE(whole.ok()) << whole.error().toString();
    ChromeReadOptions options;
    options.windowBytes = GetParam();
    const auto windowed = ChromeTraceReader::parse(json, "windowed.json", options);
    ASSERT_TRUE(windowed.ok()) << windowed.error().toString();
    EXPECT_EQ(windowed.value().eventCount(), 1u);
    ASSERT_EQ(windowed.value().processes().size(), whole.value().processes().size());
    const std::string& metadata = windowed.value().processes()[0].fileMetadataJson;
    EXPECT_EQ(metadata, whole.value().processes()[0].fileMetadataJson);
    EXPECT_NE(metadata.find("1712867402348624000"), std::string::npos) << metadata;
    EXPECT_NE(metadata.find("123456789012"), std::string::npos) << metadata;

    // A document that is one long number is "not a trace" at byte 0, whatever the window.
    const std::string number = "12345678901234567890123456789012345678901234567890";
    const auto notATrace = ChromeTraceReader::parse(number, "number.json", options);
    ASSERT_FALSE(notATrace.ok());
    EXPECT_EQ(notATrace.error().byteOffset, 0u) << notATrace.error().toString();
    EXPECT_NE(notATrace.error().message.find("not a Chrome trace"), std::string::npos) << notATrace.error().message;
}

INSTANTIATE_TEST_SUITE_P(WindowBytes, TopLevelValueAcrossWindows, ::testing::Range<std::size_t>(8, 97, 1));

} // namespace
} // namespace gapscope
