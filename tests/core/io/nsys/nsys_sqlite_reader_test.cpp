// SPDX-License-Identifier: MIT
// NsysSqliteReader on real Nsight Systems exports (tests/data/NOTICE.md): every event of nsys-ai's mock.sqlite
// checked by hand against the rows of its tables, the GPU figures of pipit's saxpy export (schema 2.x, each call
// in two RUNTIME rows) computed independently from the definitions of docs/definitions.md, and CloverLeaf's
// kernels and copies against pipit's own reading of the same file (cloverleaf_gpu_trace.csv).
#include "core/analysis/analysis.h"
#include "core/io/nsys/nsys_sqlite_reader.h"
#include "core/io/trace_file.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

namespace gapscope {
namespace {

using test::countKind;

using test::dataPath;

const std::string kMock = "nsys/nsys-ai/mock.sqlite";
const std::string kSaxpy = "nsys/pipit/saxpy-mpi-cuda_nsys_perlmutter0.sqlite";
const std::string kCloverLeaf = "pipit/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";

using test::load;

std::vector<const Lane*> lanesOf(const Trace& trace, LaneKind kind)
{
    std::vector<const Lane*> lanes;
    for (const Lane& lane : trace.lanes()) {
        if (lane.kind == kind)
            lanes.push_back(&lane);
    }
    return lanes;
}

bool hasWarningContaining(const Trace& trace, std::string_view text)
{
    return std::any_of(trace.warnings().begin(), trace.warnings().end(),
        [&](const ImportWarning& w) { return w.message.find(text) != std::string::npos; });
}

struct Expected {
    TimeNs start;
    TimeNs end;
    EventKind kind;
    std::string name;
    std::uint32_t correlation;
};

void expectEvents(const Trace& trace, const Lane& lane, const std::vector<Expected>& expected)
{
    ASSERT_EQ(lane.events.size(), expected.size()) << lane.name;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Event& e = lane.events[i];
        SCOPED_TRACE("event " + std::to_string(i) + " of lane " + lane.name);
        EXPECT_EQ(e.start, expected[i].start);
        EXPECT_EQ(e.end, expected[i].end);
        EXPECT_EQ(e.kind, expected[i].kind);
        EXPECT_EQ(trace.name(e), expected[i].name);
        EXPECT_EQ(e.correlation, expected[i].correlation);
    }
}

// ---- nsys-ai mock.sqlite (nsys 2026.1.1, schema 3.24.14): every event, from the rows of its tables ----------

TEST(NsysSqliteReaderMock, EveryEventAsItsTablesHoldIt)
{
    const Trace trace = load(kMock);
    ASSERT_EQ(trace.processes().size(), 1u);
    const Process& p = trace.processes()[0];
    EXPECT_EQ(p.pid, 91186); // globalPid 283004823928832 >> 24 & 0xffffff
    EXPECT_EQ(p.name, "/home/rich-wsl/nsys-tui/.venv-gpu/bin/python"); // PROCESSES
    EXPECT_FALSE(p.rank.has_value());
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].id, 0);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA GeForce RTX 3080"); // TARGET_INFO_GPU via TARGET_INFO_CUDA_DEVICE
    EXPECT_EQ(trace.devices()[0].propertiesJson,
        "{\"id\":0,\"name\":\"NVIDIA GeForce RTX 3080\",\"totalGlobalMem\":10736893952,\"numSms\":68}");

    const auto threads = lanesOf(trace, LaneKind::CpuThread);
    ASSERT_EQ(threads.size(), 1u);
    EXPECT_EQ(threads[0]->tid, 91186);
    EXPECT_EQ(threads[0]->name, "python"); // ThreadNames
    // CUPTI_ACTIVITY_KIND_RUNTIME: nine rows, the first a driver call (eventClass 1); names without _vNNNN.
    using K = EventKind;
    expectEvents(trace, *threads[0],
        {
            { 1304349703, 1304352711, K::DriverApi, "cuModuleGetLoadingMode", 1 },
            { 1327103658, 1327112413, K::RuntimeApi, "cudaGetDeviceProperties", 127 },
            { 1498719457, 1499301305, K::RuntimeApi, "cudaStreamIsCapturing", 134 },
            { 1499307953, 1500077430, K::RuntimeApi, "cudaMalloc", 135 },
            { 1500271671, 1517708070, K::RuntimeApi, "cudaLaunchKernel", 143 },
            { 1518030155, 1535794161, K::RuntimeApi, "cudaLaunchKernel", 159 },
            { 1535956590, 1539525531, K::RuntimeApi, "cudaHostAlloc", 167 },
            { 1539568563, 1540158067, K::RuntimeApi, "cudaMemcpyAsync", 171 },
            { 1540164123, 1540180135, K::RuntimeApi, "cudaStreamSynchronize", 172 },
        });

    const auto streams = lanesOf(trace, LaneKind::GpuStream);
    ASSERT_EQ(streams.size(), 1u);
    EXPECT_EQ(streams[0]->stream, 7);
    expectEvents(trace, *streams[0],
        {
            { 1517727052, 1517728492, K::Kernel,
                "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
                "std::array<char *, (unsigned long)1>>(int, T2, T3)",
                143 },
            { 1535979030, 1535981719, K::Kernel,
                "void at::native::reduce_kernel<(int)512, (int)1, at::native::ReduceOp<float, "
                "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator "
                "()(at::TensorIterator &)::[lambda(float, float) (instance 1)]>, unsigned int, float, (int)4>>(T3)",
                159 },
            // CUPTI_ACTIVITY_KIND_SYNCHRONIZATION: syncType 2 for cudaStreamSynchronize.
            { 1540166277, 1540179933, K::Sync, "Stream Sync", 172 },
            // copyKind 2 (DtoH), srcKind 2 (Device), dstKind 1 (Pinned): 4 bytes.
            { 1540178479, 1540180111, K::Memcpy, "Memcpy DtoH (Device -> Pinned)", 171 },
        });
    EXPECT_EQ(streams[0]->events[3].bytes, 4u);
    EXPECT_EQ(streams[0]->events[3].copyKind, CopyKind::DtoH);
    // Launch configurations, as Kineto writes them: grid, block, registers, static + dynamic shared memory.
    EXPECT_EQ(trace.argsJson(streams[0]->events[0]),
        "{\"grid\":[1,1,1],\"block\":[128,1,1],\"registers per thread\":16,\"shared memory\":0}");
    EXPECT_EQ(trace.argsJson(streams[0]->events[1]),
        "{\"grid\":[1,1,1],\"block\":[16,1,1],\"registers per thread\":28,\"shared memory\":16}");

    // Each GPU op links to the call that launched it.
    for (std::uint32_t i : { 0u, 1u, 3u }) {
        const EventRef op { LaneIndex { static_cast<std::uint32_t>(streams[0] - trace.lanes().data()) }, i };
        const auto launch = trace.launchOf(op);
        ASSERT_TRUE(launch.has_value());
        EXPECT_EQ(trace.event(*launch).correlation, trace.event(op).correlation);
    }
    EXPECT_TRUE(hasWarningContaining(trace, "Nsight Systems export by nsys 2026.1.1.204, export schema 3.24.14"));
    EXPECT_EQ(trace.skippedEvents(), 0u);
}

TEST(NsysSqliteReaderMock, GpuFiguresAndGapCauses)
{
    const Trace trace = load(kMock);
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(result.devices.size(), 1u);
    const DeviceFigures& d = result.devices[0];
    // Computed by hand: 1,440 + 2,689 + 1,632 ns of activity between 1,517,727,052 and 1,540,180,111.
    EXPECT_EQ(d.spanNs, 22'453'059);
    EXPECT_EQ(d.busyNs, 5'761);
    EXPECT_EQ(d.idleNs, 22'447'298);
    ASSERT_EQ(d.gapCount, 2u);
    // Both gaps end with an op whose launch call began after the gap did: the GPU waited for the host.
    std::vector<Gap> deviceGaps;
    for (const Gap gap : result.gaps) {
        if (!gap.stream)
            deviceGaps.push_back(gap);
    }
    ASSERT_EQ(deviceGaps.size(), 2u);
    EXPECT_EQ(deviceGaps[0].start, 1517728492);
    EXPECT_EQ(deviceGaps[0].end, 1535979030);
    EXPECT_EQ(deviceGaps[0].cause, GapCause::Host);
    EXPECT_EQ(deviceGaps[1].start, 1535981719);
    EXPECT_EQ(deviceGaps[1].end, 1540178479);
    EXPECT_EQ(deviceGaps[1].cause, GapCause::Host);
}

// ---- pipit saxpy-mpi-cuda rank 0 (nsys 2022.2.1, schema 2.9.1) --------------------------------------------------

TEST(NsysSqliteReaderSaxpy, KernelsCopiesAndEachLaunchOnce)
{
    const Trace trace = load(kSaxpy);
    EXPECT_EQ(countKind(trace, EventKind::Kernel), 5u);
    EXPECT_EQ(countKind(trace, EventKind::Memcpy), 15u);
    EXPECT_EQ(countKind(trace, EventKind::Memset), 0u);
    // 95 RUNTIME rows: 38 calls written twice (eventClass 67 with the backtrace, and the versioned entry point
    // inside it, one correlation id) and 19 written once: 57 calls.
    EXPECT_EQ(countKind(trace, EventKind::RuntimeApi) + countKind(trace, EventKind::DriverApi), 57u);
    EXPECT_TRUE(hasWarningContaining(trace, "38 CUDA API rows nested in a call with the same correlation id"));

    std::size_t launches = 0;
    for (std::uint32_t l = 0; l < trace.lanes().size(); ++l) {
        const Lane& lane = trace.lanes()[l];
        for (std::uint32_t i = 0; i < lane.events.size(); ++i) {
            const Event& e = lane.events[i];
            if (trace.name(e) == "cudaLaunchKernel") {
                ++launches;
                // The outer row: the launch of correlation 140 began at 924,889,832 (its inner row at 924,890,173).
                if (e.correlation == 140) {
                    EXPECT_EQ(e.start, 924889832);
                    EXPECT_EQ(e.end, 924923197);
                }
                const auto ops = trace.gpuOpsOf(EventRef { LaneIndex { l }, i });
                ASSERT_EQ(ops.size(), 1u);
                EXPECT_EQ(trace.event(ops[0]).kind, EventKind::Kernel);
            }
            if (e.kind == EventKind::Kernel) {
                const auto launch = trace.launchOf(EventRef { LaneIndex { l }, i });
                ASSERT_TRUE(launch.has_value());
                EXPECT_EQ(trace.name(trace.event(*launch)), "cudaLaunchKernel");
            }
        }
    }
    EXPECT_EQ(launches, 5u);
    // The copies are synchronous cudaMemcpy calls: the host's synchronizing calls are known as such.
    ASSERT_EQ(trace.processes().size(), 1u);
    EXPECT_EQ(trace.processes()[0].pid, 1230493);
    EXPECT_EQ(trace.processes()[0].name, "./saxpy-mpi-cuda");
    EXPECT_EQ(trace.processes()[0].rank, 0); // the main thread is named "MPI Rank 0" (nvtxNameOsThread)
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA A100-SXM4-40GB"); // no TARGET_INFO_CUDA_DEVICE: by cuDevice
    EXPECT_TRUE(hasWarningContaining(trace, "nsys 2022.2.1.31, export schema 2.9.1"));
}

TEST(NsysSqliteReaderSaxpy, DeviceFiguresOverTheGpuWindow)
{
    const Trace trace = load(kSaxpy);
    const AnalysisResult result = analyze(trace, {});
    ASSERT_EQ(result.devices.size(), 1u);
    const DeviceFigures& d = result.devices[0];
    // Computed independently (exact ns) from the definitions. nsys-tui and nsys-ai print 952.0 ms idle: kernels only.
    EXPECT_EQ(d.spanNs, 1'097'327'843);
    EXPECT_EQ(d.busyNs, 373'273'080);
    EXPECT_EQ(d.idleNs, 724'054'763);
}

TEST(NsysSqliteReaderSaxpy, NvtxRangesNamedThroughTextIdInTheirDomain)
{
    const Trace trace = load(kSaxpy);
    std::map<std::string, int> ranges;
    std::map<std::string, std::string> domains;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange) {
                ++ranges[std::string(trace.name(e))];
                domains[std::string(trace.name(e))] = std::string(trace.argsJson(e));
            }
        }
    }
    // NVTX_EVENTS: 22 push/pop ranges; the MPI ones name themselves by textId in domain 1 ("MPI"), the
    // application's "saxpy" by text in the default domain.
    const std::map<std::string, int> expected
        = { { "MPI_Init", 1 }, { "MPI_Send", 10 }, { "MPI_Recv", 5 }, { "MPI_Finalize", 1 }, { "saxpy", 5 } };
    EXPECT_EQ(ranges, expected);
    EXPECT_EQ(domains["MPI_Send"], "{\"domain\":\"MPI\"}");
    EXPECT_EQ(domains["saxpy"], "");
    const auto threads = lanesOf(trace, LaneKind::CpuThread);
    ASSERT_EQ(threads.size(), 1u);
    EXPECT_EQ(threads[0]->name, "MPI Rank 0");
}

// ---- pipit CloverLeaf (nsys 2024.5.1, schema 3.13.2) against pipit's cloverleaf_gpu_trace.csv -------------------

struct CsvOp {
    std::string name;
    std::int64_t stream;
    std::string type;
    std::uint64_t bytes;
    TimeNs start;
    TimeNs end;
};

/// The Enter rows of pipit's GPU trace, each with the timestamp of its Leave row.
std::vector<CsvOp> readPipitCsv(const std::string& path)
{
    std::ifstream in(path);
    std::vector<CsvOp> ops;
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::vector<std::string> fields;
        std::stringstream row(line);
        for (std::string field; std::getline(row, field, ',');)
            fields.push_back(field);
        if (fields.size() < 9 || fields[5] != "Enter")
            continue;
        ops.push_back(CsvOp { fields[0], std::stoll(fields[1]), fields[2],
            fields[3].empty() ? 0 : std::stoull(fields[3]), std::stoll(fields[6]), std::stoll(fields[8]) });
    }
    return ops;
}

TEST(NsysSqliteReaderCloverLeaf, KernelsAndCopiesMatchPipitOneForOne)
{
    const Trace trace = load(kCloverLeaf);
    std::vector<CsvOp> expected = readPipitCsv(dataPath("pipit/cloverleaf-nsys/cloverleaf_gpu_trace.csv"));
    ASSERT_EQ(expected.size(), 1591u); // 1,312 kernels and 279 copies
    const auto byStart = [](const CsvOp& a, const CsvOp& b) { return a.start < b.start; };
    std::stable_sort(expected.begin(), expected.end(), byStart);

    std::vector<std::pair<const Event*, std::int64_t>> ops;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::Kernel || e.kind == EventKind::Memcpy)
                ops.emplace_back(&e, lane.stream);
        }
    }
    std::stable_sort(
        ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.first->start < b.first->start; });
    ASSERT_EQ(ops.size(), expected.size());
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const Event& e = *ops[i].first;
        const CsvOp& c = expected[i];
        SCOPED_TRACE("op " + std::to_string(i) + " (" + c.name + ")");
        EXPECT_EQ(e.start, c.start);
        EXPECT_EQ(e.end, c.end);
        EXPECT_EQ(ops[i].second, c.stream);
        if (c.type == "kernel") {
            ASSERT_EQ(e.kind, EventKind::Kernel);
            // pipit names kernels by shortName; GapScope, as Kineto and the nsys GUI, by the demangled name.
            EXPECT_NE(trace.name(e).find(c.name), std::string_view::npos) << trace.name(e);
        } else {
            ASSERT_EQ(e.kind, EventKind::Memcpy);
            EXPECT_EQ(e.bytes, c.bytes);
            EXPECT_EQ(c.type == "CUDA_MEMCPY_KIND_HTOD" ? CopyKind::HtoD : CopyKind::DtoH, e.copyKind);
        }
    }
    // The kernels were launched from one thread: each links to its launch call.
    ASSERT_EQ(trace.devices().size(), 1u);
    EXPECT_EQ(trace.devices()[0].name, "NVIDIA A100-SXM4-80GB");
    EXPECT_EQ(countKind(trace, EventKind::Sync), 1312u); // a cudaDeviceSynchronize after each kernel
}

// ---- several threads read the same events as one -----------------------------------------------------------------

class NsysThreads : public testing::TestWithParam<std::string> { };

TEST_P(NsysThreads, SharesOfEachTableJoinIntoTheSameTrace)
{
    const std::string path = dataPath(GetParam());
    auto one = NsysSqliteReader::readFile(path, NsysReadOptions { true, 1, 0 });
    ASSERT_TRUE(one.ok()) << one.error().toString();
    for (const unsigned threads : { 2u, 3u, 4u }) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        // parallelFromRows 0: these small exports are split too.
        auto several = NsysSqliteReader::readFile(path, NsysReadOptions { true, threads, 0 });
        ASSERT_TRUE(several.ok()) << several.error().toString();
        const Trace& a = one.value();
        const Trace& b = several.value();
        ASSERT_EQ(a.lanes().size(), b.lanes().size());
        for (std::size_t l = 0; l < a.lanes().size(); ++l) {
            const Lane& la = a.lanes()[l];
            const Lane& lb = b.lanes()[l];
            EXPECT_EQ(la.kind, lb.kind);
            EXPECT_EQ(la.tid, lb.tid);
            EXPECT_EQ(la.stream, lb.stream);
            EXPECT_EQ(la.name, lb.name);
            ASSERT_EQ(la.events.size(), lb.events.size()) << la.name;
            for (std::size_t i = 0; i < la.events.size(); ++i) {
                const Event& ea = la.events[i];
                const Event& eb = lb.events[i];
                ASSERT_TRUE(ea.start == eb.start && ea.end == eb.end && ea.kind == eb.kind
                    && ea.correlation == eb.correlation && ea.bytes == eb.bytes && a.name(ea) == b.name(eb)
                    && a.argsJson(ea) == b.argsJson(eb))
                    << "lane " << l << " event " << i;
            }
        }
        ASSERT_EQ(a.warnings().size(), b.warnings().size());
        for (std::size_t i = 0; i < a.warnings().size(); ++i)
            EXPECT_EQ(a.warnings()[i].message, b.warnings()[i].message);
        // The samples are read on a connection of their own beside the event tables: the same samples, each
        // with the same frames.
        ASSERT_EQ(a.samples().threads().size(), b.samples().threads().size());
        for (std::size_t t = 0; t < a.samples().threads().size(); ++t) {
            const ThreadSamples& ta = a.samples().threads()[t];
            const ThreadSamples& tb = b.samples().threads()[t];
            EXPECT_EQ(ta.tid, tb.tid);
            ASSERT_EQ(ta.samples.size(), tb.samples.size());
            for (std::size_t i = 0; i < ta.samples.size(); ++i) {
                const auto fa = a.samples().chain(ta.samples[i].callchain);
                const auto fb = b.samples().chain(tb.samples[i].callchain);
                ASSERT_EQ(ta.samples[i].time, tb.samples[i].time);
                ASSERT_EQ(fa.size(), fb.size());
                for (std::size_t f = 0; f < fa.size(); ++f) {
                    ASSERT_EQ(a.strings().view(fa[f].function), b.strings().view(fb[f].function));
                    ASSERT_EQ(a.strings().view(fa[f].module), b.strings().view(fb[f].module));
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(RealExports, NsysThreads, testing::Values(kMock, kSaxpy, kCloverLeaf));

} // namespace
} // namespace gapscope
