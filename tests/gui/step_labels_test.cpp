// SPDX-License-Identifier: MIT
// The step strip of a job: the ranks' steps overlap, and a label is drawn only where it does not run into the one
// before ("ProfilerSt|ProfilerStep#10|Pro..." was three labels over each other).
#include "app/timeline/step_labels.h"

#include <gtest/gtest.h>

using gapscope::timeline::placeStepLabels;
using gapscope::timeline::StepColumn;

namespace {

struct LabelCase {
    const char* name;
    std::vector<StepColumn> columns;
    std::vector<std::optional<int>> labels;
};

class StepLabels : public ::testing::TestWithParam<LabelCase> { };

TEST_P(StepLabels, NoLabelRunsIntoTheOneBefore)
{
    EXPECT_EQ(placeStepLabels(GetParam().columns, 36), GetParam().labels);
}

INSTANTIATE_TEST_SUITE_P(Cases, StepLabels,
    ::testing::Values(
        // One run: every wide step is labelled, cut to its column less 5 px.
        LabelCase { "SideBySide", { { 0, 200, 90 }, { 200, 400, 90 }, { 400, 430, 90 } }, { 90, 90, std::nullopt } },
        LabelCase { "CutToTheColumn", { { 0, 60, 90 } }, { 55 } },
        // Eight ranks' ProfilerStep#10, 5 px apart: the first is labelled, the next whose start is past its label.
        LabelCase { "OverlappingRanks",
            { { 0, 300, 90 }, { 5, 305, 90 }, { 10, 310, 90 }, { 96, 400, 90 }, { 101, 405, 90 } },
            { 90, std::nullopt, std::nullopt, std::nullopt, 90 } },
        LabelCase { "NarrowNeverLabelled", { { 0, 36, 10 }, { 36, 80, 10 } }, { std::nullopt, 10 } }),
    [](const ::testing::TestParamInfo<LabelCase>& info) { return std::string(info.param.name); });

} // namespace
