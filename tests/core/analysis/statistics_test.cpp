// SPDX-License-Identifier: MIT
// The expected U and p below were worked out independently of this code by enumerating every way to split
// the pooled values between the two samples (a Python script over itertools.combinations; for the normal
// cases, the textbook formula with math.erfc), and the bootstrap intervals by hand from the binomial law of a
// resampled median (worked out in each test's comment).
#include "core/analysis/statistics.h"

#include <gtest/gtest.h>

#include <vector>

namespace gapscope {
namespace {

struct MwuCase {
    const char* name;
    std::vector<TimeNs> a;
    std::vector<TimeNs> b;
    double u;
    double p;
    bool exact;
};

class MannWhitney : public testing::TestWithParam<MwuCase> { };

TEST_P(MannWhitney, GivesTheEnumeratedUAndP)
{
    const MwuCase& c = GetParam();
    const auto r = mannWhitneyU(c.a, c.b);
    ASSERT_TRUE(r);
    EXPECT_DOUBLE_EQ(r->u, c.u);
    EXPECT_NEAR(r->pValue, c.p, 1e-12 + 1e-9 * c.p);
    EXPECT_EQ(r->exact, c.exact);
}

INSTANTIATE_TEST_SUITE_P(Statistics, MannWhitney,
    testing::Values(
        // 1 of the C(6, 3) = 20 splits has U <= 0: p = 2/20.
        MwuCase { "ThreeBelowThree", { 1, 2, 3 }, { 4, 5, 6 }, 0.0, 0.1, true },
        // 1 of C(10, 5) = 252: p = 2/252, the smallest p five steps against five can give.
        MwuCase { "FiveBelowFive", { 10, 20, 30, 40, 50 }, { 60, 70, 80, 90, 100 }, 0.0, 2.0 / 252.0, true },
        // Ties: mid-ranks; 7 of the 70 splits have U <= 2.5: p = 14/70.
        MwuCase { "Ties", { 1, 2, 2, 3 }, { 2, 3, 4, 4 }, 2.5, 0.2, true },
        // n < 3: one value each can never be told apart (p = 2 * 1/2 = 1); two against two at best 2/6.
        MwuCase { "OneAgainstOne", { 5 }, { 7 }, 0.0, 1.0, true },
        MwuCase { "TwoAgainstTwo", { 1, 2 }, { 3, 4 }, 0.0, 1.0 / 3.0, true },
        // Six against seven, U = 40 of 42: 4 of the 1,716 splits have U >= 40: p = 8/1716.
        MwuCase { "SixAgainstSeven", { 100, 105, 103, 99, 110, 104 }, { 95, 97, 101, 96, 93, 98, 94 }, 40.0,
            8.0 / 1716.0, true },
        // Equal samples: every split has U <= 12.5 or >= 12.5 with the observed one in the middle: p = 1.
        MwuCase { "Identical", { 7, 7, 8, 9, 9 }, { 7, 7, 8, 9, 9 }, 12.5, 1.0, true },
        // 25 against 25 (normal approximation): 1..25 against 11..35, U = 112.5, z = 3.8722633994467444.
        MwuCase { "NormalNoTies",
            { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25 },
            { 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35 },
            112.5, 0.0001078293307480265, false },
        // 25 against 25 in four tie groups (10, 20, 15, 5 values): tie-corrected z = 3.8238337481294.
        MwuCase { "NormalWithTies", { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3 },
            { 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4 }, 125.0,
            0.00013139252892846418, false }),
    [](const testing::TestParamInfo<MwuCase>& info) { return std::string(info.param.name); });

TEST(MannWhitney, ExactBelowTwentyPerSideNormalFromTwenty)
{
    std::vector<TimeNs> nineteen(19);
    std::vector<TimeNs> twenty(20);
    for (std::size_t i = 0; i < 20; ++i) {
        if (i < 19)
            nineteen[i] = static_cast<TimeNs>(i);
        twenty[i] = static_cast<TimeNs>(100 + i);
    }
    EXPECT_TRUE(mannWhitneyU(nineteen, nineteen)->exact);
    EXPECT_FALSE(mannWhitneyU(nineteen, twenty)->exact);
    // 19 below 19: the single most extreme split of C(38, 19) = 35,345,263,800.
    std::vector<TimeNs> above(19);
    for (std::size_t i = 0; i < 19; ++i)
        above[i] = static_cast<TimeNs>(100 + i);
    EXPECT_NEAR(mannWhitneyU(nineteen, above)->pValue, 2.0 / 35345263800.0, 1e-20);
}

TEST(MannWhitney, AllValuesTiedInTheNormalRangeGiveOne)
{
    const std::vector<TimeNs> same(30, 42);
    const auto r = mannWhitneyU(same, same);
    ASSERT_TRUE(r);
    EXPECT_FALSE(r->exact);
    EXPECT_DOUBLE_EQ(r->u, 450.0);
    EXPECT_DOUBLE_EQ(r->pValue, 1.0);
}

TEST(MannWhitney, AnEmptySideHasNoTest)
{
    const std::vector<TimeNs> some { 1, 2, 3 };
    EXPECT_FALSE(mannWhitneyU({}, some));
    EXPECT_FALSE(mannWhitneyU(some, {}));
}

TEST(Median, IsTheNearestRankP50)
{
    std::vector<TimeNs> odd { 5, 1, 3 };
    EXPECT_EQ(medianOf(odd), 3);
    std::vector<TimeNs> even { 4, 1, 3, 2 };
    EXPECT_EQ(medianOf(even), 2); // the lower middle value, as the report's p50
    EXPECT_EQ(medianOf({}), 0);
}

TEST(Bootstrap, ConstantSidesGiveTheirDifference)
{
    const std::vector<TimeNs> base { 100, 100, 100 };
    const std::vector<TimeNs> fresh { 90, 90, 90, 90 };
    const auto interval = bootstrapMedianDifference(base, fresh);
    ASSERT_TRUE(interval);
    EXPECT_EQ(interval->low, -10);
    EXPECT_EQ(interval->high, -10);
    EXPECT_TRUE(interval->excludesZero());
}

TEST(Bootstrap, TwoPointLawGivesBothPoints)
{
    // A resample of {90, 110} has lower median 90 unless both draws are 110 (1/4): the difference to 100 is
    // -10 with probability 3/4 and +10 with 1/4, so the 2.5 % and 97.5 % points are -10 and +10.
    const std::vector<TimeNs> base { 100 };
    const std::vector<TimeNs> fresh { 90, 110 };
    const auto interval = bootstrapMedianDifference(base, fresh);
    ASSERT_TRUE(interval);
    EXPECT_EQ(interval->low, -10);
    EXPECT_EQ(interval->high, 10);
    EXPECT_FALSE(interval->excludesZero());
}

TEST(Bootstrap, RareOutliersSetTheTails)
{
    // Each side's resampled median (3rd of 5 draws) is its outlier when 3 or more of 5 draws hit it:
    // P = P(Binomial(5, 0.2) >= 3) = 0.05792. The difference is -150 with probability 0.942 * 0.058 = 0.0546,
    // +50 with 0.0546, else -50: both tails hold more than 2.5 %, so the interval is [-150, +50] (with 10,000
    // resamples a tail of 5.46 % lies 14 standard deviations above 2.5 %).
    const std::vector<TimeNs> base { 100, 100, 100, 100, 200 };
    const std::vector<TimeNs> fresh { 50, 50, 50, 50, 150 };
    const auto interval = bootstrapMedianDifference(base, fresh);
    ASSERT_TRUE(interval);
    EXPECT_EQ(interval->low, -150);
    EXPECT_EQ(interval->high, 50);
}

TEST(Bootstrap, IsReproducible)
{
    const std::vector<TimeNs> base { 180, 175, 179, 174, 182, 166, 190, 171 };
    const std::vector<TimeNs> fresh { 126, 127, 123, 163, 124, 140, 131 };
    const auto first = bootstrapMedianDifference(base, fresh);
    const auto second = bootstrapMedianDifference(base, fresh);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first->low, second->low);
    EXPECT_EQ(first->high, second->high);
    // Every NEW value (at most 163) lies below every BASE value (at least 166), so every resampled difference
    // lies in [123 - 190, 163 - 166]: below 0.
    EXPECT_LT(first->high, 0);
    EXPECT_GE(first->low, 123 - 190);
    EXPECT_LE(first->high, 163 - 166);
    EXPECT_FALSE(bootstrapMedianDifference({}, fresh));
}

} // namespace
} // namespace gapscope
