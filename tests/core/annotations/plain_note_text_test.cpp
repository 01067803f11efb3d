// SPDX-License-Identifier: MIT
#include "core/annotations/plain_note_text.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

struct PlainCase {
    const char* name;
    const char* markdown;
    const char* plain;
};

class PlainNoteText : public ::testing::TestWithParam<PlainCase> { };

TEST_P(PlainNoteText, CodeSpanMarksGoTheRestStays)
{
    EXPECT_EQ(plainNoteText(GetParam().markdown), GetParam().plain);
}

INSTANTIATE_TEST_SUITE_P(Cases, PlainNoteText,
    ::testing::Values(PlainCase { "NoCode", "GPU idle 62 ms", "GPU idle 62 ms" },
        PlainCase { "OneSpan", "GPU idle 6.1 ms in `ProfilerStep#9`", "GPU idle 6.1 ms in ProfilerStep#9" },
        PlainCase { "TwoSpans", "`a` waits for `b`", "a waits for b" },
        PlainCase { "DoubleTicksAroundATick", "``x`y`` here", "x`y here" },
        PlainCase { "LoneTickKept", "5` of rain", "5` of rain" }, PlainCase { "Empty", "", "" }),
    [](const ::testing::TestParamInfo<PlainCase>& info) { return std::string(info.param.name); });

} // namespace
} // namespace gapscope
