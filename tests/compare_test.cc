// `elevbench compare`: rows matched across files and inside one, the U test's verdicts with the
// metric's direction, n = 1 and rows on one side, the text and JUnit reports (golden), and the
// built binary's exit codes 0 / 1 / 2.

#include "harness/compare/compare.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "app/suites.h"
#include "harness/process/subprocess.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"
#include "scenarios/tiobench/tiobench_measurements.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

struct TestConfig {
  std::string identifier;
  std::string label;
  std::string scheduler;
};

// The rate (MB/s) of one configuration × phase × repetition; NaN: no record (the phase or the
// repetition is missing from the file).
constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();
using RateFn = std::function<double(size_t config, TioPhase phase, uint32_t repetition)>;

// A tiobench results document at one thread, as `run` writes it: one cell per configuration ×
// repetition, one record per phase. Besides the rate, every record's average latency is
// 100 / rate ms (lower is better, so it moves against the rate).
ResultsDocument TioDocument(const std::vector<TestConfig>& configs, uint32_t repetitions,
                            const RateFn& rate) {
  ResultsDocument doc;
  doc.complete = true;
  doc.suite = "tiobench";
  doc.context = {{"kernel", "6.18.44"}, {"repetitions", repetitions}};
  TiobenchParams params;
  params.directory = "/mnt/test";
  params.size_mb = 64;
  params.threads = {1};
  doc.parameters = TiobenchParamsToJson(params);
  for (const TestConfig& c : configs) {
    doc.identifiers.push_back(c.identifier);
    doc.labels.push_back(c.label);
  }
  for (uint32_t rep = 0; rep < repetitions; ++rep) {
    for (size_t i = 0; i < configs.size(); ++i) {
      CellRecord cell;
      cell.identifier = configs[i].identifier;
      cell.label = configs[i].label;
      cell.scheduler = configs[i].scheduler;
      cell.repetition = rep;
      cell.variant = {{"threads", 1}};
      cell.status = "ok";
      doc.cells.push_back(cell);
      for (TioPhase phase : kTioExecutionOrder) {
        const double value = rate(i, phase, rep);
        if (std::isnan(value)) continue;
        TioRecord r;
        r.identifier = configs[i].identifier;
        r.scheduler = configs[i].scheduler;
        r.repetition = rep;
        r.measurement.phase = phase;
        r.measurement.threads = 1;
        r.measurement.runs = 1;
        r.metrics.rate_mb_s = value;
        r.metrics.avg_latency_ms = 100 / value;
        r.metrics.cpu_pct = 2.5;
        nlohmann::json j = TioRecordToJson(r);
        j["label"] = configs[i].label;
        doc.records.push_back(j);
      }
    }
  }
  return doc;
}

// Uniform noise of ±spread (a fraction) around mean. The draw is mt19937's raw output, whose
// sequence the standard fixes (std::uniform_real_distribution's is not), so golden files hold.
class Noise {
 public:
  explicit Noise(uint32_t seed) : gen_(seed) {}
  double Around(double mean, double spread) {
    const double unit = static_cast<double>(gen_()) / 4294967295.0;  // [0, 1]
    return mean * (1 + spread * (2 * unit - 1));
  }

 private:
  std::mt19937 gen_;
};

const std::vector<TestConfig> kTwoConfigs = {{"6.18.44-dl", "DL", "mq-deadline"},
                                             {"6.18.44-bfq", "BFQ", "bfq"}};

// Every configuration and phase around 50 MB/s with ±1.5 % noise; `factor` scales one cell.
ResultsDocument NoisyDocument(uint32_t seed, uint32_t repetitions,
                              const std::function<double(size_t, TioPhase)>& factor = nullptr,
                              const std::vector<TestConfig>& configs = kTwoConfigs) {
  Noise noise(seed);
  return TioDocument(configs, repetitions, [&](size_t c, TioPhase p, uint32_t) {
    return noise.Around(50, 0.015) * (factor ? factor(c, p) : 1.0);
  });
}

Comparison MustCompare(const ResultsDocument& base, const ResultsDocument& next,
                       const CompareSettings& settings = {}) {
  Comparison c;
  std::string err;
  EXPECT_TRUE(CompareDocuments(base, next, TiobenchMeasurements, settings, &c, &err)) << err;
  return c;
}

const ComparisonRow* FindRow(const Comparison& c, const std::string& section,
                             const std::string& identifier,
                             const std::string& metric = "rate_mb_s") {
  for (const ComparisonRow& r : c.rows) {
    const std::string& id =
        r.presence == Presence::kOnlyNew ? r.new_config.identifier : r.base_config.identifier;
    if (r.section == section && id == identifier && r.metric.name == metric) return &r;
  }
  return nullptr;
}

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

// Identifiers carry the kernel: across kernels, configurations pair by label, then by the
// scheduler string, and only where that is unique.
TEST(CompareTest, ConfigurationsPairByLabelThenSchedulerAcrossKernels) {
  const ResultsDocument base = NoisyDocument(1, 5, nullptr,
                                             {{"6.1.0-dl", "DL", "mq-deadline"},
                                              {"6.1.0-bfq", "", "bfq"},
                                              {"6.1.0-x", "", "kyber"},
                                              {"6.1.0-y", "", "kyber"}});
  const ResultsDocument next = NoisyDocument(2, 5, nullptr,
                                             {{"6.18.44-dl", "dl", "mq-deadline"},
                                              {"6.18.44-bfq", "", "bfq"},
                                              {"6.18.44-x", "", "kyber"},
                                              {"6.18.44-y", "", "kyber"}});
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.pairs.size(), 2u);
  EXPECT_EQ(c.pairs[0].base.identifier, "6.1.0-dl");
  EXPECT_EQ(c.pairs[0].next.identifier, "6.18.44-dl");
  EXPECT_EQ(c.pairs[0].rule, MatchRule::kLabel);
  EXPECT_EQ(c.pairs[1].next.identifier, "6.18.44-bfq");
  EXPECT_EQ(c.pairs[1].rule, MatchRule::kScheduler);
  EXPECT_EQ(c.unpaired_base.size(), 2u);  // two kybers on each side: no guess
  EXPECT_EQ(c.unpaired_new.size(), 2u);
  EXPECT_EQ(CompareConfigurationText(*FindRow(c, "seq_read", "6.1.0-dl")),
            "6.1.0-dl -> 6.18.44-dl");
}

// Two runs without switching (identifier = uname -r, scheduler "") pair on the empty
// scheduler string: a kernel against a kernel.
TEST(CompareTest, TwoRunsWithoutSwitchingPairAcrossKernels) {
  const ResultsDocument base = NoisyDocument(1, 5, nullptr, {{"6.1.0", "", ""}});
  const ResultsDocument next = NoisyDocument(2, 5, nullptr, {{"6.18.44", "", ""}});
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.pairs.size(), 1u);
  EXPECT_EQ(c.pairs[0].rule, MatchRule::kScheduler);
  EXPECT_EQ(c.CountOf(Verdict::kUnchanged), 4u);
}

TEST(CompareTest, BetweenComparesTwoConfigurationsOfOneFile) {
  // bfq 10 % slower than dl in every phase.
  const ResultsDocument doc =
      NoisyDocument(1, 5, [](size_t c, TioPhase) { return c == 1 ? 0.9 : 1.0; });
  for (const char* between : {"dl,bfq", "6.18.44-dl,BFQ", "mq-deadline,bfq"}) {
    CompareSettings settings;
    std::string err;
    ASSERT_TRUE(ParseBetween(between, &settings, &err)) << err;
    const Comparison c = MustCompare(doc, doc, settings);
    ASSERT_EQ(c.pairs.size(), 1u) << between;
    EXPECT_EQ(c.pairs[0].rule, MatchRule::kBetween);
    EXPECT_EQ(c.pairs[0].base.identifier, "6.18.44-dl");
    EXPECT_EQ(c.pairs[0].next.identifier, "6.18.44-bfq");
    EXPECT_EQ(c.rows.size(), 4u) << between;
    EXPECT_EQ(c.CountOf(Verdict::kRegression), 4u) << between;
    EXPECT_TRUE(c.unpaired_base.empty());
  }
  CompareSettings reversed;
  std::string err;
  ASSERT_TRUE(ParseBetween("bfq,dl", &reversed, &err)) << err;
  EXPECT_EQ(MustCompare(doc, doc, reversed).CountOf(Verdict::kImprovement), 4u);
}

TEST(CompareTest, BetweenRejectsUnknownAmbiguousAndIdenticalConfigurations) {
  const ResultsDocument doc = NoisyDocument(
      1, 2, nullptr,
      {{"6.18.44-dl", "DL", "mq-deadline"}, {"6.18.44-dl-re250", "DL2", "mq-deadline"}});
  auto error_of = [&](const std::string& between) {
    CompareSettings settings;
    std::string err;
    EXPECT_TRUE(ParseBetween(between, &settings, &err)) << err;
    Comparison c;
    EXPECT_FALSE(CompareDocuments(doc, doc, MeasurerOf(doc.suite), settings, &c, &err)) << between;
    return err;
  };
  EXPECT_NE(error_of("dl,kyber").find("no configuration 'kyber'"), std::string::npos);
  EXPECT_NE(error_of("mq-deadline,dl").find("several configurations"), std::string::npos);
  EXPECT_NE(error_of("dl,6.18.44-dl").find("same configuration"), std::string::npos);
  CompareSettings settings;
  std::string err;
  EXPECT_FALSE(ParseBetween("dl", &settings, &err));
  EXPECT_FALSE(ParseBetween("dl,", &settings, &err));
  EXPECT_FALSE(ParseBetween("a,b,c", &settings, &err));
}

TEST(CompareTest, MismatchedInputIsAnError) {
  std::string err;
  Comparison c;
  ResultsDocument nick;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/nickbench_small.json"), &nick, &err))
      << err;
  EXPECT_FALSE(CompareDocuments(NoisyDocument(1, 2), nick, TiobenchMeasurements, {}, &c, &err));
  EXPECT_NE(err.find("different suites"), std::string::npos) << err;

  const ResultsDocument other =
      NoisyDocument(2, 2, nullptr, {{"6.18.44-a", "A", "kyber"}, {"6.18.44-b", "B", "none"}});
  EXPECT_FALSE(CompareDocuments(NoisyDocument(1, 2), other, TiobenchMeasurements, {}, &c, &err));
  EXPECT_NE(err.find("nothing to compare"), std::string::npos) << err;

  CompareSettings settings;
  ASSERT_TRUE(ParseMetricSelection("rate_mb_s,bogus", &settings, &err));
  EXPECT_FALSE(CompareDocuments(NoisyDocument(1, 2), NoisyDocument(2, 2), TiobenchMeasurements,
                                settings, &c, &err));
  EXPECT_NE(err.find("no metric 'bogus'"), std::string::npos) << err;
  EXPECT_FALSE(ParseMetricSelection("rate_mb_s,,cpu_pct", &settings, &err));
}

TEST(CompareTest, MetricSelection) {
  CompareSettings settings;
  std::string err;
  ASSERT_TRUE(ParseMetricSelection("all", &settings, &err));
  const Comparison all = MustCompare(NoisyDocument(1, 2), NoisyDocument(2, 2), settings);
  EXPECT_EQ(all.rows.size(), 8u * 7);  // tiobench's seven columns
  ASSERT_TRUE(ParseMetricSelection("headline", &settings, &err));
  EXPECT_EQ(MustCompare(NoisyDocument(1, 2), NoisyDocument(2, 2), settings).rows.size(), 8u);
}

TEST(CompareTest, ParameterDifferencesAreNoted) {
  const ResultsDocument base = NoisyDocument(1, 2);
  ResultsDocument next = NoisyDocument(2, 2);
  next.parameters["size_mb"] = 128;
  next.parameters["directory"] = "/elsewhere";  // where, not what: no note
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0], "parameter size_mb differs: 64 (base) vs 128 (new)");
}

TEST(CompareTest, Formatting) {
  EXPECT_EQ(FormatCompareValue(1620.4), "1620");
  EXPECT_EQ(FormatCompareValue(147.75), "147.8");
  EXPECT_EQ(FormatCompareValue(47.754), "47.75");
  EXPECT_EQ(FormatCompareValue(2.5), "2.500");
  EXPECT_EQ(FormatCompareValue(0.0812), "0.0812");
  EXPECT_EQ(FormatCompareValue(0.99941), "0.9994");
  EXPECT_EQ(FormatCompareValue(0), "0.000");
  SampleSummary one = Summarize({47.75}, MeanKind::kHarmonic);
  EXPECT_EQ(FormatCompareSide(one, true), "47.75 n=1");
  EXPECT_EQ(FormatCompareSide(one, false), "-");
  SampleSummary two = Summarize({9, 11}, MeanKind::kArithmetic);
  // t(1) = 12.71: [-2.71, 22.71], cut at 0 for values none of which is negative, so by its ends.
  EXPECT_EQ(FormatCompareSide(two, true), "10.00 (0 – 22.71) n=2");
  SampleSummary tight = Summarize({9, 11, 10, 10}, MeanKind::kArithmetic);
  EXPECT_EQ(FormatCompareSide(tight, true), "10.00 ±13.0% n=4");
  SampleSummary unbounded = Summarize({1, 100}, MeanKind::kHarmonic);
  EXPECT_EQ(FormatCompareSide(unbounded, true), "1.980 n=2 (no interval)");  // never "±inf%"
  ComparisonRow row;
  row.has_change = true;
  row.change_pct = std::numeric_limits<double>::infinity();
  EXPECT_EQ(FormatChange(row), "+inf%");
  row.change_pct = -9.994;
  EXPECT_EQ(FormatChange(row), "-9.99%");
  row.has_p_value = true;
  row.p_value = 0.0004;
  EXPECT_EQ(FormatPValue(row), "<0.001");
}

// The golden pair: a base run on 6.1.0 and a new one on 6.18.44 (paired by label), with a
// regression, an improvement, an incomplete row, a row only in the new file and a
// configuration on each side only.
Comparison GoldenComparison() {
  const std::vector<TestConfig> base_configs = {
      {"6.1.0-dl", "DL", "mq-deadline"}, {"6.1.0-bfq", "BFQ", "bfq"}, {"6.1.0-ky", "KY", "kyber"}};
  const std::vector<TestConfig> new_configs = {{"6.18.44-dl", "DL", "mq-deadline"},
                                               {"6.18.44-bfq", "BFQ", "bfq"},
                                               {"6.18.44-none", "NONE", "none"}};
  Noise base_noise(7), new_noise(8);
  const ResultsDocument base = TioDocument(base_configs, 5, [&](size_t c, TioPhase p, uint32_t) {
    return c == 1 && p == TioPhase::kRandomWrite ? kMissing : base_noise.Around(40, 0.02);
  });
  const ResultsDocument next = TioDocument(new_configs, 5, [&](size_t c, TioPhase p, uint32_t rep) {
    const double v = new_noise.Around(40, 0.02);
    if (c == 0 && p == TioPhase::kSeqRead) return v * 0.9;
    if (c == 0 && p == TioPhase::kRandomRead) return v * 1.12;
    if (c == 1 && p == TioPhase::kSeqWrite && rep >= 3) return kMissing;
    return v;
  });
  Comparison c = MustCompare(base, next);
  c.base_name = "base.json";
  c.new_name = "new.json";
  return c;
}

TEST(CompareTest, TextReportMatchesGolden) {
  const Comparison c = GoldenComparison();
  EXPECT_EQ(c.CountOf(Verdict::kRegression), 1u);
  EXPECT_EQ(c.CountOf(Verdict::kImprovement), 1u);
  testing::ExpectMatchesGolden("compare_text.txt", RenderCompareText(c));
}

TEST(CompareTest, JunitReportMatchesGolden) {
  testing::ExpectMatchesGolden("compare_junit.xml", RenderCompareJunit(GoldenComparison()));
}

// The JUnit document is well-formed XML, checked by libxml2's xmllint when it is installed.
TEST(CompareTest, JunitIsWellFormedXml) {
  Comparison c = GoldenComparison();
  c.base_name = "odd <name> & \"quotes\"\x02.json";
  testing::ScopedTempDir dir;
  const std::string path = dir.path() + "/junit.xml";
  std::string err;
  {
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    const std::string xml = RenderCompareJunit(c);
    std::fwrite(xml.data(), 1, xml.size(), f);
    std::fclose(f);
  }
  ProcessResult which;
  if (!RunProcess({"sh", "-c", "command -v xmllint"}, {}, &which, &err) || which.exit_code != 0) {
    GTEST_SKIP() << "xmllint (libxml2-utils) is not installed";
  }
  ProcessResult r;
  ASSERT_TRUE(RunProcess({"xmllint", "--noout", path}, {}, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
}

TEST(CompareTest, JsonCarriesTheVerdictsAndBothSamples) {
  const nlohmann::json j = CompareToJson(GoldenComparison());
  EXPECT_EQ(j["test"], kCompareTestName);
  EXPECT_EQ(j["counts"]["regressions"], 1);
  bool found = false;
  for (const nlohmann::json& row : j["rows"]) {
    if (row["verdict"] != "regression") continue;
    found = true;
    EXPECT_EQ(row["section"], "seq_read");
    EXPECT_EQ(row["base"]["values"].size(), 5u);
    EXPECT_EQ(row["direction"], "higher");
    EXPECT_EQ(row["mean"], "hmean");
    EXPECT_LT(row["p_value"].get<double>(), 0.05);
  }
  EXPECT_TRUE(found);
}

// The built binary on saved files: 0 without a regression, 1 with one, 2 for bad input (the
// gate's other rules and exit 3: compare_gate_test.cc).
class CompareCliTest : public ::testing::Test {
 protected:
  struct Run {
    int exit_code;
    std::string out;
    std::string err;
  };
  Run Compare(std::vector<std::string> args) {
    args.insert(args.begin(), {ELEVBENCH_BINARY, "compare"});
    ProcessResult r;
    std::string err;
    ProcessOptions opts;
    opts.timeout_seconds = 60;
    EXPECT_TRUE(RunProcess(args, opts, &r, &err)) << err;
    return {r.exit_code, r.output, r.error_output};
  }
  std::string Save(const std::string& name, const ResultsDocument& doc) {
    const std::string path = dir_.path() + "/" + name;
    std::string err;
    EXPECT_TRUE(SaveResultsFile(path, doc, &err)) << err;
    return path;
  }
  testing::ScopedTempDir dir_;
};

TEST_F(CompareCliTest, ExitCodesGateACiJob) {
  const std::string base = Save("base.json", NoisyDocument(1, 5));
  const std::string same = Save("same.json", NoisyDocument(2, 5));
  const std::string worse = Save("worse.json", NoisyDocument(2, 5, [](size_t c, TioPhase p) {
                                   return c == 0 && p == TioPhase::kSeqRead ? 0.9 : 1.0;
                                 }));
  Run ok = Compare({base, same});
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("0 regressions"), std::string::npos) << ok.out;

  Run bad = Compare({base, worse});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_NE(bad.out.find("REGRESSION"), std::string::npos) << bad.out;
  EXPECT_EQ(bad.err.find('\n'), bad.err.size() - 1) << "one line: " << bad.err;
  EXPECT_NE(bad.err.find("gate: regressed: 1 regression (seq_read threads=1 6.18.44-dl"),
            std::string::npos)
      << bad.err;
  EXPECT_TRUE(ok.err.empty()) << ok.err;

  Run junit = Compare({base, worse, "--format", "junit"});
  EXPECT_EQ(junit.exit_code, 1);
  EXPECT_NE(junit.out.find("<failure type=\"regression\""), std::string::npos) << junit.out;
  Run json = Compare({base, worse, "--format", "json"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(json.out)["counts"]["regressions"], 1);

  Run lenient = Compare({base, worse, "--threshold", "20"});
  EXPECT_EQ(lenient.exit_code, 0) << lenient.err;
  // Inside worse.json, dl reads 10 % slower than bfq: bfq → dl is a regression, dl → bfq not.
  Run between = Compare({worse, "--between", "bfq,dl"});
  EXPECT_EQ(between.exit_code, 1) << between.err;
  EXPECT_NE(between.out.find("6.18.44-bfq -> 6.18.44-dl"), std::string::npos) << between.out;
  EXPECT_EQ(Compare({worse, "--between", "DL,mq-deadline"}).exit_code, 2);  // the same one
  EXPECT_EQ(Compare({worse, "--between", "dl,bfq"}).exit_code, 0);
}

TEST_F(CompareCliTest, BadInputIsExitTwoWithOneLine) {
  const std::string base = Save("base.json", NoisyDocument(1, 2));
  auto expect_usage = [&](std::vector<std::string> args, const std::string& needle) {
    Run r = Compare(std::move(args));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  };
  expect_usage({base, dir_.path() + "/missing.json"}, "missing.json");
  expect_usage({base, testing::TestDataPath("golden/nickbench_small.json")}, "different suites");
  expect_usage({base}, "--between");
  expect_usage({base, base, "--format", "xml"}, "--format");
  expect_usage({base, "--between", "dl,nope"}, "no configuration 'nope'");
  expect_usage({base, base, "--metrics", "bogus"}, "no metric 'bogus'");
  expect_usage({base, base, "--alpha", "2"}, "--alpha");
}

}  // namespace
}  // namespace elevbench
