// SPDX-License-Identifier: MIT
// BM_PaintTimeline: one frame of the timeline (draw lists rebuilt, as when zooming or panning) on a
// generated 10 M-event trace (8 streams, 8 threads), 1920x1080 offscreen, at full zoom-out, 1 % and
// 0.01 % of the span. Reports the p99 frame time (target: 16 ms at every level). BM_PaintMemoryLane: the same
// frame over a device whose memory lane holds 1 M points of allocated and 1 M of reserved memory. BM_GapModelRebuild:
// the Gaps dock's listing of 1 M gaps on the GUI thread.
#include "app/models/gap_model.h"
#include "app/timeline/geometry/draw_list.h"
#include "app/timeline/timeline_data.h"
#include "app/timeline/timeline_painter.h"
#include "core/model/trace_builder.h"
#include "timeline/timeline_test_traces.h"

#include <QGuiApplication>
#include <QImage>
#include <QPainter>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>

using namespace gapscope;
using namespace gapscope::timeline;

namespace {

// CPU time of this thread: frame cost without the noise of other processes on a loaded machine.
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

struct FrameTimes {
    std::vector<double> wallMs;
    std::vector<double> cpuMs;
};

/// One frame per iteration into a 1920x1080 image, each at a new range (a 3 px pan back and forth around
/// [start, start + span)), so that every frame rebuilds its draw lists. `scene` has its model set.
FrameTimes paintFrames(benchmark::State& state, TimelineScene& scene, TimeNs start, TimeNs span, DrawListCache& cache)
{
    QImage image(1920, 1080, QImage::Format_ARGB32_Premultiplied);
    scene.width = image.width();
    scene.height = image.height();
    const double axisWidth = scene.width - scene.labelWidth;
    TimelinePainter painter;
    FrameTimes times;
    int frame = 0;
    for (auto _ : state) {
        const TimeNs shift = (frame++ % 2) * static_cast<TimeNs>(3.0 * static_cast<double>(span) / axisWidth);
        scene.axis = TimeAxis { start + shift, start + shift + span, axisWidth };
        const double cpuBegin = threadCpuMs();
        const auto begin = std::chrono::steady_clock::now();
        cache.setAxis(scene.axis);
        QPainter p(&image);
        painter.paint(p, scene, cache);
        p.end();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
        times.wallMs.push_back(ms);
        times.cpuMs.push_back(threadCpuMs() - cpuBegin);
        state.SetIterationTime(ms / 1000.0);
    }
    return times;
}

/// The trace's start, and `fraction` of its span around its middle: [start, start + span).
struct CentredRange {
    TimeNs traceStart;
    TimeNs start;
    TimeNs span;
};
CentredRange centredRange(const Trace& trace, double fraction)
{
    const auto [traceStart, traceEnd] = *trace.timeSpan();
    const auto span = static_cast<TimeNs>(static_cast<double>(traceEnd - traceStart) * fraction);
    return { traceStart, traceStart + (traceEnd - traceStart - span) / 2, span };
}

template <typename Fixture> TimelineScene sceneOf(const Fixture& f)
{
    TimelineScene scene;
    scene.trace = f.trace.get();
    scene.index = f.index.get();
    scene.layout = &f.layout;
    return scene;
}

LaneLayout layoutOf(const Trace& trace, const TimelineIndex& index)
{
    std::vector<int> depths(trace.lanes().size());
    for (std::uint32_t l = 0; l < depths.size(); ++l)
        depths[l] = index.depthCount(LaneIndex { l });
    return LaneLayout::build(trace, depths, {});
}

struct Fixture {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineIndex> index;
    AnalysisSnapshot analysis;
    LaneLayout layout;
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
            new QGuiApplication(argc, argv); // fonts for the labels (job_overview_bench.cpp may have made it)
        Fixture fx;
        // 8 streams and 8 threads of 625,000 events each: 10 M events.
        fx.trace = std::make_shared<const Trace>(test::makeGeneratedTrace(8, 8, 625'000, 42));
        fx.index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*fx.trace));
        AnalysisOptions options;
        options.streamGaps = false;
        fx.analysis = makeAnalysisSnapshot(*fx.trace, analyze(*fx.trace, options));
        fx.layout = layoutOf(*fx.trace, *fx.index);
        return fx;
    }();
    return f;
}

void BM_PaintTimeline(benchmark::State& state)
{
    const Fixture& f = fixture();
    const double fraction = state.range(0) == 0 ? 1.0 : (state.range(0) == 1 ? 0.01 : 0.0001);
    const auto [traceStart, start, span] = centredRange(*f.trace, fraction);

    TimelineScene scene = sceneOf(f);
    scene.analysis = f.analysis.result.get();
    scene.gaps = f.analysis.gaps.get();
    scene.origin = traceStart;
    scene.gapThreshold = 10'000;
    DrawListCache cache;
    const FrameTimes times = paintFrames(state, scene, start, span, cache);
    const std::vector<double>& frameMs = times.wallMs;
    const std::vector<double>& frameCpuMs = times.cpuMs;
    std::size_t items = 0;
    for (std::uint32_t l = 0; l < f.trace->lanes().size(); ++l)
        items += cache.lane(*f.trace, *f.index, LaneIndex { l }).items.size();
    state.counters["p50_ms"] = percentile(frameMs, 0.50);
    state.counters["p99_ms"] = percentile(frameMs, 0.99);
    state.counters["max_ms"] = percentile(frameMs, 1.0);
    state.counters["p99_cpu_ms"] = percentile(frameCpuMs, 0.99);
    state.counters["items"] = static_cast<double>(items);
    state.counters["events"] = static_cast<double>(f.trace->eventCount());
    state.SetLabel(fraction == 1.0 ? "full zoom-out" : (fraction == 0.01 ? "1% of span" : "0.01% of span"));
}

BENCHMARK(BM_PaintTimeline)->Arg(0)->Arg(1)->Arg(2)->Iterations(200)->UseManualTime()->Unit(benchmark::kMillisecond);

// A device of one stream (100,000 kernels) and its memory: `memory allocated` and `memory reserved`, 1 M points each
// (a caching allocator's every allocation and free over the capture), laid out as the viewer lays them out.
struct MemoryFixture {
    std::shared_ptr<const Trace> trace;
    std::shared_ptr<const TimelineIndex> index;
    LaneLayout layout;
};

const MemoryFixture& memoryFixture()
{
    static const MemoryFixture f = [] {
        fixture(); // the QGuiApplication
        constexpr std::size_t kPoints = 1'000'000;
        Trace generated = test::makeGeneratedTrace(1, 0, 100'000, 11);
        const auto [start, end] = *generated.timeSpan();
        TraceBuilder builder(std::move(generated));
        const DeviceIndex device { 0 };
        const ProcessIndex process = builder.devices()[0].process;
        CounterTracks& counters = builder.counters();
        const std::size_t allocated = counters.track(kMemoryAllocatedTrack, process, device);
        const std::size_t reserved = counters.track(kMemoryReservedTrack, process, device);
        counters.tracks()[allocated].unit = counters.tracks()[reserved].unit = "bytes";
        double bytes = 1e9;
        for (std::size_t i = 0; i < kPoints; ++i) {
            const TimeNs t
                = start + static_cast<TimeNs>(static_cast<double>(end - start) * static_cast<double>(i) / kPoints);
            bytes += (i * 7919 % 13 < 7 ? 1.0 : -1.0) * static_cast<double>(i % 97) * 4096.0;
            counters.tracks()[allocated].points.push_back(CounterPoint { t, bytes });
            counters.tracks()[reserved].points.push_back(CounterPoint { t, bytes * 1.25 });
        }
        MemoryFixture fx;
        fx.trace = std::make_shared<const Trace>(std::move(builder).finish());
        fx.index = std::make_shared<const TimelineIndex>(TimelineIndex::build(*fx.trace));
        fx.layout = layoutOf(*fx.trace, *fx.index);
        return fx;
    }();
    return f;
}

// NOLINTNEXTLINE(readability-identifier-naming): Google Benchmark names benchmarks BM_
void BM_PaintMemoryLane(benchmark::State& state)
{
    const MemoryFixture& f = memoryFixture();
    const double fraction = state.range(0) == 0 ? 1.0 : 0.01;
    const auto [traceStart, start, span] = centredRange(*f.trace, fraction);
    TimelineScene scene = sceneOf(f);
    scene.origin = traceStart;
    DrawListCache cache;
    const FrameTimes times = paintFrames(state, scene, start, span, cache);
    const std::vector<double>& frameMs = times.wallMs;
    const std::vector<double>& frameCpuMs = times.cpuMs;
    const int axisWidth = static_cast<int>(scene.axis.width);
    std::size_t visited = 0;
    for (std::uint32_t t = 0; t < f.trace->counters().tracks().size(); ++t)
        visited += cache.counter(*f.trace, *f.index, t, axisWidth).visited;
    if (visited == 0)
        state.SkipWithError("the memory lane was not painted");
    state.counters["p50_ms"] = percentile(frameMs, 0.50);
    state.counters["p99_ms"] = percentile(frameMs, 0.99);
    state.counters["p99_cpu_ms"] = percentile(frameCpuMs, 0.99);
    state.counters["points_in_view"] = static_cast<double>(visited);
    state.SetLabel(fraction == 1.0 ? "full zoom-out" : "1% of span");
}

BENCHMARK(BM_PaintMemoryLane)->Arg(0)->Arg(1)->Iterations(100)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace

namespace {

// BM_GapModelRebuild: what the Gaps dock does on the GUI thread when an analysis arrives or the threshold
// changes: list the device gaps at least as long as the threshold (here 0: all of them), longest first.
// One stream of 1.1 M generated kernels: about 1 M device gaps.
void BM_GapModelRebuild(benchmark::State& state)
{
    static const auto data = [] {
        fixture(); // the QGuiApplication
        auto trace = std::make_shared<const Trace>(test::makeGeneratedTrace(1, 0, 1'100'000, 7));
        AnalysisOptions options;
        options.streamGaps = false;
        return std::make_pair(trace, makeAnalysisSnapshot(*trace, analyze(*trace, options)));
    }();
    for (auto _ : state) {
        models::GapModel model; // threshold 0: every device gap is listed
        model.setData(data.first, data.second);
        benchmark::DoNotOptimize(model.rowCount());
    }
    models::GapModel model;
    model.setData(data.first, data.second);
    state.counters["gaps"] = static_cast<double>(model.rowCount());
}

} // namespace

BENCHMARK(BM_GapModelRebuild)->Unit(benchmark::kMillisecond)->Iterations(5);
