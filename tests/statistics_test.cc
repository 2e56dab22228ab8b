// Statistics of repetitions: summaries, the t quantile and the Mann–Whitney U test, against
// values computed by hand (and by textbook tables) rather than by the code under test.

#include "harness/stats/statistics.h"

#include <gtest/gtest.h>

#include <cmath>

namespace elevbench {
namespace {

TEST(StatisticsTest, EmptySampleHasNothingMeasured) {
  const SampleSummary s = Summarize({}, MeanKind::kArithmetic);
  EXPECT_EQ(s.n, 0u);
  EXPECT_FALSE(s.has_spread);
}

TEST(StatisticsTest, OneValueHasAMeanButNoSpread) {
  const SampleSummary s = Summarize({42.5}, MeanKind::kHarmonic);
  EXPECT_EQ(s.n, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 42.5);
  EXPECT_FALSE(s.has_spread);
  EXPECT_DOUBLE_EQ(s.ci_low, 42.5);
  EXPECT_DOUBLE_EQ(s.ci_high, 42.5);
}

TEST(StatisticsTest, ArithmeticSummaryMatchesHandComputation) {
  const SampleSummary s = Summarize({10, 12, 11, 13}, MeanKind::kArithmetic);
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 11.5);
  EXPECT_NEAR(s.stddev, 1.2909944, 1e-6);
  EXPECT_NEAR(s.cov, 0.1122604, 1e-6);
  EXPECT_NEAR(s.ci_low, 9.4457696, 1e-4);  // 11.5 ∓ t(3)=3.1824 · sd/√4
  EXPECT_NEAR(s.ci_high, 13.5542304, 1e-4);
  EXPECT_DOUBLE_EQ(s.min, 10);
  EXPECT_DOUBLE_EQ(s.max, 13);
  EXPECT_TRUE(s.has_spread);
}

TEST(StatisticsTest, HarmonicSummaryInvertsTheIntervalOfReciprocals) {
  const SampleSummary s = Summarize({10, 12, 11, 13}, MeanKind::kHarmonic);
  EXPECT_EQ(s.kind, MeanKind::kHarmonic);
  EXPECT_NEAR(s.mean, 11.3906406, 1e-6);
  EXPECT_NEAR(s.ci_low, 9.6508941, 1e-4);
  EXPECT_NEAR(s.ci_high, 13.8955650, 1e-4);
  // The spread is still that of the values themselves.
  EXPECT_NEAR(s.stddev, 1.2909944, 1e-6);
}

TEST(StatisticsTest, HarmonicOfANonPositiveValueFallsBackToArithmetic) {
  const SampleSummary s = Summarize({0, 4}, MeanKind::kHarmonic);
  EXPECT_EQ(s.kind, MeanKind::kArithmetic);
  EXPECT_DOUBLE_EQ(s.mean, 2);
  EXPECT_DOUBLE_EQ(HarmonicMean({0, 4}), 0);
  EXPECT_DOUBLE_EQ(HarmonicMean({2, 6}), 3);
}

TEST(StatisticsTest, HarmonicIntervalCanBeOpenAbove) {
  const SampleSummary s = Summarize({1, 100}, MeanKind::kHarmonic);
  EXPECT_TRUE(std::isinf(s.ci_high));
  EXPECT_GT(s.ci_low, 0);
}

// A duration of two widely spread repetitions (Morton's test1: 0.1776 s ± 0.4325) has no
// negative lower bound: the interval of values none of which is negative is cut at 0, and
// is printed by its ends.
TEST(StatisticsTest, IntervalOfNonNegativeValuesIsCutAtZero) {
  const SampleSummary s = Summarize({9, 11}, MeanKind::kArithmetic);
  EXPECT_DOUBLE_EQ(s.ci_low, 0);  // 10 ∓ t(1)=12.7062 · √2/√2: -2.7062 cut at 0
  EXPECT_NEAR(s.ci_high, 22.7062, 1e-4);
  EXPECT_TRUE(IntervalNeedsEnds(s));
  const SampleSummary negative = Summarize({-1, 11}, MeanKind::kArithmetic);
  EXPECT_LT(negative.ci_low, 0);  // a value below 0: nothing to cut
  EXPECT_FALSE(IntervalNeedsEnds(negative));
  EXPECT_FALSE(IntervalNeedsEnds(Summarize({10, 12, 11, 13}, MeanKind::kArithmetic)));
  EXPECT_FALSE(IntervalNeedsEnds(Summarize({1, 100}, MeanKind::kHarmonic)));  // unbounded
  EXPECT_FALSE(IntervalNeedsEnds(Summarize({5}, MeanKind::kArithmetic)));
}

TEST(StatisticsTest, StudentQuantilesMatchTables) {
  EXPECT_NEAR(StudentT975(1), 12.706, 1e-3);
  EXPECT_NEAR(StudentT975(4), 2.776, 1e-3);
  EXPECT_NEAR(StudentT975(29), 2.045, 1e-3);
  EXPECT_NEAR(StudentT975(35), 2.030, 2e-3);
  EXPECT_NEAR(StudentT975(50), 2.009, 2e-3);
  EXPECT_NEAR(StudentT975(100), 1.984, 2e-3);
  EXPECT_NEAR(StudentT975(1000), 1.962, 2e-3);
  EXPECT_GT(StudentT975(1000), 1.95996);
}

TEST(StatisticsTest, ExactUTestOfSeparatedSamples) {
  // 3 vs 3, all of a below b: U = 0, P(U = 0) = 1/C(6,3) = 1/20, two-sided 0.1.
  UTestResult r = MannWhitneyU({1, 2, 3}, {4, 5, 6});
  EXPECT_TRUE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 0);
  EXPECT_NEAR(r.p_value, 0.1, 1e-12);
  // 5 vs 5 separated: 2 / C(10,5) = 2/252.
  r = MannWhitneyU({10.1, 10.3, 9.9, 10.2, 10.0}, {9.0, 9.2, 9.1, 8.9, 9.3});
  EXPECT_DOUBLE_EQ(r.u, 25);
  EXPECT_NEAR(r.p_value, 2.0 / 252, 1e-12);
}

TEST(StatisticsTest, ExactUTestOfInterleavedSamplesIsNotSignificant) {
  const UTestResult r = MannWhitneyU({1, 3, 5, 7, 9}, {2, 4, 6, 8, 10});
  EXPECT_TRUE(r.exact);
  EXPECT_GT(r.p_value, 0.5);
}

TEST(StatisticsTest, TiedSamplesUseTheCorrectedNormalApproximation) {
  // U = 2; tie group of three 2s; z = (|2 - 8| - 0.5) / sqrt(16/12 (9 - 24/56)).
  const UTestResult r = MannWhitneyU({1, 2, 2, 3}, {2, 4, 5, 6});
  EXPECT_FALSE(r.exact);
  EXPECT_DOUBLE_EQ(r.u, 2);
  EXPECT_NEAR(r.p_value, 0.1037537, 1e-6);
}

TEST(StatisticsTest, IdenticalOrEmptySamplesGiveNoEvidence) {
  EXPECT_DOUBLE_EQ(MannWhitneyU({5, 5, 5}, {5, 5, 5}).p_value, 1);
  EXPECT_DOUBLE_EQ(MannWhitneyU({}, {1, 2}).p_value, 1);
}

}  // namespace
}  // namespace elevbench
