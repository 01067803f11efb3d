// SPDX-License-Identifier: MIT
#include "timeline/timeline_test_traces.h"
#include "tests/make_event.h"

#include <random>

namespace gapscope::test {

Trace makeSmallTrace()
{
    TraceBuilder trace;
    Process process;
    process.pid = 100;
    process.name = "python";
    process.rank = 0;
    const ProcessIndex p = trace.addProcess(process);
    const LaneIndex thread = trace.threadLane(p, 1);
    const DeviceIndex device = trace.device(p, 0);
    const LaneIndex stream = trace.streamLane(device, 7);
    auto& cpu = trace.lanes()[thread.value].events;
    cpu.push_back(makeEvent(trace, EventKind::UserAnnotation, "step", 1000, 9000));
    cpu.push_back(makeEvent(trace, EventKind::RuntimeApi, "cudaLaunchKernel", 1000, 1100, 1));
    cpu.push_back(makeEvent(trace, EventKind::RuntimeApi, "cudaLaunchKernel", 5000, 5100, 2));
    cpu.push_back(makeEvent(trace, EventKind::RuntimeApi, "cudaStreamSynchronize", 6000, 8000));
    auto& gpu = trace.lanes()[stream.value].events;
    gpu.push_back(makeEvent(trace, EventKind::Kernel, "k1", 2000, 3000, 1));
    gpu.push_back(makeEvent(trace, EventKind::Kernel, "k2", 7000, 7500, 2));
    return std::move(trace).finish();
}

Trace makeGeneratedTrace(int streams, int threads, std::size_t eventsPerLane, unsigned seed)
{
    TraceBuilder trace;
    Process process;
    process.pid = 1;
    process.name = "generated";
    const ProcessIndex p = trace.addProcess(process);
    const DeviceIndex device = trace.device(p, 0);
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<TimeNs> kernelLength(2'000, 40'000);
    std::uniform_int_distribution<TimeNs> gapLength(0, 30'000);
    std::uniform_int_distribution<int> kernelName(0, 15);
    std::vector<StringId> kernelNames;
    for (int k = 0; k < 16; ++k)
        kernelNames.push_back(trace.strings().intern("kernel_" + std::to_string(k)));
    const StringId launch = trace.strings().intern("cudaLaunchKernel");
    const StringId range = trace.strings().intern("forward");
    for (int s = 0; s < streams; ++s) {
        auto& events = trace.lanes()[trace.streamLane(device, 7 + s).value].events;
        events.reserve(eventsPerLane);
        TimeNs t = 1'000'000'000'000'000'000 + gapLength(random);
        for (std::size_t i = 0; i < eventsPerLane; ++i) {
            Event e;
            e.kind = EventKind::Kernel;
            e.name = kernelNames[static_cast<std::size_t>(kernelName(random))];
            e.start = t;
            e.end = t + kernelLength(random);
            events.push_back(e);
            t = e.end + gapLength(random);
        }
    }
    for (int th = 0; th < threads; ++th) {
        auto& events = trace.lanes()[trace.threadLane(p, 1000 + th).value].events;
        events.reserve(eventsPerLane);
        TimeNs t = 1'000'000'000'000'000'000 + gapLength(random);
        // Ranges of 9 events: one outer range holding 8 API calls.
        for (std::size_t i = 0; i + 9 <= eventsPerLane; i += 9) {
            Event outer;
            outer.kind = EventKind::CpuOp;
            outer.name = range;
            outer.start = t;
            TimeNs inner = t + 1'000;
            std::vector<Event> calls;
            for (int c = 0; c < 8; ++c) {
                Event call;
                call.kind = EventKind::RuntimeApi;
                call.name = launch;
                call.start = inner;
                call.end = inner + kernelLength(random) / 2;
                calls.push_back(call);
                inner = call.end + gapLength(random);
            }
            outer.end = inner + 1'000;
            events.push_back(outer);
            events.insert(events.end(), calls.begin(), calls.end());
            // Ranges of ~270 us every ~330 us: the threads span about as long as the streams.
            t = outer.end + 4 * gapLength(random);
        }
    }
    return std::move(trace).finish();
}

} // namespace gapscope::test
