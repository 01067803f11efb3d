// SPDX-License-Identifier: MIT
#include "core/analysis/interval_set.h"

#include <gtest/gtest.h>

namespace gapscope {
namespace {

using Intervals = std::vector<Interval>;

struct UnionCase {
    const char* name;
    Intervals input;
    Intervals expected;
};

class IntervalUnionTest : public testing::TestWithParam<UnionCase> { };

TEST_P(IntervalUnionTest, BuildsSortedDisjointNonAdjacentSet)
{
    EXPECT_EQ(IntervalSet::unionOf(GetParam().input).intervals(), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(Cases, IntervalUnionTest,
    testing::Values(UnionCase { "empty", {}, {} }, UnionCase { "zeroLengthDropped", { { 5, 5 }, { 7, 6 } }, {} },
        UnionCase { "overlapping", { { 0, 10 }, { 5, 20 } }, { { 0, 20 } } },
        UnionCase { "adjacentMerge", { { 0, 10 }, { 10, 20 } }, { { 0, 20 } } },
        UnionCase { "unordered", { { 30, 40 }, { 0, 10 }, { 5, 12 } }, { { 0, 12 }, { 30, 40 } } },
        UnionCase { "nested", { { 0, 100 }, { 10, 20 }, { 50, 60 } }, { { 0, 100 } } },
        UnionCase {
            "zeroLengthInsideGapAddsNothing", { { 0, 10 }, { 15, 15 }, { 20, 30 } }, { { 0, 10 }, { 20, 30 } } }),
    [](const auto& info) { return std::string(info.param.name); });

struct BinaryCase {
    const char* name;
    Intervals a;
    Intervals b;
    Intervals intersection;
    Intervals aMinusB;
    Intervals unionAB;
};

class IntervalAlgebraTest : public testing::TestWithParam<BinaryCase> { };

TEST_P(IntervalAlgebraTest, IntersectSubtractUnite)
{
    const auto& c = GetParam();
    const IntervalSet a = IntervalSet::unionOf(c.a);
    const IntervalSet b = IntervalSet::unionOf(c.b);
    EXPECT_EQ(a.intersect(b).intervals(), c.intersection);
    EXPECT_EQ(b.intersect(a).intervals(), c.intersection);
    EXPECT_EQ(a.subtract(b).intervals(), c.aMinusB);
    EXPECT_EQ(a.unite(b).intervals(), c.unionAB);
    // |A| = |A ∩ B| + |A \ B| always.
    EXPECT_EQ(a.totalLength(), a.intersect(b).totalLength() + a.subtract(b).totalLength());
}

INSTANTIATE_TEST_SUITE_P(Cases, IntervalAlgebraTest,
    testing::Values(
        BinaryCase { "disjoint", { { 0, 10 } }, { { 20, 30 } }, {}, { { 0, 10 } }, { { 0, 10 }, { 20, 30 } } },
        BinaryCase { "partial", { { 0, 10 } }, { { 5, 15 } }, { { 5, 10 } }, { { 0, 5 } }, { { 0, 15 } } },
        BinaryCase { "holes", { { 0, 100 } }, { { 10, 20 }, { 30, 40 }, { 90, 120 } },
            { { 10, 20 }, { 30, 40 }, { 90, 100 } }, { { 0, 10 }, { 20, 30 }, { 40, 90 } }, { { 0, 120 } } },
        // One subtrahend spans the end of one interval and the start of the next.
        BinaryCase { "bridging", { { 0, 10 }, { 20, 30 } }, { { 5, 25 } }, { { 5, 10 }, { 20, 25 } },
            { { 0, 5 }, { 25, 30 } }, { { 0, 30 } } },
        BinaryCase { "touching", { { 0, 10 } }, { { 10, 20 } }, {}, { { 0, 10 } }, { { 0, 20 } } },
        BinaryCase { "covered", { { 5, 8 } }, { { 0, 10 } }, { { 5, 8 } }, {}, { { 0, 10 } } },
        BinaryCase { "emptyOther", { { 1, 2 } }, {}, {}, { { 1, 2 } }, { { 1, 2 } } }),
    [](const auto& info) { return std::string(info.param.name); });

TEST(IntervalSetTest, ClipKeepsOnlyThePartsInsideTheRange)
{
    const IntervalSet set = IntervalSet::unionOf({ { 0, 10 }, { 20, 30 }, { 40, 50 } });
    EXPECT_EQ(set.clip({ 5, 45 }).intervals(), (Intervals { { 5, 10 }, { 20, 30 }, { 40, 45 } }));
    EXPECT_EQ(set.clip({ 10, 20 }).intervals(), Intervals {});
    EXPECT_EQ(set.clip({ 30, 30 }).intervals(), Intervals {});
    EXPECT_EQ(set.clip({ -100, 100 }).intervals(), set.intervals());
}

TEST(IntervalSetTest, ComplementIsTheGapsOfTheRange)
{
    const IntervalSet set = IntervalSet::unionOf({ { 0, 10 }, { 20, 30 } });
    EXPECT_EQ(set.complement({ -5, 35 }).intervals(), (Intervals { { -5, 0 }, { 10, 20 }, { 30, 35 } }));
    EXPECT_EQ(set.complement({ 2, 8 }).intervals(), Intervals {});
    EXPECT_EQ(set.complement({ 5, 5 }).intervals(), Intervals {});
}

TEST(IntervalSetTest, ContainsIsHalfOpen)
{
    const IntervalSet set = IntervalSet::unionOf({ { 0, 10 }, { 20, 30 } });
    EXPECT_TRUE(set.contains(0));
    EXPECT_TRUE(set.contains(9));
    EXPECT_FALSE(set.contains(10));
    EXPECT_FALSE(set.contains(-1));
    EXPECT_TRUE(set.contains(20));
    EXPECT_FALSE(set.contains(30));
    EXPECT_EQ(set.totalLength(), 20);
}

} // namespace
} // namespace gapscope
