// How `elevbench compare` pairs rows (harness/compare/compare.h): configurations across kernels
// by label, then by scheduler; two configurations of one file (--between); and what it refuses
// or notes: mismatched input, the metric selection, differences of parameters.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compare_fixture.h"
#include "harness/compare/compare.h"
#include "reporters/compare_text.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::FindRow;
using testing::MustCompare;
using testing::NoisyDocument;

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

// #45: the codes the rows show work without labels (compare --help's own example), in any
// case, and identifiers ignore case too.
TEST(CompareTest, BetweenTakesTheCodesTheRowsShow) {
  const ResultsDocument doc = NoisyDocument(
      1, 5, [](size_t c, TioPhase) { return c == 1 ? 0.9 : 1.0; },
      {{"6.18.44-dl", "", "mq-deadline"}, {"6.18.44-bfq-ll0", "", "bfq:low_latency=0"}});
  for (const char* between : {"dl,bfq-ll0", "DL,BFQ-LL0", "6.18.44-DL,bfq-ll0"}) {
    CompareSettings settings;
    std::string err;
    ASSERT_TRUE(ParseBetween(between, &settings, &err)) << err;
    Comparison c;
    ASSERT_TRUE(CompareDocuments(doc, doc, MeasurerOf(doc.suite), settings, &c, &err))
        << between << ": " << err;
    ASSERT_EQ(c.pairs.size(), 1u) << between;
    EXPECT_EQ(c.pairs[0].base.identifier, "6.18.44-dl");
    EXPECT_EQ(c.pairs[0].next.identifier, "6.18.44-bfq-ll0");
  }
  // A code the kernel's prefix shares ("2.5.65-mm4-"): the code is what follows it.
  const ResultsDocument mm = NoisyDocument(
      1, 2, nullptr, {{"2.5.65-mm4-as", "", "anticipatory"}, {"2.5.65-mm4-dl", "", "deadline"}});
  CompareSettings settings;
  std::string err;
  ASSERT_TRUE(ParseBetween("AS,dl", &settings, &err)) << err;
  Comparison c;
  ASSERT_TRUE(CompareDocuments(mm, mm, MeasurerOf(mm.suite), settings, &c, &err)) << err;
  EXPECT_EQ(c.pairs[0].base.identifier, "2.5.65-mm4-as");
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

// A composite suite (post-2003) keeps its parts' parameters one level down: their directories
// say where too, and leave no note; another size there does.
TEST(CompareTest, APartsDirectoryIsNoParameterDifference) {
  ResultsDocument base = NoisyDocument(1, 2), next = NoisyDocument(2, 2);
  base.parameters["part_parameters"] = {{"probes", {{"directory", "/var/tmp/elevbench-a/mnt"}}}};
  next.parameters["part_parameters"] = {{"probes", {{"directory", "/var/tmp/elevbench-b/mnt"}}}};
  EXPECT_TRUE(MustCompare(base, next).notes.empty());
  next.parameters["part_parameters"]["probes"]["size_mb"] = 10;
  const Comparison c = MustCompare(base, next);
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_EQ(c.notes[0].rfind("parameter part_parameters differs: ", 0), 0u) << c.notes[0];
}

TEST(ParametersOfWhatWasMeasuredTest, LeavesOutEveryDirectoryAtAnyDepth) {
  const nlohmann::json given = {{"directory", "/mnt"},
                                {"size_mb", 8},
                                {"parts", {{{"directory", "/a"}, {"n", 1}}}},
                                {"part_parameters", {{"probes", {{"directory", "/b"}}}}}};
  const nlohmann::json kept = {{"size_mb", 8},
                               {"parts", {{{"n", 1}}}},
                               {"part_parameters", {{"probes", nlohmann::json::object()}}}};
  EXPECT_EQ(ParametersOfWhatWasMeasured(given), kept);
  EXPECT_EQ(ParametersOfWhatWasMeasured(nlohmann::json("directory")), "directory");
}

}  // namespace
}  // namespace elevbench
