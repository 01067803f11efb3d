// SPDX-License-Identifier: MIT
#pragma once

// The one hand-built trace that holds every EventKind, for the writers' and loaders' tests
// (chrome_trace_writer_test.cpp, trace_file_test.cpp).

#include "core/model/trace_builder.h"
#include "tests/make_event.h"

namespace gapscope::test {

/// One process (pid 4242, rank 3) with one thread and one GPU (id 1, streams 7 and 20), every kind once
/// or more, three launches linked to GPU ops (correlations 77, 78, 79) and one without (80); every time is
/// `origin` plus the ns written here (an origin such as 1712195495519695753, a 2024 epoch time, gives times
/// whose ns digits a double cannot hold). The lanes come in the order the Chrome reader creates them (host lanes,
/// then streams by id), so that writing the trace read back gives the same bytes.
inline Trace buildEveryKindTrace(TimeNs origin = 0)
{
    TraceBuilder trace;
    Process process;
    process.pid = 4242;
    process.name = "train.py";
    process.rank = 3;
    const ProcessIndex p = trace.addProcess(process);
    const LaneIndex thread = trace.threadLane(p, 4243);
    trace.lanes()[thread.value].name = "thread 4243 (python)";
    const DeviceIndex gpu = trace.device(p, 1);
    trace.devices()[gpu.value].name = "NVIDIA H100";
    const LaneIndex stream7 = trace.streamLane(gpu, 7);
    trace.lanes()[stream7.value].name = "stream 7";
    const LaneIndex stream20 = trace.streamLane(gpu, 20);

    auto add = [&](LaneIndex lane, Event e) {
        e.start += origin;
        e.end += origin;
        trace.lanes()[lane.value].events.push_back(e);
    };
    add(thread, makeEvent(trace, EventKind::NvtxRange, "forward", 900000, 2000000));
    add(thread, makeEvent(trace, EventKind::UserAnnotation, "ProfilerStep#3", 900500, 1999000));
    add(thread, makeEvent(trace, EventKind::PythonFunction, "train.py(12): step", 950000, 1900000));
    add(thread, makeEvent(trace, EventKind::CpuOp, "aten::mm", 1000000, 1500000, 0, R"({"External id": 5})"));
    add(thread,
        makeEvent(trace, EventKind::RuntimeApi, "cudaLaunchKernel", 1100000, 1105250, 77,
            R"({"cbid": 211, "correlation": 77})"));
    add(thread, makeEvent(trace, EventKind::DriverApi, "cuLaunchKernel", 1200000, 1201000, 78));
    add(thread, makeEvent(trace, EventKind::RuntimeApi, "cudaMemcpyAsync", 1300000, 1300500, 79));
    add(thread, makeEvent(trace, EventKind::NvtxMark, "checkpoint", 1400000, 1400000));
    add(thread, makeEvent(trace, EventKind::Overhead, "CUPTI overhead", 1600000, 1600100));
    add(thread, makeEvent(trace, EventKind::Other, "misc", 1700000, 1700001));
    add(thread, makeEvent(trace, EventKind::Other, "[memory]", 1750000, 1750000, 0, R"({"Bytes": 4})"));
    add(thread, makeEvent(trace, EventKind::RuntimeApi, "cudaGetDevice", 1800000, 1800010, 80));

    add(stream7,
        makeEvent(trace, EventKind::Kernel, "gemm_kernel", 1234567, 1300000, 77,
            R"({"grid": [1, 2, 3], "correlation": 77, "device": 1})"));
    Event copy = makeEvent(trace, EventKind::Memcpy, "Memcpy HtoD (Pageable -> Device)", 1300600, 1310000, 79);
    copy.bytes = 4096;
    copy.copyKind = CopyKind::HtoD;
    add(stream7, copy);
    add(stream7, makeEvent(trace, EventKind::Sync, "Stream Sync", 1310000, 1320000));
    Event set = makeEvent(trace, EventKind::Memset, "Memset (Device)", 1250000, 1250500, 78);
    set.bytes = 128;
    add(stream20, set);
    add(stream20, makeEvent(trace, EventKind::GpuUserAnnotation, "Optimizer.step", 1200000, 1400000));
    return std::move(trace).finish();
}

} // namespace gapscope::test
