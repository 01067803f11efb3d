// SPDX-License-Identifier: MIT
// The GPU checks' verdicts, on what a GPU machine sent back (tests/gpu/run_gpu_checks.sh records there;
// tests/gpu/README.md): one folder of per-process .gapscope files per run, overhead.json, and torch.profiler's
// Chrome JSON. The folder is $GAPSCOPE_GPU_RESULTS (tests/gpu/check_gpu_results.sh sets it) or, once real captures
// are committed, tests/data/gpu-results; without either the tests skip and say so. They check the CUDA client's
// shape, gap causes, kinds, graphs, threads and fork (gpu_capture_checks.h, the same assertions the live GPU tests
// make), the collector's overhead on 20 us kernels (<= 3 %), GapScope's kernels of a PyTorch step against
// torch.profiler's (names, counts, median durations within 1 us), and the second-client run (torch.profiler active
// while GapScope records: no crash, and the capture says what it lost).

#include "core/io/trace_file.h"
#include "tests/capture/gpu_capture_checks.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

namespace gapscope::capture {
namespace {

std::string resultsFolder()
{
    if (const char* dir = std::getenv("GAPSCOPE_GPU_RESULTS"); dir && *dir)
        return dir;
    const std::string committed = std::string(GAPSCOPE_TEST_DATA_DIR) + "/gpu-results";
    return std::filesystem::is_directory(committed) ? committed : std::string();
}

std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n == 0 ? 0.0 : n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

class RecordedGpuResultsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = resultsFolder();
        if (m_dir.empty())
            GTEST_SKIP() << "no GPU results: run tests/gpu/run_gpu_checks.sh on a GPU machine and "
                            "tests/gpu/check_gpu_results.sh on what comes back (tests/gpu/README.md)";
    }

    /// The recording of run `name`, which must have exited 0.
    GatheredRecording gather(const std::string& name)
    {
        const std::filesystem::path run = std::filesystem::path(m_dir) / name;
        EXPECT_TRUE(std::filesystem::is_directory(run)) << run << " is missing";
        EXPECT_EQ(readText(run / "exit_status"), "0\n") << name << ": " << readText(run / "stderr.txt");
        auto gathered = gatherRecording(run.string(), true);
        EXPECT_TRUE(gathered) << name << ": " << (gathered ? "" : gathered.error().toString());
        return gathered ? std::move(gathered.value()) : GatheredRecording {};
    }

    std::string m_dir;
};

TEST_F(RecordedGpuResultsTest, TheClientsShapeAndGapCauses)
{
    const GatheredRecording g = gather("shape");
    test::checkShape(g.trace, g.summary);
    test::checkGapCauses(g.trace, g.summary);
}

TEST_F(RecordedGpuResultsTest, KindsSelectWhatIsRecorded)
{
    const GatheredRecording g = gather("shape-kernels");
    test::checkKernelsOnly(g.trace, g.summary);
}

TEST_F(RecordedGpuResultsTest, WithoutDriverRecordsGpuOpsStillLinkToTheRuntimeCalls)
{
    const GatheredRecording g = gather("shape-nodriver");
    test::checkWithoutDriver(g.trace, g.summary);
}

TEST_F(RecordedGpuResultsTest, GraphsThreadsForkAndTheLoop)
{
    const GatheredRecording graph = gather("graph");
    test::checkGraph(graph.trace, graph.summary);
    const GatheredRecording threads = gather("threads");
    test::checkThreads(threads.trace, threads.summary);
    const GatheredRecording fork = gather("fork");
    test::checkFork(fork.trace, fork.summary);
    const GatheredRecording loop = gather("loop");
    test::checkLoop(loop.trace, loop.summary);
}

TEST_F(RecordedGpuResultsTest, TheCollectorCostsAtMostThreePercentOnTwentyMicrosecondKernels)
{
    std::ifstream in(std::filesystem::path(m_dir) / "overhead.json");
    ASSERT_TRUE(in) << "overhead.json is missing";
    std::string line;
    bool twentyUs = false;
    while (std::getline(in, line)) {
        const nlohmann::json loop = nlohmann::json::parse(line);
        const auto base = loop.at("baseline_runs").get<std::vector<double>>();
        const auto with = loop.at("collector_runs").get<std::vector<double>>();
        const auto launches = loop.at("launches").get<double>();
        ASSERT_GE(base.size(), 5u) << line;
        ASSERT_GE(with.size(), 5u) << line;
        const double b = median(base);
        const double w = median(with);
        const double percent = (w - b) / b * 100;
        std::printf("overhead %s: %.0f launches, without %.1f ms (%.1f-%.1f), with %.1f ms (%.1f-%.1f): %.3f us per "
                    "launch, %.2f %% of wall time (medians of %zu alternated runs)\n",
            loop.at("loop").get<std::string>().c_str(), launches, b * 1e3,
            *std::min_element(base.begin(), base.end()) * 1e3, *std::max_element(base.begin(), base.end()) * 1e3,
            w * 1e3, *std::min_element(with.begin(), with.end()) * 1e3,
            *std::max_element(with.begin(), with.end()) * 1e3, (w - b) / launches * 1e6, percent, base.size());
        if (loop.at("loop") == "20us-kernel") {
            twentyUs = true;
            EXPECT_LE(percent, 3.0);
            // The last instrumented run's capture came back: every launch (and the 100 warm-up ones) is in it.
            const GatheredRecording g = gather("overhead-20us-kernel");
            EXPECT_EQ(g.summary.eventsByKind[static_cast<int>(EventKind::Kernel)],
                static_cast<std::uint64_t>(launches) + 100);
            EXPECT_EQ(g.summary.droppedRecords, 0u);
        }
    }
    EXPECT_TRUE(twentyUs) << "no 20us-kernel loop in overhead.json";
}

/// Kernels by name -> their durations (ns): GapScope's those launched inside an NVTX range "step", torch.profiler's
/// every kernel of its trace (it profiled the steps only).
using KernelDurations = std::map<std::string, std::vector<double>>;

KernelDurations kernelsInSteps(const Trace& trace)
{
    std::vector<std::pair<std::int64_t, std::int64_t>> steps;
    for (const Lane& lane : trace.lanes()) {
        for (const Event& e : lane.events) {
            if (e.kind == EventKind::NvtxRange && trace.name(e) == "step")
                steps.emplace_back(e.start, e.end);
        }
    }
    KernelDurations kernels;
    test::forEachGpuEvent(trace, [&](const Lane&, EventRef ref, const Event& e) {
        const auto launch = e.kind == EventKind::Kernel ? trace.launchOf(ref) : std::nullopt;
        if (!launch)
            return;
        const std::int64_t at = trace.event(*launch).start;
        if (std::any_of(steps.begin(), steps.end(), [at](const auto& s) { return at >= s.first && at < s.second; }))
            kernels[std::string(trace.name(e))].push_back(static_cast<double>(e.end - e.start));
    });
    return kernels;
}

KernelDurations everyKernel(const Trace& trace)
{
    KernelDurations kernels;
    test::forEachGpuEvent(trace, [&](const Lane&, EventRef, const Event& e) {
        if (e.kind == EventKind::Kernel)
            kernels[std::string(trace.name(e))].push_back(static_cast<double>(e.end - e.start));
    });
    return kernels;
}

TEST_F(RecordedGpuResultsTest, GapScopesKernelsOfAPyTorchStepAreTorchProfilers)
{
    const GatheredRecording g = gather("torch-gapscope");
    std::filesystem::path kineto = std::filesystem::path(m_dir) / "torch-profiler" / "trace.json.gz";
    if (!std::filesystem::exists(kineto))
        kineto = std::filesystem::path(m_dir) / "torch-profiler" / "trace.json";
    auto profiler = loadTraceFile(kineto.string());
    ASSERT_TRUE(profiler) << profiler.error().toString();
    const KernelDurations ours = kernelsInSteps(g.trace);
    const KernelDurations theirs = everyKernel(profiler.value());
    ASSERT_FALSE(ours.empty()) << "no kernel launched inside an NVTX step range";
    std::map<std::string, std::size_t> ourCounts;
    std::map<std::string, std::size_t> theirCounts;
    for (const auto& [name, durations] : ours)
        ourCounts[name] = durations.size();
    for (const auto& [name, durations] : theirs)
        theirCounts[name] = durations.size();
    EXPECT_EQ(ourCounts, theirCounts);
    double worst = 0;
    for (const auto& [name, durations] : ours) {
        const auto it = theirs.find(name);
        if (it == theirs.end())
            continue;
        const double difference = std::abs(median(durations) - median(it->second));
        worst = std::max(worst, difference);
        EXPECT_LE(difference, 1000.0) << name << ": GapScope's median " << median(durations) << " ns, torch.profiler's "
                                      << median(it->second) << " ns";
    }
    std::printf("PyTorch step: %zu kernel names, %zu kernels in GapScope's steps, %zu in torch.profiler's trace; "
                "largest difference of per-name median durations %.0f ns (separate runs of the same steps)\n",
        ours.size(),
        std::accumulate(ourCounts.begin(), ourCounts.end(), std::size_t { 0 },
            [](std::size_t sum, const auto& c) { return sum + c.second; }),
        std::accumulate(theirCounts.begin(), theirCounts.end(), std::size_t { 0 },
            [](std::size_t sum, const auto& c) { return sum + c.second; }),
        worst);
}

TEST_F(RecordedGpuResultsTest, WithTorchProfilerActiveTheCaptureSaysWhatItLost)
{
    const GatheredRecording g = gather("torch-both"); // exit status 0: no crash
    std::vector<std::string> said;
    for (const RecordedProcess& p : g.summary.processes) {
        said.insert(said.end(), p.collectorErrors.begin(), p.collectorErrors.end());
        said.insert(said.end(), p.collectorNotes.begin(), p.collectorNotes.end());
        EXPECT_TRUE(p.closedCleanly) << p.pid;
    }
    const bool explained = std::any_of(said.begin(), said.end(),
        [](const std::string& s) { return s.find("another CUPTI client") != std::string::npos; });
    EXPECT_TRUE(explained) << "the capture does not say that another CUPTI client took records";
    for (const std::string& s : said)
        std::printf("torch-both: %s\n", s.c_str());
}

} // namespace
} // namespace gapscope::capture
