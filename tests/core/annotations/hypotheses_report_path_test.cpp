// SPDX-License-Identifier: MIT
// The default file of File › Export Hypotheses…: next to the trace, named after it without its trace suffixes.
#include "core/annotations/markdown_report.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

TEST(HypothesesReportPath, NextToTheTraceWithoutItsTraceSuffixes)
{
    EXPECT_EQ(defaultHypothesesReportPath("/runs/a/worker0.1623143089861.pt.trace.json.gz"),
        "/runs/a/worker0.1623143089861-hypotheses.md");
    EXPECT_EQ(defaultHypothesesReportPath("/runs/b/gapscope-20240305-070809.gapscope"),
        "/runs/b/gapscope-20240305-070809-hypotheses.md");
    EXPECT_EQ(defaultHypothesesReportPath("/runs/c/profile.sqlite"), "/runs/c/profile-hypotheses.md");
    EXPECT_EQ(defaultHypothesesReportPath("/runs/d/trace.json"), "/runs/d/trace-hypotheses.md");
}

} // namespace
} // namespace gapscope
