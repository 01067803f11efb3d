// SPDX-License-Identifier: MIT
// A GPU lane's label: its stream, or for CUPTI's "no stream" (-1, where context-wide synchronizations go) what
// it holds.
#include "core/model/labels.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

TEST(StreamLabel, NoStreamIsTheContextSyncLane)
{
    Lane lane;
    lane.kind = LaneKind::GpuStream;
    lane.stream = 7;
    EXPECT_EQ(streamLabel(lane), "stream 7");
    lane.stream = 0;
    EXPECT_EQ(streamLabel(lane), "stream 0");
    lane.stream = -1;
    EXPECT_EQ(streamLabel(lane), "context sync (no stream)");
}

} // namespace
} // namespace gapscope
