// SPDX-License-Identifier: MIT
// The viewer's what-if over the counted steps, from graphs built once: the same figures as whatIfWindows() of the
// same windows (what `gapscope whatif` prints), whether the graphs are kept or built again each time.
#include "core/annotations/predicted_change.h"
#include "core/annotations/step_predictor.h"
#include "tests/core/hand_trace.h"
#include "tests/test_paths.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

constexpr std::string_view kNext = "^enumerate\\(DataLoader\\)#_SingleProcessDataLoaderIter\\.__next__$";

WhatIfChanges scaled(double factor)
{
    WhatIfChanges changes;
    changes.scales = { { std::string(kNext), factor } };
    return changes;
}

TEST(StepPredictor, PredictsWhatTheWhatIfOfTheCountedStepsDoesWithOrWithoutItsGraphsKept)
{
    const Trace trace = test::load({ test::kResnet50Trace });
    const StepPredictor kept(trace);
    const StepPredictor rebuilt(trace, 0, 0); // no budget: every prediction builds its graphs again
    EXPECT_TRUE(kept.keepsGraphs());
    EXPECT_FALSE(rebuilt.keepsGraphs());
    // ProfilerStep#5 is warm-up, as diff --note leaves it out: steps 6-10.
    EXPECT_EQ(kept.warmupSteps(), 1);
    ASSERT_EQ(kept.windows().size(), 5u);
    EXPECT_EQ(kept.windows().front().name, "ProfilerStep#6");
    EXPECT_EQ(kept.windows().back().name, "ProfilerStep#10");

    // Several what-ifs from the same graphs: each as the windows' own whatIfWindows() says.
    for (const double factor : { 0.75, 0.5, 0.25, 0.0 }) {
        const WhatIfChanges changes = scaled(factor);
        const auto outcomes = whatIfWindows(trace, kept.windows(), changes);
        ASSERT_TRUE(outcomes);
        const PredictedChange expected = predictedChangeOf(changes, kept.windows(), *outcomes, 1, "t");
        const auto fromKept = kept.predict(trace, changes, "t");
        const auto fromRebuilt = rebuilt.predict(trace, changes, "t");
        ASSERT_TRUE(fromKept);
        ASSERT_TRUE(fromRebuilt);
        EXPECT_EQ(fromKept->predictedP50Ns, expected.predictedP50Ns) << factor;
        EXPECT_EQ(fromRebuilt->predictedP50Ns, expected.predictedP50Ns) << factor;
        EXPECT_EQ(fromKept->measuredP50Ns, 175'153'000) << factor; // ProfilerStep#6, the median of steps 6-10
        EXPECT_EQ(fromKept->windowCount, 5);
        EXPECT_EQ(fromKept->warmupSteps, 1);
    }
    // Half of __next__ gone: 175.2 -> 146.6 ms; all of it: 118.7 ms (docs/critical-path.md).
    EXPECT_EQ(kept.predict(trace, scaled(0.5), "t")->predictedP50Ns / 100'000, 1466);
    EXPECT_EQ(kept.predict(trace, scaled(0.0), "t")->predictedP50Ns / 100'000, 1187);
}

TEST(StepPredictor, ABadRegexIsTheErrorAndATraceWithoutWindowsSaysSo)
{
    const Trace trace = test::load({ test::kResnet50Trace });
    WhatIfChanges bad;
    bad.scales = { { "(", 0.5 } };
    const auto error = StepPredictor(trace).predict(trace, bad, "t");
    ASSERT_FALSE(error);
    EXPECT_NE(error.error().message.find("is not a valid regex"), std::string::npos) << error.error().message;

    test::HandTrace host;
    host.cpuOp(1, 0, 10, "only host work");
    const Trace empty = host.build();
    const StepPredictor none(empty);
    EXPECT_TRUE(none.windows().empty());
    const auto nothing = none.predict(empty, scaled(0.5), "t");
    ASSERT_FALSE(nothing);
    EXPECT_NE(nothing.error().message.find("no window to predict over"), std::string::npos);
}

} // namespace
} // namespace gapscope
