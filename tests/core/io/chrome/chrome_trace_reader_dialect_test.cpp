// SPDX-License-Identifier: MIT
// ChromeTraceReader on hand-written inputs: each case's answer is worked out in its comment.
#include "core/io/chrome/chrome_trace_reader.h"
#include "core/io/chrome/json_scanner.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

namespace gapscope {
namespace {

Trace parseOk(std::string_view json)
{
    auto result = ChromeTraceReader::parse(json, "hand.json");
    EXPECT_TRUE(result.ok()) << (result.ok() ? std::string() : result.error().toString());
    return result.ok() ? std::move(result.value()) : Trace {};
}

const Event* findByName(const Trace& trace, std::string_view name, const Lane** laneOut = nullptr)
{
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (trace.name(e) == name) {
                if (laneOut)
                    *laneOut = &lane;
                return &e;
            }
        }
    }
    return nullptr;
}

std::optional<EventRef> refByName(const Trace& trace, std::string_view name)
{
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const auto& events = trace.lanes()[l].events;
        for (std::uint32_t i = 0; i < events.size(); ++i) {
            if (trace.name(events[i]) == name)
                return EventRef { LaneIndex { l }, i };
        }
    }
    return std::nullopt;
}

// --- Microseconds → nanoseconds, exactly from the text, rounding half away from zero at the nanosecond.

struct RoundingCase {
    const char* text;
    TimeNs ns;
};

class MicrosecondRoundingTest : public ::testing::TestWithParam<RoundingCase> { };

TEST_P(MicrosecondRoundingTest, ConvertsExactlyFromText)
{
    EXPECT_EQ(json::microsecondsTextToNs(GetParam().text), GetParam().ns);
}

TEST_P(MicrosecondRoundingTest, EventTimesUseTheSameRule)
{
    // The same text as ts of an event starting a lane, with dur 0: start == end == the case's ns.
    const std::string json = std::string(R"([{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":)")
        + GetParam().text + R"(,"dur":0}])";
    const Trace trace = parseOk(json);
    ASSERT_EQ(trace.eventCount(), 1u);
    EXPECT_EQ(trace.lanes()[0].events[0].start, GetParam().ns);
    EXPECT_EQ(trace.lanes()[0].events[0].end, GetParam().ns);
}

INSTANTIATE_TEST_SUITE_P(HandWritten, MicrosecondRoundingTest,
    ::testing::Values(RoundingCase { "123", 123000 }, // integer µs
        RoundingCase { "0", 0 }, RoundingCase { "1.0005", 1001 }, // 1000.5 ns: the half rounds up
        RoundingCase { "1.00049999", 1000 }, // 1000.49999 ns: below the half
        RoundingCase { "1.0004", 1000 }, RoundingCase { "1.0015", 1002 }, // half away, not to even
        RoundingCase { "1.0025", 1003 }, RoundingCase { "-1.0005", -1001 }, // symmetric below zero
        RoundingCase { "-1.0004", -1000 }, RoundingCase { "0.0005", 1 }, RoundingCase { "0.000499", 0 },
        RoundingCase { "22.51", 22510 }, RoundingCase { "4.928", 4928 },
        // 1694039959076734.123 µs is not representable in a double (the nearest is …734.125):
        // the text gives the exact nanosecond.
        RoundingCase { "1694039959076734.123", 1694039959076734123 },
        RoundingCase { "1694039959076734.1235", 1694039959076734124 },
        RoundingCase { "1694039959076734.1234999", 1694039959076734123 },
        RoundingCase { "1712195495406752.8", 1712195495406752800 }, RoundingCase { "1e3", 1000000 },
        RoundingCase { "1.5e-3", 2 }, // 1.5 ns
        RoundingCase { "2.4E-3", 2 }, RoundingCase { "1.2345E+2", 123450 }));

TEST(MicrosecondRoundingTest, RejectsNonNumbersAndOverflow)
{
    EXPECT_EQ(json::microsecondsTextToNs(""), std::nullopt);
    EXPECT_EQ(json::microsecondsTextToNs("1."), std::nullopt);
    EXPECT_EQ(json::microsecondsTextToNs("01"), std::nullopt);
    EXPECT_EQ(json::microsecondsTextToNs("1e"), std::nullopt);
    EXPECT_EQ(json::microsecondsTextToNs("abc"), std::nullopt);
    // INT64_MAX ns is 9223372036854775.807 µs.
    EXPECT_EQ(json::microsecondsTextToNs("9223372036854775.807"), 9223372036854775807);
    EXPECT_EQ(json::microsecondsTextToNs("9223372036854775.808"), std::nullopt);
    EXPECT_EQ(json::microsecondsTextToNs("1e300"), std::nullopt);
}

// --- Dialects.

TEST(ChromeTraceReaderDialectTest, BareArrayWithLegacyStreamTids)
{
    // Legacy Kineto: bare array, category "Kernel", lanes named "stream 7"; the device comes from args.device,
    // the host tid is a numeric string, the launch flow ("async") repeats the correlation.
    const Trace trace = parseOk(R"j([
      {"ph":"X","cat":"Runtime","name":"cudaLaunchKernel","pid":77,"tid":"4093687616","ts":100,"dur":5,
       "args":{"correlation":9,"external id":1}},
      {"ph":"s","id":9,"pid":77,"tid":4093687616,"ts":100,"cat":"async","name":"launch"},
      {"ph":"X","cat":"Kernel","name":"k","pid":3,"tid":"stream 7","ts":110,"dur":20,
       "args":{"device":3,"stream":7,"correlation":9}},
      {"ph":"f","id":9,"pid":3,"tid":"stream 7","ts":110,"cat":"async","name":"launch","bp":"e"}
    ])j");
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].id, 3);
    const Lane* lane = nullptr;
    const Event* kernel = findByName(trace, "k", &lane);
    ASSERT_TRUE(kernel);
    EXPECT_EQ(lane->kind, LaneKind::GpuStream);
    EXPECT_EQ(lane->stream, 7);
    EXPECT_EQ(kernel->start, 110000);
    EXPECT_EQ(kernel->end, 130000);
    const auto launch = trace.launchOf(*refByName(trace, "k"));
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.lanes()[launch->lane.value].tid, 4093687616);
    EXPECT_EQ(trace.processes()[0].pid, 77);
}

TEST(ChromeTraceReaderDialectTest, StreamFromTidWhenArgsHaveNone)
{
    // No args at all: the device is the pid and the stream the tid (Kineto's own layout).
    const Trace trace = parseOk(R"j({"traceEvents":[
      {"ph":"X","cat":"cpu_op","name":"op","pid":5,"tid":5,"ts":0,"dur":1},
      {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":2,"tid":13,"ts":1,"dur":1}]})j");
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].id, 2);
    const Lane* lane = nullptr;
    ASSERT_TRUE(findByName(trace, "Memset (Device)", &lane));
    EXPECT_EQ(lane->stream, 13);
}

TEST(ChromeTraceReaderDialectTest, BeginEndPairsMatchPerThread)
{
    // Two threads interleave B/E; each E closes the innermost open B of its own pid/tid:
    // thread 1: outer [10,50), inner [20,30); thread 2: [15,40).
    const Trace trace = parseOk(R"j([
      {"ph":"B","name":"outer","cat":"user_annotation","pid":1,"tid":1,"ts":10,"args":{"step":1}},
      {"ph":"B","name":"other","pid":1,"tid":2,"ts":15},
      {"ph":"B","name":"inner","cat":"cpu_op","pid":1,"tid":1,"ts":20},
      {"ph":"E","pid":1,"tid":1,"ts":30},
      {"ph":"E","pid":1,"tid":2,"ts":40},
      {"ph":"E","pid":1,"tid":1,"ts":50}
    ])j");
    EXPECT_EQ(trace.skippedEvents(), 0u);
    const Event* outer = findByName(trace, "outer");
    const Event* inner = findByName(trace, "inner");
    const Event* other = findByName(trace, "other");
    ASSERT_TRUE(outer && inner && other);
    EXPECT_EQ(std::make_pair(outer->start, outer->end), std::make_pair(TimeNs { 10000 }, TimeNs { 50000 }));
    EXPECT_EQ(std::make_pair(inner->start, inner->end), std::make_pair(TimeNs { 20000 }, TimeNs { 30000 }));
    EXPECT_EQ(std::make_pair(other->start, other->end), std::make_pair(TimeNs { 15000 }, TimeNs { 40000 }));
    EXPECT_EQ(outer->kind, EventKind::UserAnnotation);
    EXPECT_EQ(inner->kind, EventKind::CpuOp);
    EXPECT_EQ(other->kind, EventKind::Other);
    EXPECT_EQ(inner->depth, 1);
    EXPECT_EQ(nlohmann::json::parse(trace.argsJson(*outer))["step"], 1);
}

TEST(ChromeTraceReaderDialectTest, UnmatchedBeginAndEndAreReportedWithOffsets)
{
    const std::string json = R"([{"ph":"E","pid":1,"tid":1,"ts":5},{"ph":"B","name":"open","pid":1,"tid":1,"ts":6}])";
    const Trace trace = parseOk(json);
    EXPECT_EQ(trace.eventCount(), 0u);
    EXPECT_EQ(trace.skippedEvents(), 2u);
    ASSERT_EQ(trace.warnings().size(), 2u);
    EXPECT_EQ(trace.warnings()[0].byteOffset, 1u); // the E event
    EXPECT_NE(trace.warnings()[0].message.find("without a matching \"B\""), std::string::npos);
    EXPECT_EQ(trace.warnings()[1].byteOffset, json.find(R"({"ph":"B")"));
    EXPECT_NE(trace.warnings()[1].message.find("without a matching \"E\""), std::string::npos);
    EXPECT_EQ(trace.warnings()[1].file, "hand.json");
}

TEST(ChromeTraceReaderDialectTest, FlowsWithoutArgsCorrelationLinkLaunchAndKernel)
{
    // No args.correlation anywhere: the ac2g flow pair (id 77) binds the call starting at the "s" ts and the
    // kernel starting at the "f" ts. The cpu_op that starts with the call keeps no correlation (the call is
    // preferred), and the "fwdbwd" flow (id 5, not a correlation) links nothing.
    const Trace trace = parseOk(R"j({"traceEvents":[
      {"ph":"X","cat":"cpu_op","name":"aten::add","pid":10,"tid":10,"ts":100,"dur":10},
      {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":10,"ts":100,"dur":4},
      {"ph":"X","cat":"kernel","name":"add_kernel","pid":0,"tid":7,"ts":120,"dur":3},
      {"ph":"X","cat":"cpu_op","name":"backward","pid":10,"tid":11,"ts":200,"dur":3},
      {"ph":"s","id":77,"pid":10,"tid":10,"ts":100,"cat":"ac2g","name":"ac2g"},
      {"ph":"f","id":77,"pid":0,"tid":7,"ts":120,"cat":"ac2g","name":"ac2g","bp":"e"},
      {"ph":"s","id":5,"pid":10,"tid":10,"ts":100,"cat":"fwdbwd","name":"fwdbwd"},
      {"ph":"f","id":5,"pid":10,"tid":11,"ts":200,"cat":"fwdbwd","name":"fwdbwd","bp":"e"}]})j");
    const auto kernel = refByName(trace, "add_kernel");
    ASSERT_TRUE(kernel);
    EXPECT_EQ(trace.event(*kernel).correlation, 77u);
    const auto launch = trace.launchOf(*kernel);
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.name(trace.event(*launch)), "cudaLaunchKernel");
    EXPECT_EQ(findByName(trace, "aten::add")->correlation, 0u);
    EXPECT_EQ(findByName(trace, "backward")->correlation, 0u);
}

TEST(ChromeTraceReaderDialectTest, StringFlowIdsAreDecimalOrHex)
{
    // "010" is ten, as the format means (strtoull with base 0 once read it as octal eight); "0x1f" is 31.
    const Trace trace = parseOk(R"j({"traceEvents":[
      {"ph":"X","cat":"cuda_runtime","name":"launch ten","pid":10,"tid":10,"ts":100,"dur":4},
      {"ph":"s","id":"010","pid":10,"tid":10,"ts":100,"cat":"ac2g","name":"ac2g"},
      {"ph":"X","cat":"kernel","name":"kernel ten","pid":0,"tid":7,"ts":120,"dur":3},
      {"ph":"f","id":"010","pid":0,"tid":7,"ts":120,"cat":"ac2g","name":"ac2g","bp":"e"},
      {"ph":"X","cat":"cuda_runtime","name":"launch hex","pid":10,"tid":10,"ts":200,"dur":4},
      {"ph":"s","id":"0x1f","pid":10,"tid":10,"ts":200,"cat":"ac2g","name":"ac2g"},
      {"ph":"X","cat":"kernel","name":"kernel hex","pid":0,"tid":7,"ts":220,"dur":3},
      {"ph":"f","id":"0x1f","pid":0,"tid":7,"ts":220,"cat":"ac2g","name":"ac2g","bp":"e"}]})j");
    EXPECT_EQ(findByName(trace, "launch ten")->correlation, 10u);
    EXPECT_EQ(findByName(trace, "kernel ten")->correlation, 10u);
    EXPECT_EQ(findByName(trace, "kernel hex")->correlation, 31u);
}

TEST(ChromeTraceReaderDialectTest, FlowsRightAfterTheirEventBindIt)
{
    // Kineto's order: each flow event follows the X event it binds. Launch 1's "s" follows a cpu_op that
    // starts at the same ts, so it is bound later, to the API call of that thread (not to the cpu_op).
    const Trace trace = parseOk(R"j([
      {"ph":"X","cat":"cuda_runtime","name":"launch 1","pid":10,"tid":10,"ts":100,"dur":4},
      {"ph":"X","cat":"cpu_op","name":"op","pid":10,"tid":10,"ts":100,"dur":9},
      {"ph":"s","id":31,"pid":10,"tid":10,"ts":100,"cat":"ac2g","name":"ac2g"},
      {"ph":"X","cat":"kernel","name":"kernel 1","pid":0,"tid":7,"ts":110,"dur":3},
      {"ph":"f","id":31,"pid":0,"tid":7,"ts":110,"cat":"ac2g","name":"ac2g","bp":"e"},
      {"ph":"X","cat":"cuda_runtime","name":"launch 2","pid":10,"tid":10,"ts":120,"dur":4},
      {"ph":"s","id":32,"pid":10,"tid":10,"ts":120,"cat":"ac2g","name":"ac2g"},
      {"ph":"X","cat":"kernel","name":"kernel 2","pid":0,"tid":7,"ts":130,"dur":3},
      {"ph":"f","id":32,"pid":0,"tid":7,"ts":130,"cat":"ac2g","name":"ac2g","bp":"e"}])j");
    EXPECT_EQ(findByName(trace, "launch 1")->correlation, 31u);
    EXPECT_EQ(findByName(trace, "op")->correlation, 0u);
    EXPECT_EQ(findByName(trace, "kernel 1")->correlation, 31u);
    EXPECT_EQ(findByName(trace, "launch 2")->correlation, 32u);
    EXPECT_EQ(findByName(trace, "kernel 2")->correlation, 32u);
    const auto launch = trace.launchOf(*refByName(trace, "kernel 2"));
    ASSERT_TRUE(launch);
    EXPECT_EQ(trace.name(trace.event(*launch)), "launch 2");
}

TEST(ChromeTraceReaderDialectTest, MetadataNamesProcessesAndLanes)
{
    const Trace trace = parseOk(R"j({"traceEvents":[
      {"name":"process_name","ph":"M","pid":42,"tid":0,"args":{"name":"trainer"}},
      {"name":"process_sort_index","ph":"M","pid":42,"tid":0,"args":{"sort_index":3}},
      {"name":"process_labels","ph":"M","pid":42,"tid":0,"args":{"labels":"CPU"}},
      {"name":"thread_name","ph":"M","pid":42,"tid":"43","args":{"name":"main thread"}},
      {"name":"thread_sort_index","ph":"M","pid":42,"tid":43,"args":{"sort_index":-2}},
      {"name":"process_name","ph":"M","pid":0,"tid":0,"args":{"name":"trainer"}},
      {"name":"thread_name","ph":"M","pid":0,"tid":7,"args":{"name":"stream 7 "}},
      {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":42,"tid":43,"ts":1,"dur":1},
      {"ph":"X","cat":"python_function","name":"loader","pid":42,"tid":"worker thread","ts":1,"dur":1},
      {"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pinned)","pid":0,"tid":7,"ts":2,"dur":1,
       "args":{"device":0,"stream":7,"bytes":1024}},
      {"ph":"C","name":"counter","pid":42,"ts":3,"args":{"value":1}}]})j");
    EXPECT_EQ(trace.skippedEvents(), 0u);
    EXPECT_TRUE(trace.warnings().empty());
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].name, "trainer");
    EXPECT_EQ(trace.processes()[0].sortIndex, 3);
    const Lane* lane = nullptr;
    ASSERT_TRUE(findByName(trace, "cudaMemcpyAsync", &lane));
    EXPECT_EQ(lane->name, "main thread");
    EXPECT_EQ(lane->sortIndex, -2);
    EXPECT_EQ(lane->tid, 43);
    // A non-numeric tid gets a stable synthetic id and names its lane.
    ASSERT_TRUE(findByName(trace, "loader", &lane));
    EXPECT_EQ(lane->name, "worker thread");
    EXPECT_EQ(lane->kind, LaneKind::CpuThread);
    const Event* memcpy = findByName(trace, "Memcpy DtoH (Device -> Pinned)", &lane);
    ASSERT_TRUE(memcpy);
    EXPECT_EQ(lane->name, "stream 7 ");
    EXPECT_EQ(memcpy->copyKind, CopyKind::DtoH);
    EXPECT_EQ(memcpy->bytes, 1024u);
    EXPECT_EQ(trace.eventCount(), 3u); // the counter is skipped silently
}

TEST(ChromeTraceReaderDialectTest, WorkerProcessesAndPseudoProcesses)
{
    // pid 100 issues the CUDA calls: it owns the GPU (pid 0 is the device, not a process). pid 200 is a
    // data-loader worker: its own process. The "Spans" pseudo-process of Kineto joins the host process.
    const Trace trace = parseOk(R"j({"distributedInfo":{"rank":3},"traceEvents":[
      {"ph":"X","cat":"cpu_op","name":"worker op","pid":200,"tid":201,"ts":0,"dur":9},
      {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":101,"ts":1,"dur":2,
       "args":{"correlation":1}},
      {"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":4,"dur":2,"args":{"device":0,"stream":7,
       "correlation":1}},
      {"ph":"X","cat":"Trace","name":"PyTorch Profiler (0)","pid":"Spans","tid":"PyTorch Profiler","ts":0,"dur":10},
      {"ph":"i","s":"g","name":"Record Window End","pid":"","tid":"","ts":10}]})j");
    ASSERT_EQ(trace.processes().size(), 2u);
    EXPECT_EQ(trace.processes()[0].pid, 100);
    EXPECT_EQ(trace.processes()[1].pid, 200);
    EXPECT_EQ(trace.processes()[0].rank, 3);
    EXPECT_EQ(trace.processes()[1].rank, 3);
    EXPECT_EQ(trace.processes()[1].sourceFile, "hand.json");
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].process.value, 0u);
    const Lane* lane = nullptr;
    ASSERT_TRUE(findByName(trace, "worker op", &lane));
    EXPECT_EQ(lane->process.value, 1u);
    const Event* span = findByName(trace, "PyTorch Profiler (0)", &lane);
    ASSERT_TRUE(span);
    EXPECT_EQ(span->kind, EventKind::Other);
    EXPECT_EQ(lane->process.value, 0u);
    EXPECT_EQ(lane->name, "PyTorch Profiler");
    const Event* instant = findByName(trace, "Record Window End");
    ASSERT_TRUE(instant);
    EXPECT_EQ(instant->start, 10000);
    EXPECT_EQ(instant->end, 10000); // instants are zero-length events
}

TEST(ChromeTraceReaderDialectTest, CategoriesMapToKindsAndUnknownOnesAreKept)
{
    struct Case {
        const char* cat;
        EventKind kind;
    };
    const Case cases[] = {
        { "kernel", EventKind::Kernel },
        { "Kernel", EventKind::Kernel },
        { "gpu_memcpy", EventKind::Memcpy },
        { "Memcpy", EventKind::Memcpy },
        { "gpu_memset", EventKind::Memset },
        { "Memset", EventKind::Memset },
        { "cuda_runtime", EventKind::RuntimeApi },
        { "Runtime", EventKind::RuntimeApi },
        { "cuda_driver", EventKind::DriverApi },
        { "cuda_sync", EventKind::Sync },
        { "cpu_op", EventKind::CpuOp },
        { "Operator", EventKind::CpuOp },
        { "python_function", EventKind::PythonFunction },
        { "user_annotation", EventKind::UserAnnotation },
        { "gpu_user_annotation", EventKind::GpuUserAnnotation },
        { "overhead", EventKind::Overhead },
        { "Overhead", EventKind::Overhead },
        { "cpu_instant_event", EventKind::Other },
        { "some_future_category", EventKind::Other },
    };
    std::string json = "[";
    for (std::size_t i = 0; i < std::size(cases); ++i) {
        json += (i ? "," : "") + std::string(R"({"ph":"X","pid":1,"tid":1,"dur":1,"ts":)") + std::to_string(i)
            + R"(,"cat":")" + cases[i].cat + R"(","name":")" + cases[i].cat + "\"}";
    }
    json += "]";
    const Trace trace = parseOk(json);
    ASSERT_EQ(trace.eventCount(), std::size(cases));
    for (const Case& c : cases) {
        const Event* e = findByName(trace, c.cat);
        ASSERT_TRUE(e) << c.cat;
        EXPECT_EQ(e->kind, c.kind) << c.cat;
    }
}

TEST(ChromeTraceReaderDialectTest, EscapedNamesAreDecoded)
{
    const Trace trace = parseOk(R"j([{"ph":"X","cat":"cpu_op","name":"say \"h\u00e9\" \\ \ud83d\ude00","pid":1,
      "tid":1,"ts":1,"dur":1}])j");
    ASSERT_EQ(trace.eventCount(), 1u);
    EXPECT_EQ(trace.name(trace.lanes()[0].events[0]), "say \"h\xc3\xa9\" \\ \xf0\x9f\x98\x80");
}

TEST(ChromeTraceReaderDialectTest, ArgsAreKeptVerbatimOrDroppedOnRequest)
{
    const std::string args = R"({"External id": 3, "Input Dims": [[1, 2], []], "note": "x"})";
    const std::string json = R"([{"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":1,"dur":1,"args":)" + args
        + R"(},{"ph":"X","cat":"cpu_op","name":"empty","pid":1,"tid":1,"ts":2,"dur":1,"args":{}}])";
    const Trace kept = parseOk(json);
    EXPECT_EQ(kept.argsJson(*findByName(kept, "op")), args);
    EXPECT_EQ(findByName(kept, "empty")->args, kNoArgs); // an empty object holds nothing worth keeping
    auto dropped = ChromeTraceReader::parse(json, "hand.json", ChromeReadOptions { false });
    ASSERT_TRUE(dropped.ok());
    EXPECT_TRUE(dropped.value().args().empty());
    EXPECT_EQ(findByName(dropped.value(), "op")->args, kNoArgs);
}

TEST(ChromeTraceReaderDialectTest, UnsignedNoStreamBecomesMinusOne)
{
    // Older Kineto wrote CUPTI's "no stream" as 4294967295, newer as -1: both land on stream -1.
    const Trace trace = parseOk(R"j([
      {"ph":"X","cat":"cuda_sync","name":"Context Sync","pid":0,"tid":-1,"ts":1,"dur":1,"args":{"stream":4294967295}},
      {"ph":"X","cat":"cuda_sync","name":"Event Sync","pid":0,"tid":-1,"ts":3,"dur":1,"args":{"stream":-1}}])j");
    ASSERT_EQ(trace.lanes().size(), 1u);
    EXPECT_EQ(trace.lanes()[0].stream, -1);
    EXPECT_EQ(trace.lanes()[0].events.size(), 2u);
}

} // namespace
} // namespace gapscope
