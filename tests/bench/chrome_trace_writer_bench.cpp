// SPDX-License-Identifier: MIT
// Writer throughput on a synthetic Kineto-shaped trace: every launch call has a kernel with Kineto-like
// args, so the output has the event mix (X events, flow pairs) of a real PyTorch trace.
#include "core/io/chrome/chrome_trace_writer.h"
#include "core/io/common/gzip_writer.h"
#include "core/model/trace_builder.h"

#include <benchmark/benchmark.h>

#include <streambuf>

namespace {

using namespace gapscope;

/// Discards what it is given and counts the bytes.
class CountingBuf : public std::streambuf {
public:
    std::uint64_t bytes = 0;

protected:
    std::streamsize xsputn(const char*, std::streamsize n) override
    {
        bytes += static_cast<std::uint64_t>(n);
        return n;
    }
    int_type overflow(int_type ch) override
    {
        ++bytes;
        return traits_type::not_eof(ch);
    }
};

Trace makeTrace(std::size_t launches)
{
    TraceBuilder trace;
    Process process;
    process.pid = 1000;
    process.name = "python";
    const ProcessIndex p = trace.addProcess(process);
    const LaneIndex thread = trace.threadLane(p, 1000);
    const LaneIndex stream = trace.streamLane(trace.device(p, 0), 7);
    const StringId launch = trace.strings().intern("cudaLaunchKernel");
    const StringId kernel = trace.strings().intern(
        "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
        "at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)");
    for (std::size_t i = 0; i < launches; ++i) {
        const auto corr = static_cast<std::uint32_t>(i + 1);
        const TimeNs t = 1712195495000000000 + static_cast<TimeNs>(i) * 20250;
        Event api;
        api.kind = EventKind::RuntimeApi;
        api.name = launch;
        api.start = t;
        api.end = t + 4125;
        api.correlation = corr;
        api.args = trace.addArgs("{\"External id\": " + std::to_string(i)
            + ", \"cbid\": 211, \"correlation\": " + std::to_string(corr) + "}");
        trace.lanes()[thread.value].events.push_back(api);
        Event k;
        k.kind = EventKind::Kernel;
        k.name = kernel;
        k.start = t + 9000;
        k.end = t + 17333;
        k.correlation = corr;
        k.args = trace.addArgs("{\"External id\": " + std::to_string(i)
            + ", \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": 7, \"correlation\": " + std::to_string(corr)
            + ", \"registers per thread\": 16, \"shared memory\": 0, \"blocks per SM\": 12.5, "
              "\"warps per SM\": 50.0, \"grid\": [1024, 1, 1], \"block\": [128, 1, 1], "
              "\"est. achieved occupancy %\": 100}");
        trace.lanes()[stream.value].events.push_back(k);
    }
    return std::move(trace).finish();
}

void BM_WriteChromeJson(benchmark::State& state)
{
    const Trace trace = makeTrace(static_cast<std::size_t>(state.range(0)));
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        CountingBuf sink;
        std::ostream out(&sink);
        ChromeTraceWriter::write(trace, out);
        bytes = sink.bytes;
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(bytes * state.iterations()));
    state.SetItemsProcessed(static_cast<std::int64_t>(trace.eventCount() * state.iterations()));
    state.counters["output_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_WriteChromeJson)->Arg(500000)->Unit(benchmark::kMillisecond);

void BM_WriteChromeJsonGzip(benchmark::State& state)
{
    const Trace trace = makeTrace(static_cast<std::size_t>(state.range(0)));
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        CountingBuf sink;
        std::ostream out(&sink);
        GzipOutputStream gzip(out, 6);
        ChromeTraceWriter::write(trace, gzip);
        gzip.finish();
        bytes = sink.bytes;
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(trace.eventCount() * state.iterations()));
    state.counters["compressed_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_WriteChromeJsonGzip)->Arg(500000)->Unit(benchmark::kMillisecond);

} // namespace
