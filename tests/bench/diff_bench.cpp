// SPDX-License-Identifier: MIT
// `gapscope diff` end to end on two ~55 MB Kineto traces (DESIGN.md §8: ≤ 1 s), against two `gapscope report`
// runs on the same files with the same options, and the step verdict alone (the bootstrap's 10,000 resamples).
#include "cli/commands.h"
#include "core/analysis/compare.h"
#include "tests/bench/kineto_trace_generator.h"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <string>

namespace {

using namespace gapscope;

// 35,000 GPU ops (and their launches, cpu_ops and flows) make about 55 MB of JSON, 70 ProfilerStep ranges.
constexpr std::size_t kGpuOps = 35000;

class DiffFiles {
public:
    DiffFiles()
    {
        for (int i = 0; i < 2; ++i) {
            m_paths[i] = (std::filesystem::temp_directory_path()
                / ("gapscope_diff_bench_" + std::to_string(::getpid()) + "_" + std::to_string(i) + ".json"))
                             .string();
            if (!bench::writeKinetoJsonFile(m_paths[i], bench::KinetoTraceSpec { kGpuOps, 4, 2, 7u + i }, false)) {
                std::fprintf(stderr, "cannot write %s\n", m_paths[i].c_str());
                std::abort();
            }
        }
    }
    ~DiffFiles()
    {
        std::error_code ec;
        for (const auto& p : m_paths)
            std::filesystem::remove(p, ec);
    }
    const std::string& path(int i) const { return m_paths[i]; }
    double megabytes() const
    {
        return static_cast<double>(std::filesystem::file_size(m_paths[0]) + std::filesystem::file_size(m_paths[1]))
            / 2e6;
    }

private:
    std::string m_paths[2];
};

const DiffFiles& files()
{
    static const DiffFiles instance;
    return instance;
}

/// `gapscope diff ARGS` once per iteration.
void runDiffs(benchmark::State& state, const std::vector<std::string>& args)
{
    const DiffFiles& f = files();
    for (auto _ : state) {
        std::ostringstream out;
        std::ostringstream err;
        if (cli::runDiff(args, out, err) != 0) {
            state.SkipWithError(err.str().c_str());
            return;
        }
        benchmark::DoNotOptimize(out.str().size());
    }
    state.counters["MB_per_trace"] = f.megabytes();
}

void BM_DiffTwoKinetoTraces(benchmark::State& state)
{
    const DiffFiles& f = files();
    runDiffs(state, { "--window", "steps", "--warmup", "1", f.path(0), f.path(1) });
}
BENCHMARK(BM_DiffTwoKinetoTraces)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

// The same with one metric of each kind that reads ranges or kernels (issue budget: at most 10 % more than
// BM_DiffTwoKinetoTraces).
void BM_DiffTwoKinetoTracesWithMetrics(benchmark::State& state)
{
    const DiffFiles& f = files();
    runDiffs(state,
        { "--window", "steps", "--warmup", "1", "--metric", "steps=range:ProfilerStep", "--metric",
            "between=interval:ProfilerStep", "--metric", "first=first:ProfilerStep", "--metric", "gemm=gpu:gemm",
            f.path(0), f.path(1) });
}
BENCHMARK(BM_DiffTwoKinetoTracesWithMetrics)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

void BM_ReportTwoKinetoTraces(benchmark::State& state)
{
    const DiffFiles& f = files();
    for (auto _ : state) {
        for (int i = 0; i < 2; ++i) {
            std::ostringstream out;
            std::ostringstream err;
            if (cli::runReport({ "--window", "steps", "--warmup", "1", f.path(i) }, out, err) != 0) {
                state.SkipWithError(err.str().c_str());
                return;
            }
            benchmark::DoNotOptimize(out.str().size());
        }
    }
    state.counters["MB_per_trace"] = f.megabytes();
}
BENCHMARK(BM_ReportTwoKinetoTraces)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(3.0);

// The verdict alone: Mann-Whitney U and the 10,000-resample bootstrap on n steps per side.
void BM_StepVerdict(benchmark::State& state)
{
    const auto n = static_cast<std::size_t>(state.range(0));
    std::mt19937_64 generator(3);
    std::normal_distribution<double> base(100e6, 5e6);
    std::normal_distribution<double> fresh(98e6, 5e6);
    std::vector<TimeNs> a(n);
    std::vector<TimeNs> b(n);
    for (std::size_t i = 0; i < n; ++i) {
        a[i] = static_cast<TimeNs>(base(generator));
        b[i] = static_cast<TimeNs>(fresh(generator));
    }
    for (auto _ : state)
        benchmark::DoNotOptimize(compareSteps({ a }, { b }).verdict);
}
BENCHMARK(BM_StepVerdict)->Arg(70)->Arg(1000)->Unit(benchmark::kMillisecond);

} // namespace
