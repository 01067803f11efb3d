// SPDX-License-Identifier: MIT
// BM_PaintJobOverview: one frame of the Job overview of 1,024 generated ranks (1,000 collectives each) on a
// 1920-wide offscreen image at full zoom-out, 10 %, 1 % and 0.1 % of the span. Each frame pans 3 px and paints
// the other of two heatmaps (their images made beforehand, as the viewer makes them off the GUI thread).
// Target: p99 <= 16 ms. With a second argument of 1, the image is made from the bins inside the frame (the
// painter's fallback). BM_JobHeatmap: the heatmap and its image at a zoom, from the summaries' bins (what runs
// off the GUI thread at each zoom).
#include "app/job/job_data.h"
#include "app/job/job_overview_painter.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <memory>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

constexpr int kRanks = 1024;
constexpr std::size_t kCollectives = 1000;
constexpr int kWidth = 1920;
constexpr int kLabelWidth = 240;

std::uint64_t nextRandom(std::uint64_t& state)
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 0x2545F4914F6CDD1Dull;
}

// One rank: one GPU over [0, 10 s), 256 bins of random busy time, `kCollectives` all-reduces every 10 ms whose
// arrivals are jittered by up to 2 ms and which end together.
RankSummary generatedRank(int rank)
{
    std::uint64_t random = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(rank + 1);
    RankSummary s;
    s.source = "rank" + std::to_string(rank) + ".json";
    s.rank = rank;
    s.worldSize = kRanks;
    DeviceSummary d;
    d.windowStart = 0;
    d.windowEnd = 10'000'000'000;
    d.spanNs = d.windowEnd;
    d.binStart = 0;
    d.binWidthNs = d.windowEnd / 256;
    for (int b = 0; b < 256; ++b) {
        const TimeNs busy = static_cast<TimeNs>(nextRandom(random) % static_cast<std::uint64_t>(d.binWidthNs));
        d.busyPerBin.push_back(busy);
        d.busyNs += busy;
    }
    d.idleNs = d.spanNs - d.busyNs;
    s.devices.push_back(d);
    const SharedName kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)");
    for (std::size_t c = 0; c < kCollectives; ++c) {
        CollectiveOccurrence o;
        o.kernel = kernel;
        o.start = static_cast<TimeNs>(c) * 10'000'000 + static_cast<TimeNs>(nextRandom(random) % 2'000'000);
        o.end = static_cast<TimeNs>(c) * 10'000'000 + 3'000'000;
        s.collectives.push_back(o);
    }
    return s;
}

struct Fixture {
    std::shared_ptr<const JobData> job;
};

const Fixture& fixture()
{
    static const Fixture f = [] {
        static int argc = 1;
        static char name[] = "gapscope_bench";
        static char* argv[] = { name, nullptr };
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        if (!QGuiApplication::instance())
            new QGuiApplication(argc, argv); // fonts for the labels; lives as long as the process
        std::vector<RankSummary> ranks;
        for (int r = 0; r < kRanks; ++r)
            ranks.push_back(generatedRank(r));
        Fixture fx;
        fx.job = buildJobFromSummaries(std::move(ranks), {});
        return fx;
    }();
    return f;
}

double fractionOf(std::int64_t level)
{
    static const double fractions[] = { 1.0, 0.1, 0.01, 0.001 };
    return fractions[level];
}

// CPU time of this thread: the frame's cost without the other processes of a loaded machine.
double threadCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double percentile(std::vector<double> values, double q)
{
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, static_cast<std::size_t>(q * static_cast<double>(values.size())))];
}

void BM_PaintJobOverview(benchmark::State& state)
{
    const Fixture& f = fixture();
    const double fraction = fractionOf(state.range(0));
    const auto [spanStart, spanEnd] = *f.job->timeSpan();
    const auto span = static_cast<TimeNs>(static_cast<double>(spanEnd - spanStart) * fraction);
    const TimeNs start = spanStart + (spanEnd - spanStart - span) / 2;
    const double axisWidth = kWidth - kLabelWidth;
    const TimeNs shift = static_cast<TimeNs>(3.0 * static_cast<double>(span) / axisWidth);
    // Two heatmaps, 3 px apart, painted in turn: every frame is one the painter has not drawn before.
    std::vector<std::unique_ptr<JobHeatmap>> maps;
    const bool imageInFrame = state.range(1) != 0;
    for (int i = 0; i < 2; ++i) {
        maps.push_back(std::make_unique<JobHeatmap>(
            computeJobHeatmap(*f.job, start + i * shift, start + i * shift + span, static_cast<int>(axisWidth))));
        if (!imageInFrame)
            maps.back()->image = JobOverviewPainter::makeImage(*maps.back());
    }
    const int height = JobOverviewPainter::preferredHeight(f.job->rankCount());
    QImage image(kWidth, height, QImage::Format_ARGB32_Premultiplied);
    JobOverviewScene scene;
    scene.job = f.job.get();
    scene.rect = QRect(0, 0, kWidth, height);
    scene.timeLeft = kLabelWidth;
    scene.selectedCollective = f.job->analysis.collectives.size() / 2;
    JobOverviewPainter painter;
    std::vector<double> frameMs;
    std::vector<double> frameCpuMs;
    int frame = 0;
    for (auto _ : state) {
        const int which = frame++ % 2;
        // A fresh copy each frame: the painter rebuilds its image from the bins, as after a new heatmap comes.
        JobHeatmap& map = *maps[static_cast<std::size_t>(which)];
        // A new id each frame: without an image made beforehand, the painter makes one in this frame.
        map.id = newHeatmapId();
        scene.heatmap = &map;
        scene.axis = TimeAxis { start + which * shift, start + which * shift + span, axisWidth };
        const double cpuBegin = threadCpuMs();
        const auto begin = std::chrono::steady_clock::now();
        QPainter p(&image);
        painter.paint(p, scene);
        p.end();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        frameMs.push_back(ms);
        frameCpuMs.push_back(threadCpuMs() - cpuBegin);
        state.SetIterationTime(ms / 1000.0);
    }
    state.counters["p50_ms"] = percentile(frameMs, 0.50);
    state.counters["p99_ms"] = percentile(frameMs, 0.99);
    state.counters["p50_cpu_ms"] = percentile(frameCpuMs, 0.50);
    state.counters["p99_cpu_ms"] = percentile(frameCpuMs, 0.99);
    state.counters["ranks"] = static_cast<double>(f.job->rankCount());
    state.counters["collectives"] = static_cast<double>(f.job->analysis.collectives.size());
    state.SetLabel(std::to_string(fraction * 100.0).substr(0, 5) + "% of span"
        + (imageInFrame ? ", image made in the frame" : ""));
}
BENCHMARK(BM_PaintJobOverview)
    ->Args({ 0, 0 })
    ->Args({ 1, 0 })
    ->Args({ 2, 0 })
    ->Args({ 3, 0 })
    ->Args({ 0, 1 })
    ->Args({ 3, 1 })
    ->Iterations(200)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void BM_JobHeatmap(benchmark::State& state)
{
    const Fixture& f = fixture();
    const auto [spanStart, spanEnd] = *f.job->timeSpan();
    const auto span = static_cast<TimeNs>(static_cast<double>(spanEnd - spanStart) * fractionOf(state.range(0)));
    for (auto _ : state) {
        JobHeatmap map = computeJobHeatmap(*f.job, spanStart, spanStart + span, kWidth - kLabelWidth);
        map.image = JobOverviewPainter::makeImage(map);
        benchmark::DoNotOptimize(map.image.constBits());
    }
    state.counters["ranks"] = static_cast<double>(f.job->rankCount());
}
BENCHMARK(BM_JobHeatmap)->Arg(0)->Arg(2)->Unit(benchmark::kMillisecond);

} // namespace
