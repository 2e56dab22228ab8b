// `elevbench compare` (harness/compare/compare.h): the U test's verdicts with the metric's
// direction and the threshold, n = 1 and too few values for significance, rows on one side and
// rows without values. Pairing and the input's checks are in compare_pairing_test.cc, the reports
// in compare_report_test.cc, the built binary in compare_cli_test.cc.

#include "harness/compare/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "app/suites.h"
#include "compare_fixture.h"
#include "reporters/compare_text.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::FindRow;
using testing::kMissing;
using testing::kTwoConfigs;
using testing::MustCompare;
using testing::Noise;
using testing::NoisyDocument;
using testing::TestConfig;
using testing::TioDocument;

// The "done when": a planted 10 % regression in one row at n = 5 is found, and nothing
// else is called a change.
TEST(CompareTest, PlantedTenPercentRegressionAtFiveRepetitions) {
  const ResultsDocument base = NoisyDocument(1, 5);
  const ResultsDocument next = NoisyDocument(
      2, 5, [](size_t c, TioPhase p) { return c == 0 && p == TioPhase::kSeqRead ? 0.9 : 1.0; });
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.rows.size(), 8u);  // 4 phases × 2 configurations, headline metric only
  EXPECT_TRUE(c.HasRegression());
  EXPECT_EQ(c.CountOf(Verdict::kRegression), 1u);
  EXPECT_EQ(c.CountOf(Verdict::kUnchanged), 7u);
  const ComparisonRow* r = FindRow(c, "seq_read", "6.18.44-dl");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->verdict, Verdict::kRegression);
  EXPECT_EQ(r->significance, Significance::kSignificant);
  EXPECT_TRUE(r->exact);
  EXPECT_NEAR(r->p_value, 2.0 / 252, 1e-12);  // completely separated 5 vs 5: 2 / C(10, 5)
  EXPECT_NEAR(r->change_pct, -10, 2.5);
  EXPECT_EQ(r->base.kind, MeanKind::kHarmonic);  // rates are compared on their harmonic mean
}

TEST(CompareTest, TwoRepetitionSetsOfTheSameConfigurationAreNotARegression) {
  const Comparison c = MustCompare(NoisyDocument(1, 5), NoisyDocument(2, 5));
  EXPECT_FALSE(c.HasRegression());
  EXPECT_EQ(c.CountOf(Verdict::kImprovement), 0u);
  EXPECT_EQ(c.CountOf(Verdict::kUnchanged), 8u);
  for (const ComparisonRow& r : c.rows) {
    EXPECT_LT(std::fabs(r.change_pct), 3) << r.section;
    EXPECT_TRUE(r.has_p_value);
  }
}

// A significant change smaller than the threshold is marked but is not a regression; a
// larger threshold hides a real one.
TEST(CompareTest, ThresholdDecidesTheSizeThatCounts) {
  const ResultsDocument base = NoisyDocument(1, 5);
  const ResultsDocument next = NoisyDocument(
      2, 5, [](size_t c, TioPhase p) { return c == 0 && p == TioPhase::kSeqRead ? 0.9 : 1.0; });
  CompareSettings settings;
  settings.threshold_pct = 15;
  const Comparison c = MustCompare(base, next, settings);
  const ComparisonRow* r = FindRow(c, "seq_read", "6.18.44-dl");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->significance, Significance::kSignificant);
  EXPECT_EQ(r->verdict, Verdict::kUnchanged);
  EXPECT_FALSE(c.HasRegression());
}

TEST(CompareTest, HigherAndLowerIsBetterBothWays) {
  const ResultsDocument base = NoisyDocument(1, 5);
  // dl's rate +10 % everywhere (latency −9 %), bfq's rate −10 % (latency +11 %).
  const ResultsDocument next =
      NoisyDocument(2, 5, [](size_t c, TioPhase) { return c == 0 ? 1.1 : 0.9; });
  CompareSettings settings;
  std::string err;
  ASSERT_TRUE(ParseMetricSelection("rate_mb_s,avg_latency_ms", &settings, &err)) << err;
  const Comparison c = MustCompare(base, next, settings);
  ASSERT_EQ(c.rows.size(), 16u);
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-dl", "rate_mb_s")->verdict, Verdict::kImprovement);
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-dl", "avg_latency_ms")->verdict, Verdict::kImprovement);
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-bfq", "rate_mb_s")->verdict, Verdict::kRegression);
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-bfq", "avg_latency_ms")->verdict, Verdict::kRegression);
  EXPECT_GT(FindRow(c, "seq_read", "6.18.44-bfq", "avg_latency_ms")->change_pct, 5);
  EXPECT_EQ(c.CountOf(Verdict::kRegression), 8u);
  EXPECT_EQ(c.CountOf(Verdict::kImprovement), 8u);
}

// A metric that describes rather than ranks (kNeither) is "changed", never a regression.
TEST(CompareTest, AMetricWithoutADirectionIsChangedNeverARegression) {
  auto rows = [](double mean) {
    std::vector<Measurement> ms;
    for (uint32_t rep = 0; rep < 5; ++rep) {
      Measurement m;
      m.suite = "nickbench";
      m.section = "bench3";
      m.identifier = "6.18.44-dl";
      m.repetition = rep;
      m.metric = {"metric", "ratio", Direction::kNeither, MeanKind::kArithmetic, true};
      m.value = mean + 0.01 * rep;
      ms.push_back(m);
    }
    return TabulateMeasurements(ms, {}, 5);
  };
  Comparison c;
  std::string err;
  ASSERT_TRUE(CompareMetricRows(rows(1.0), rows(2.0), {}, &c, &err)) << err;
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].verdict, Verdict::kChanged);
  EXPECT_FALSE(c.HasRegression());
  EXPECT_EQ(c.CountOf(Verdict::kChanged), 1u);
}

// n = 1: the change is there, no test is possible, and only --no-significance lets the
// threshold alone call it a regression.
TEST(CompareTest, SingleRepetitionShowsTheChangeWithoutSignificance) {
  const ResultsDocument base = NoisyDocument(1, 1);
  const ResultsDocument next = NoisyDocument(
      2, 1, [](size_t c, TioPhase p) { return c == 1 && p == TioPhase::kRandomRead ? 0.8 : 1.0; });
  const Comparison c = MustCompare(base, next);
  const ComparisonRow* r = FindRow(c, "random_read", "6.18.44-bfq");
  ASSERT_NE(r, nullptr);
  EXPECT_TRUE(r->has_change);
  EXPECT_LT(r->change_pct, -15);
  EXPECT_FALSE(r->has_p_value);
  EXPECT_EQ(r->significance, Significance::kSingleValue);
  EXPECT_EQ(CompareMark(*r), "n=1");
  EXPECT_EQ(r->verdict, Verdict::kInconclusive);  // no test could have found a change
  EXPECT_FALSE(c.HasRegression());
  EXPECT_EQ(c.Outcome(), GateOutcome::kUndecided);  // a change beyond 5 % the bad way

  CompareSettings threshold_only;
  threshold_only.no_significance = true;
  const Comparison t = MustCompare(base, next, threshold_only);
  EXPECT_EQ(FindRow(t, "random_read", "6.18.44-bfq")->verdict, Verdict::kRegression);
  EXPECT_EQ(t.CountOf(Verdict::kRegression), 1u);  // the ±1.5 % noise stays under the threshold
}

// 3 vs 3 values: even completely separated samples give p = 0.1, so the test cannot speak
// at α = 0.05, and the row says so instead of "not significant".
TEST(CompareTest, TooFewValuesForSignificanceAreMarked) {
  const ResultsDocument base = NoisyDocument(1, 3);
  const ResultsDocument next =
      NoisyDocument(2, 3, [](size_t c, TioPhase) { return c == 0 ? 0.7 : 1.0; });
  const Comparison c = MustCompare(base, next);
  const ComparisonRow* r = FindRow(c, "seq_write", "6.18.44-dl");
  ASSERT_NE(r, nullptr);
  EXPECT_NEAR(r->p_value, 0.1, 1e-12);
  EXPECT_EQ(r->significance, Significance::kTooFewValues);
  EXPECT_EQ(CompareMark(*r), "few");
  EXPECT_EQ(r->verdict, Verdict::kInconclusive);
  EXPECT_NE(r->note.find("too few values for p < 0.05"), std::string::npos) << r->note;
  // 4 vs 4 can reach 2/70 < 0.05.
  const Comparison four = MustCompare(
      NoisyDocument(1, 4),
      NoisyDocument(2, 4, [](size_t config, TioPhase) { return config == 0 ? 0.7 : 1.0; }));
  EXPECT_EQ(FindRow(four, "seq_write", "6.18.44-dl")->significance, Significance::kSignificant);
  EXPECT_EQ(FindRow(four, "seq_write", "6.18.44-dl")->verdict, Verdict::kRegression);
}

// The same values on both sides are no difference, whatever the number of values, as report's
// verdict says ("no difference (identical values)"); never "+0.00% … inconclusive" (issue 45).
TEST(CompareTest, IdenticalValuesAreUnchanged) {
  for (uint32_t repetitions : {1u, 3u}) {
    const ResultsDocument doc = NoisyDocument(1, repetitions);
    const ResultsDocument copy = doc;
    const Comparison c = MustCompare(doc, copy);
    ASSERT_FALSE(c.rows.empty());
    EXPECT_EQ(c.CountOf(Verdict::kUnchanged), c.rows.size()) << repetitions;
    EXPECT_EQ(c.CountOf(Verdict::kInconclusive), 0u) << repetitions;
    EXPECT_NE(c.rows[0].note.find("no difference (identical values)"), std::string::npos)
        << c.rows[0].note;
    EXPECT_EQ(c.Outcome(), GateOutcome::kPass) << repetitions;
  }
}

// compare names the file's suite: a post-2003 file's rows are its parts' ("probes"), and its
// header said "elevbench compare: probes" (issue 45).
TEST(CompareTest, HeaderNamesTheDocumentsSuite) {
  const NamedResults file = testing::LoadNamedResults("fixtures/post2003_small.json");
  CompareSettings settings;
  std::string err;
  ASSERT_TRUE(ParseBetween("DL,AS", &settings, &err)) << err;
  Comparison c;
  ASSERT_TRUE(CompareDocuments(file.doc, file.doc, MeasurerOf(file.doc.suite), settings, &c, &err))
      << err;
  EXPECT_EQ(c.suite, "post-2003");
  EXPECT_EQ(RenderCompareText(c).rfind("elevbench compare: post-2003\n", 0), 0u);
}

TEST(CompareTest, RowsOnOneSideAreListedNotDropped) {
  const std::vector<TestConfig> base_configs = {{"6.18.44-dl", "DL", "mq-deadline"},
                                                {"6.18.44-ky", "KY", "kyber"}};
  const std::vector<TestConfig> new_configs = {{"6.18.44-dl", "DL", "mq-deadline"},
                                               {"6.18.44-none", "NONE", "none"}};
  Noise base_noise(1), new_noise(2);
  const ResultsDocument base = TioDocument(
      base_configs, 5, [&](size_t, TioPhase, uint32_t) { return base_noise.Around(50, 0.01); });
  // dl's random write is missing from the new file.
  const ResultsDocument next = TioDocument(new_configs, 5, [&](size_t c, TioPhase p, uint32_t) {
    return c == 0 && p == TioPhase::kRandomWrite ? kMissing : new_noise.Around(50, 0.01);
  });
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.pairs.size(), 1u);
  ASSERT_EQ(c.unpaired_base.size(), 1u);
  EXPECT_EQ(c.unpaired_base[0].identifier, "6.18.44-ky");
  ASSERT_EQ(c.unpaired_new.size(), 1u);
  EXPECT_EQ(c.unpaired_new[0].identifier, "6.18.44-none");
  EXPECT_EQ(c.rows.size(), 12u);  // dl 4 (one only in base), ky 4, none 4
  const ComparisonRow* missing = FindRow(c, "random_write", "6.18.44-dl");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(missing->presence, Presence::kOnlyBase);
  EXPECT_EQ(missing->verdict, Verdict::kNotComparable);
  EXPECT_EQ(missing->note, "only in base");
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-ky")->presence, Presence::kOnlyBase);
  EXPECT_EQ(FindRow(c, "seq_read", "6.18.44-none")->presence, Presence::kOnlyNew);
  EXPECT_EQ(c.CountOf(Verdict::kNotComparable), 9u);
  EXPECT_EQ(c.CountOf(Verdict::kUnchanged), 3u);
}

// A configuration whose every cell failed has rows without values: marked, not comparable.
TEST(CompareTest, RowsWithoutValuesAreMarked) {
  const ResultsDocument base = NoisyDocument(1, 2);
  ResultsDocument next = NoisyDocument(2, 2);
  std::vector<nlohmann::json> kept;
  for (const nlohmann::json& r : next.records) {
    if (r["identifier"] != "6.18.44-bfq") kept.push_back(r);
  }
  next.records = kept;
  for (CellRecord& cell : next.cells) {
    if (cell.identifier == "6.18.44-bfq") cell.status = "failed";
  }
  const Comparison c = MustCompare(base, next);
  const ComparisonRow* r = FindRow(c, "seq_read", "6.18.44-bfq");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->presence, Presence::kBoth);
  EXPECT_EQ(r->verdict, Verdict::kNotComparable);
  EXPECT_EQ(r->next.n, 0u);
  EXPECT_EQ(r->note, "no values in new (2 failed/DNF)");
  EXPECT_EQ(FormatCompareSide(r->next, true), "no values");
}

TEST(CompareTest, IncompleteRowsSayHowManyValuesThereAre) {
  const ResultsDocument base = NoisyDocument(1, 5);
  Noise noise(2);
  const ResultsDocument next = TioDocument(kTwoConfigs, 5, [&](size_t c, TioPhase p, uint32_t rep) {
    return c == 0 && p == TioPhase::kSeqWrite && rep >= 3 ? kMissing : noise.Around(50, 0.015);
  });
  const Comparison c = MustCompare(base, next);
  const ComparisonRow* r = FindRow(c, "seq_write", "6.18.44-dl");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->next.n, 3u);
  EXPECT_TRUE(r->new_incomplete);
  EXPECT_EQ(r->note, "new: 3 of 5 values");
  EXPECT_EQ(r->verdict, Verdict::kUnchanged);
}

}  // namespace
}  // namespace elevbench
