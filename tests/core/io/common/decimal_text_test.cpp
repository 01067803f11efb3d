// SPDX-License-Identifier: MIT
// writeDecimal must give std::to_chars's text for every integer: each of the 20 lengths at its edges, both ends of
// both types, and a spread of values of every magnitude.
#include "core/io/common/decimal_text.h"

#include <gtest/gtest.h>

#include <charconv>
#include <limits>
#include <string>

namespace gapscope {
namespace {

template <typename Integer> std::string ours(Integer v)
{
    char text[24];
    return { text, writeDecimal(text, v) };
}

template <typename Integer> std::string standard(Integer v)
{
    char text[24];
    return { text, std::to_chars(text, text + sizeof text, v).ptr };
}

TEST(DecimalText, HandWorkedValues)
{
    EXPECT_EQ(ours(std::uint64_t { 0 }), "0");
    EXPECT_EQ(ours(std::uint64_t { 7 }), "7");
    EXPECT_EQ(ours(std::uint64_t { 100000000 }), "100000000");
    EXPECT_EQ(ours(std::int64_t { 1733318400123456789 }), "1733318400123456789");
    EXPECT_EQ(ours(std::int64_t { -1500 }), "-1500");
    EXPECT_EQ(ours(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
    EXPECT_EQ(ours(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
    EXPECT_EQ(ours(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
}

TEST(DecimalText, EveryLengthAtItsEdgesIsWrittenAsToCharsWritesIt)
{
    std::uint64_t power = 1;
    for (int digits = 1; digits <= 20; ++digits) {
        for (const std::uint64_t v : { power - 1, power, power + 1, power * 5 + 3 }) {
            ASSERT_EQ(ours(v), standard(v)) << v;
            const auto s = static_cast<std::int64_t>(v);
            ASSERT_EQ(ours(s), standard(s)) << s;
            if (s != std::numeric_limits<std::int64_t>::min())
                ASSERT_EQ(ours(-s), standard(-s)) << -s;
        }
        if (digits < 20)
            power *= 10;
    }
}

TEST(DecimalText, ASpreadOfValuesOfEveryMagnitudeIsWrittenAsToCharsWritesIt)
{
    std::uint64_t state = 42;
    for (int i = 0; i < 200000; ++i) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const std::uint64_t v = state >> (state % 64); // every length, not only 20-digit values
        ASSERT_EQ(ours(v), standard(v)) << v;
        const auto s = static_cast<std::int64_t>(v);
        ASSERT_EQ(ours(s), standard(s)) << s;
    }
}

} // namespace
} // namespace gapscope
