// SPDX-License-Identifier: MIT
#include "core/analysis/lane_summaries.h"
#include "core/model/call_names.h"
#include "core/model/trace_builder.h"
#include "tests/make_event.h"

#include <gtest/gtest.h>

#include <vector>

namespace gapscope {
namespace {

using test::makeEvent;

TEST(NameClasses, ClassifyNamesGivesEachStringIdItsClassesOnce)
{
    StringTable strings;
    const StringId sync = strings.intern("cudaStreamSynchronize");
    const StringId syncV2 = strings.intern("cuMemcpyDtoH_v2");
    const StringId async = strings.intern("cudaMemcpyAsync");
    const StringId step = strings.intern("ProfilerStep#12");
    const StringId nccl = strings.intern("ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    const StringId upper = strings.intern("void RCCL_reduce<float>");
    const StringId gemm = strings.intern("volta_sgemm_128x64_nn");
    const std::vector<std::uint8_t> classes = classifyNames(strings);
    ASSERT_EQ(classes.size(), strings.size());
    EXPECT_EQ(classes[0], 0); // the empty name
    EXPECT_EQ(classes[sync.value], kSyncCallName);
    EXPECT_EQ(classes[syncV2.value], kSyncCallName);
    EXPECT_EQ(classes[async.value], 0);
    EXPECT_EQ(classes[step.value], kProfilerStepName);
    EXPECT_EQ(classes[nccl.value], kCommunicationName);
    EXPECT_EQ(classes[upper.value], kCommunicationName);
    EXPECT_EQ(classes[gemm.value], 0);
    EXPECT_EQ(classifyNames(StringTable {}).size(), 1u);
}

TEST(LaneSummaries, SumUpWhatEachLaneHoldsInOnePass)
{
    TraceBuilder builder;
    const ProcessIndex p = builder.addProcess({ .pid = 10 });
    const DeviceIndex device = builder.device(p, 0);
    const LaneIndex compute = builder.streamLane(device, 7);
    const LaneIndex nccl = builder.streamLane(device, 8);
    const LaneIndex copies = builder.streamLane(device, 9);
    const LaneIndex empty = builder.streamLane(device, 10);
    const LaneIndex host = builder.threadLane(p, 1234);
    builder.lanes()[compute.value].events = { makeEvent(builder, EventKind::Kernel, "volta_sgemm_128x64_nn", 0, 10),
        makeEvent(builder, EventKind::Kernel, "void elementwise<float>", 20, 20) };
    builder.lanes()[nccl.value].events = { makeEvent(builder, EventKind::Kernel, "gemm", 0, 10),
        makeEvent(builder, EventKind::Kernel, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 10, 50) };
    builder.lanes()[copies.value].events = { makeEvent(builder, EventKind::Kernel, "gemm", 0, 10),
        makeEvent(builder, EventKind::Memcpy, "Memcpy HtoD (Pinned -> Device)", 30, 40) };
    // Added out of order: the summary's indices are those of the sorted lane.
    builder.lanes()[host.value].events = { makeEvent(builder, EventKind::RuntimeApi, "cudaDeviceSynchronize", 300, 400),
        makeEvent(builder, EventKind::CpuOp, "ProfilerStep#3", 0, 500),
        makeEvent(builder, EventKind::RuntimeApi, "cudaLaunchKernel", 10, 20, 1),
        // A CPU op named like a synchronizing call is no call.
        makeEvent(builder, EventKind::CpuOp, "cudaStreamSynchronize", 30, 40),
        makeEvent(builder, EventKind::RuntimeApi, "cudaStreamSynchronize", 50, 60),
        makeEvent(builder, EventKind::NvtxRange, "forward", 100, 200),
        makeEvent(builder, EventKind::UserAnnotation, "backward", 200, 290) };
    Trace trace = std::move(builder).finish();

    const LaneSummaries summaries(trace);
    ASSERT_EQ(summaries.size(), trace.lanes().size());
    EXPECT_EQ(summaries[compute].eventKinds, 1u << static_cast<int>(EventKind::Kernel));
    EXPECT_FALSE(summaries[compute].communicationKernels);
    EXPECT_TRUE(summaries[compute].holdsOnlyComputeKernels());
    EXPECT_TRUE(summaries[nccl].communicationKernels);
    EXPECT_FALSE(summaries[nccl].holdsOnlyComputeKernels());
    EXPECT_EQ(summaries[copies].eventKinds,
        1u << static_cast<int>(EventKind::Kernel) | 1u << static_cast<int>(EventKind::Memcpy));
    EXPECT_FALSE(summaries[copies].holdsOnlyComputeKernels());
    EXPECT_EQ(summaries[empty].eventKinds, 0u);
    EXPECT_FALSE(summaries[empty].holdsOnlyComputeKernels());
    EXPECT_TRUE(summaries[compute].syncCalls.empty());
    EXPECT_TRUE(summaries[compute].stepCandidates.empty());

    // Sorted host lane: ProfilerStep#3 [0,500), launch [10,20), CPU op [30,40), sync [50,60), forward [100,200),
    // backward [200,290), cudaDeviceSynchronize [300,400).
    const Lane& lane = trace.lanes()[host.value];
    ASSERT_EQ(trace.name(lane.events[3]), "cudaStreamSynchronize");
    ASSERT_EQ(lane.events[3].kind, EventKind::RuntimeApi);
    EXPECT_EQ(summaries[host].syncCalls, (std::vector<std::uint32_t> { 3, 6 }));
    EXPECT_EQ(summaries[host].stepCandidates, (std::vector<std::uint32_t> { 0, 4, 5 }));
    EXPECT_FALSE(summaries[host].communicationKernels);
    EXPECT_EQ(summaries[host].eventKinds,
        1u << static_cast<int>(EventKind::RuntimeApi) | 1u << static_cast<int>(EventKind::CpuOp)
            | 1u << static_cast<int>(EventKind::NvtxRange) | 1u << static_cast<int>(EventKind::UserAnnotation));
}

} // namespace
} // namespace gapscope
