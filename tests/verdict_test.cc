// The verdict block's computation (harness/stats/verdict.h): the best configuration by the
// metric's direction, ratios that are always >= 1, the U test only with 4 or more values a side,
// compare's noise threshold, DNF and failed configurations, and the request tracer's evidence
// from the whole cell and from a phase.

#include "harness/stats/verdict.h"

#include <gtest/gtest.h>

#include "fakes.h"
#include "harness/compare/compare.h"
#include "reporters/verdict_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

const MetricInfo kVerdictRate{"io_rate_mb_s", "MB/s", Direction::kHigherIsBetter,
                              MeanKind::kHarmonic, true};
const MetricInfo kVerdictTime{"elapsed_seconds", "s", Direction::kLowerIsBetter,
                              MeanKind::kArithmetic, true};

// A document of configurations "k-<label>" with labels, and their measurements.
struct VerdictFixture {
  ResultsDocument doc;
  std::vector<Measurement> measurements;

  explicit VerdictFixture(std::vector<std::string> labels) {
    doc.suite = "nickbench";
    doc.labels = labels;
    for (const std::string& l : labels) doc.identifiers.push_back("k-" + l);
  }

  // One value per repetition of `label` in section bench3.
  void Add(const std::string& label, const MetricInfo& metric, const std::vector<double>& values,
           const std::string& status = "ok", const std::string& section = "bench3",
           const std::string& row = "") {
    for (size_t i = 0; i < values.size(); ++i) {
      Measurement m;
      m.suite = doc.suite;
      m.section = section;
      m.row = row;
      m.identifier = "k-" + label;
      m.label = label;
      m.repetition = static_cast<uint32_t>(i);
      m.metric = metric;
      m.value = values[i];
      m.status = status;
      measurements.push_back(m);
    }
  }

  // `run --kernels`: the measurements of `label` ran under `kernel`, as the configuration
  // `configuration` (its records' "kernel" and "configuration_label" fields; "": none).
  void SetKernel(const std::string& label, const std::string& kernel,
                 const std::string& configuration = "") {
    for (Measurement& m : measurements) {
      if (m.label != label) continue;
      m.kernel = kernel;
      m.configuration_label = configuration;
    }
  }

  // A traced cell of `label` with the variant key `variant`.
  void AddCell(const std::string& label, uint32_t repetition, nlohmann::json variant,
               nlohmann::json trace) {
    CellRecord c;
    c.identifier = "k-" + label;
    c.label = label;
    c.repetition = repetition;
    c.variant = std::move(variant);
    c.status = "ok";
    if (!trace.is_null()) c.request_trace = testing::FakeTraceRecord(trace);
    doc.cells.push_back(std::move(c));
  }

  VerdictBlock Compute(const VerdictSettings& settings = {}) const {
    return ComputeVerdict(doc, measurements, settings);
  }
};

TEST(VerdictTest, HigherIsBetterPicksTheLargestMeanAndTestsFiveAgainstFive) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20, 21, 20.5, 20.8, 21.2});
  f.Add("AS", kVerdictRate, {39, 38.2, 39.8, 38.6, 39.4});
  const VerdictBlock block = f.Compute();
  ASSERT_EQ(block.lines.size(), 1u);
  const VerdictLine& line = block.lines[0];
  ASSERT_TRUE(line.has_best);
  EXPECT_EQ(line.best.name, "AS");
  ASSERT_EQ(line.others.size(), 1u);
  const VerdictVersus& v = line.others[0];
  EXPECT_EQ(v.other.name, "DL");
  EXPECT_EQ(v.kind, VerdictKind::kBetter);
  EXPECT_TRUE(v.tested);
  EXPECT_NEAR(v.p_value, 2.0 / 252, 1e-9);  // exact: completely separated 5 against 5
  EXPECT_NEAR(v.ratio, line.best.mean / v.other.mean, 1e-12);
  EXPECT_GT(v.ratio, 1.8);
  EXPECT_EQ(VerdictLineText(block, line), "bench3 io_rate_mb_s: AS best, 1.88× DL (p=0.008, n=5)");
}

TEST(VerdictTest, LowerIsBetterRatioIsOtherOverBestSoAlwaysAtLeastOne) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictTime, {10, 11, 10.5, 10.2});
  f.Add("AS", kVerdictTime, {30, 31, 29, 30.5});
  const VerdictBlock block = f.Compute();
  const VerdictLine& line = block.lines.at(0);
  EXPECT_EQ(line.best.name, "DL");
  EXPECT_NEAR(line.others.at(0).ratio, 30.125 / 10.425, 1e-9);
  EXPECT_EQ(line.others.at(0).kind, VerdictKind::kBetter);
  EXPECT_NEAR(line.others.at(0).p_value, 2.0 / 70, 1e-9);
}

TEST(VerdictTest, FewerThanFourValuesASideAreNotTested) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20});
  f.Add("AS", kVerdictRate, {40});
  VerdictBlock block = f.Compute();
  const VerdictVersus& v = block.lines.at(0).others.at(0);
  EXPECT_FALSE(v.tested);
  EXPECT_EQ(v.kind, VerdictKind::kUntested);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: AS best, 2.00× DL (n=1: not tested, --repetitions 4 or more)");

  VerdictFixture g({"DL", "AS"});  // 4 against 3: still not tested
  g.Add("DL", kVerdictRate, {20, 21, 22, 23});
  g.Add("AS", kVerdictRate, {40, 41, 42});
  block = g.Compute();
  EXPECT_FALSE(block.lines.at(0).others.at(0).tested);
  EXPECT_NE(VerdictLineText(block, block.lines[0]).find("(n=3/4: not tested"), std::string::npos);
}

// The same numbers on both sides are no difference, whether or not a test could be made
// (issue 45: "6.18.44-dl best, 1.00× 6.18.44-bfq-ll0" of two identical runs).
TEST(VerdictTest, IdenticalValuesAreNoDifference) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20});
  f.Add("AS", kVerdictRate, {20});
  VerdictBlock block = f.Compute();
  EXPECT_TRUE(block.lines.at(0).others.at(0).identical);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: no difference between DL and AS (identical values, n=1)");

  VerdictFixture g({"DL", "AS", "CF"});  // one alike, one not
  g.Add("DL", kVerdictRate, {20});
  g.Add("AS", kVerdictRate, {20});
  g.Add("CF", kVerdictRate, {10});
  block = g.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: DL best, AS no difference (identical values, n=1), 2.00× CF "
            "(n=1: not tested, --repetitions 4 or more)");
}

// The "not tested" note is said once per line, after the configurations it is about, even
// when another configuration has no value (morton's test7: one DNF, two at n = 1), and each
// says its own n when the counts differ.
TEST(VerdictTest, OneNotTestedNotePerLine) {
  VerdictFixture f({"A", "B", "C", "D"});
  f.Add("A", kVerdictTime, {0}, "dnf");
  f.Add("B", kVerdictTime, {1.0});
  f.Add("C", kVerdictTime, {1.56});
  f.Add("D", kVerdictTime, {2.12});
  VerdictBlock block = f.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines.at(0)),
            "bench3 elapsed_seconds: B best, A DNF (no value), 1.56× C, 2.12× D (n=1: not "
            "tested, --repetitions 4 or more)");

  VerdictFixture g({"A", "B", "C"});
  g.Add("A", kVerdictTime, {1.0});
  g.Add("B", kVerdictTime, {1.5});
  g.Add("C", kVerdictTime, {2.0, 2.0});
  block = g.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines.at(0)),
            "bench3 elapsed_seconds: A best, 1.50× B (n=1), 2.00× C (n=1/2) (not tested, "
            "--repetitions 4 or more)");
}

// Within the threshold (or untested and within 0.5 %), no configuration is called best with
// the others at "1.00×": "DL best, 1.00× AS (p=0.004, n=5: within the 5 % threshold)" read as a
// contradiction (issue 45). A line with a configuration beyond that keeps its best.
TEST(VerdictTest, WithinTheThresholdNamesNoBest) {
  VerdictFixture f({"DL", "AS"});  // separated (p = 0.008), 0.04 % apart
  f.Add("DL", kVerdictRate, {0.9999, 0.99991, 0.99992, 0.99993, 0.99994});
  f.Add("AS", kVerdictRate, {0.9995, 0.99951, 0.99952, 0.99953, 0.99954});
  VerdictBlock block = f.Compute();
  EXPECT_EQ(block.lines.at(0).others.at(0).kind, VerdictKind::kWithinThreshold);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: DL and AS within 0.1 % (p=0.008, n=5: within the 5 % "
            "threshold)");

  VerdictFixture one({"A", "B", "C"});  // n = 1, within 0.5 %: not tested, and no best
  one.Add("A", kVerdictRate, {0.99991});
  one.Add("B", kVerdictRate, {0.99949});
  one.Add("C", kVerdictRate, {0.998});
  block = one.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: A, B and C within 0.2 % (n=1: not tested, --repetitions 4 or "
            "more)");

  // 11 % below: A is best again, and B and C are said apart from it with the decimals that
  // show their 0.04 % and 0.2 % (#45: "1.00× B" read as a tie).
  one.Add("D", kVerdictRate, {0.9});
  one.doc.identifiers.push_back("k-D");
  one.doc.labels.push_back("D");
  block = one.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: A best, 1.0004× B, 1.002× C, 1.11× D (n=1: not tested, "
            "--repetitions 4 or more)");
}

// "No difference" needs a test that could have found one and did not: a significant change
// inside the threshold is said to be one, and n = 1 is not tested.
TEST(VerdictTest, NoDifferenceOnlyWhenTestedAndNotSignificant) {
  VerdictFixture f({"DL", "AS"});  // separated, so p = 0.008, but only 3 % apart
  f.Add("DL", kVerdictRate, {100, 100.2, 100.4, 100.6, 100.8});
  f.Add("AS", kVerdictRate, {103, 103.2, 103.4, 103.6, 103.8});
  VerdictBlock block = f.Compute();
  EXPECT_DOUBLE_EQ(block.settings.threshold_pct, CompareSettings{}.threshold_pct);
  EXPECT_EQ(block.lines.at(0).others.at(0).kind, VerdictKind::kWithinThreshold);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: AS and DL within 3.0 % (p=0.008, n=5: within the 5 % "
            "threshold)");
  // The same samples against a threshold of 2 %: a difference.
  VerdictSettings tight;
  tight.threshold_pct = 2;
  EXPECT_EQ(f.Compute(tight).lines.at(0).others.at(0).kind, VerdictKind::kBetter);

  VerdictFixture g({"DL", "AS"});  // 20 % apart in the means, but overlapping
  g.Add("DL", kVerdictRate, {10, 30, 12, 28, 20});
  g.Add("AS", kVerdictRate, {40, 11, 29, 13, 35});
  block = g.Compute();
  const VerdictVersus& v = block.lines.at(0).others.at(0);
  EXPECT_TRUE(v.tested);
  EXPECT_GE(v.p_value, 0.05);
  EXPECT_EQ(v.kind, VerdictKind::kNoDifference);

  VerdictFixture one({"DL", "AS", "CF"});  // n = 1, 2 % and 1 % apart: not "no difference"
  one.Add("DL", kVerdictRate, {100});
  one.Add("AS", kVerdictRate, {102});
  one.Add("CF", kVerdictRate, {101});
  block = one.Compute();
  EXPECT_EQ(block.lines.at(0).others.at(0).kind, VerdictKind::kUntested);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: AS best, 1.02× DL, 1.01× CF (n=1: not tested, --repetitions 4 "
            "or more)");
}

TEST(VerdictTest, ADnfOrFailedConfigurationSaysSoInsteadOfARatio) {
  VerdictFixture f({"DL", "AS", "CF"});
  f.Add("DL", kVerdictTime, {0, 0}, "dnf");
  f.Add("AS", kVerdictTime, {12, 0}, "ok");
  f.measurements.back().status = "dnf";  // AS: one finished, one did not
  f.Add("CF", kVerdictTime, {14, 15});
  // A configuration with cells and no measurement at all: every cell failed.
  CellRecord failed;
  failed.identifier = "k-NO";
  failed.label = "NO";
  failed.status = "failed";
  f.doc.cells.push_back(failed);
  f.doc.identifiers.push_back("k-NO");
  f.doc.labels.push_back("NO");
  const VerdictBlock block = f.Compute();
  const VerdictLine& line = block.lines.at(0);
  EXPECT_EQ(line.best.name, "AS");
  EXPECT_EQ(line.best.dnf, 1u);
  ASSERT_EQ(line.others.size(), 3u);
  EXPECT_EQ(line.others[0].kind, VerdictKind::kNotMeasured);
  EXPECT_EQ(line.others[0].other.dnf, 2u);
  EXPECT_EQ(line.others[2].kind, VerdictKind::kNotMeasured);
  EXPECT_EQ(line.others[2].other.failed, 1u);
  EXPECT_EQ(VerdictLineText(block, line),
            "bench3 elapsed_seconds: AS best on 1 of 2 repetitions (1 DNF), DL DNF (no value), NO "
            "failed (no value), "
            "1.21× CF (n=1/2: not tested, --repetitions 4 or more)");  // the untested last
}

// #45: "AS best (2 failed)" read as a best of three repetitions; its number is of one.
TEST(VerdictTest, ABestOnPartOfItsRepetitionsSaysOnHowMany) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20, 20.5, 21});
  f.Add("AS", kVerdictRate, {40, 0, 0});
  f.measurements[4].status = f.measurements[5].status = "failed";  // AS: repetitions 1 and 2
  VerdictBlock block = f.Compute();
  ASSERT_EQ(block.lines.at(0).best.failed, 2u);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: AS best on 1 of 3 repetitions (2 failed), 1.95× DL (n=1/3: not "
            "tested, --repetitions 4 or more)");

  VerdictFixture g({"DL", "AS"});  // the same numbers: no best, and still of how many
  g.Add("DL", kVerdictRate, {20});
  g.Add("AS", kVerdictRate, {20, 0});
  g.measurements[2].status = "dnf";
  block = g.Compute();
  EXPECT_EQ(VerdictLineText(block, block.lines.at(0)),
            "bench3 io_rate_mb_s: no difference between DL and AS (identical values, n=1, 1 DNF)");
}

TEST(VerdictTest, NamesAreLabelsWhenTheDocumentHasThemElseIdentifiers) {
  VerdictFixture f({"DL", "AS"});
  f.doc.labels.clear();
  f.Add("DL", kVerdictRate, {20});
  f.Add("AS", kVerdictRate, {40});
  EXPECT_EQ(f.Compute().lines.at(0).best.name, "k-AS");
}

TEST(VerdictTest, OnlyHeadlineRowsAndOneConfigurationIsNamedAlone) {
  VerdictFixture f({"DL"});
  MetricInfo cpu = kVerdictTime;
  cpu.name = "cpu_seconds";
  cpu.headline = false;
  f.Add("DL", cpu, {1, 2});
  f.Add("DL", kVerdictRate, {20, 22});
  const VerdictBlock block = f.Compute();
  ASSERT_EQ(block.lines.size(), 1u);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 io_rate_mb_s: DL 20.95 MB/s (n=2; the only configuration)");
}

TEST(VerdictTest, AMetricWithoutABetterDirectionListsTheMeans) {
  VerdictFixture f({"DL", "AS"});
  MetricInfo ratio{"metric", "ratio", Direction::kNeither, MeanKind::kArithmetic, true};
  f.Add("DL", ratio, {1.0});
  f.Add("AS", ratio, {0, 0}, "dnf");
  const VerdictBlock block = f.Compute();
  EXPECT_FALSE(block.lines.at(0).has_best);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]),
            "bench3 metric: no better direction (DL 1.000 ratio, AS DNF)");
}

TEST(VerdictTest, EvidenceOfTheBestAndTheRunnerUpFromTheirCellsOfTheRow) {
  VerdictFixture f({"DL", "AS", "NONE"});
  f.Add("DL", kVerdictRate, {20, 21, 20.5, 20.8});
  f.Add("AS", kVerdictRate, {39, 38, 40, 39.5});
  f.Add("NONE", kVerdictRate, {10, 11, 10.5, 10.8});
  using testing::FakeRequestTrace;
  using testing::FakeTraceDirection;
  const nlohmann::json bench3 = {{"bench", 3}};
  const nlohmann::json few_writes = FakeTraceDirection(8, 1, 1.0);
  // AS: two cells, dispatch runs of 40 and 42, 2 % and 4 % seeks; DL: runs of 1, 90 % seeks.
  f.AddCell("AS", 0, bench3, FakeRequestTrace(FakeTraceDirection(4000, 40, 0.02), few_writes));
  f.AddCell("AS", 1, bench3, FakeRequestTrace(FakeTraceDirection(4200, 42, 0.04), few_writes));
  f.AddCell("DL", 0, bench3, FakeRequestTrace(FakeTraceDirection(4000, 1, 0.9), few_writes));
  // Another bench's cell of DL does not count for bench3.
  f.AddCell("DL", 1, {{"bench", 2}}, FakeRequestTrace(FakeTraceDirection(100, 9, 0.1), few_writes));
  f.AddCell("NONE", 0, bench3, FakeRequestTrace(FakeTraceDirection(4000, 2, 0.5), few_writes));
  const VerdictBlock block = f.Compute();
  const VerdictEvidence& e = block.lines.at(0).evidence;
  ASSERT_TRUE(e.present);
  EXPECT_EQ(e.direction, "read");
  EXPECT_EQ(e.runner_up, "DL");
  EXPECT_EQ(e.phase, "");
  EXPECT_DOUBLE_EQ(e.best_dispatch_run, 41);
  EXPECT_DOUBLE_EQ(e.best_seek_share, 0.03);
  EXPECT_DOUBLE_EQ(e.runner_up_dispatch_run, 1);
  EXPECT_DOUBLE_EQ(e.runner_up_seek_share, 0.9);
  const std::string text = VerdictLineText(block, block.lines[0]);
  EXPECT_NE(text.find(" — read dispatch run 41 vs 1; seeks 3 % vs 90 % (vs DL)"), std::string::npos)
      << text;
}

TEST(VerdictTest, EvidenceOfAPhaseRowComesFromThatPhaseAndItsBusierDirection) {
  VerdictFixture f({"DL", "AS"});
  const MetricInfo rate{"rate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true};
  f.doc.suite = "tiobench";
  f.Add("DL", rate, {50, 51, 52, 53}, "ok", "seq_write", "threads=4");
  f.Add("AS", rate, {40, 41, 42, 43}, "ok", "seq_write", "threads=4");
  for (const std::string label : {"DL", "AS"}) {
    const bool dl = label == "DL";
    nlohmann::json trace = testing::FakeRequestTrace(testing::FakeTraceDirection(9000, 3, 0.5),
                                                     testing::FakeTraceDirection(9000, 3, 0.5));
    trace["phases"] = {
        {"seq_write",
         {{"read", testing::FakeTraceDirection(10, 1, 1.0)},
          {"write", testing::FakeTraceDirection(5000, dl ? 64 : 8, dl ? 0.01 : 0.3)}}},
        {"seq_read",
         {{"read", testing::FakeTraceDirection(5000, 2, 0.6)},
          {"write", testing::FakeTraceDirection(0, 1, 0)}}}};
    f.AddCell(label, 0, {{"threads", 4}}, trace);
  }
  const VerdictBlock block = f.Compute();
  const VerdictEvidence& e = block.lines.at(0).evidence;
  ASSERT_TRUE(e.present);
  EXPECT_EQ(e.phase, "seq_write");
  EXPECT_EQ(e.direction, "write");
  EXPECT_DOUBLE_EQ(e.best_dispatch_run, 64);
  EXPECT_DOUBLE_EQ(e.runner_up_dispatch_run, 8);
  EXPECT_NE(VerdictLineText(block, block.lines[0])
                .find("— write dispatch run 64 vs 8; seeks 1 % vs 30 %"),
            std::string::npos);
}

TEST(VerdictTest, NoTraceNoEvidence) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20});
  f.Add("AS", kVerdictRate, {40});
  f.AddCell("DL", 0, {{"bench", 3}}, nullptr);
  f.AddCell("AS", 0, {{"bench", 3}}, nullptr);
  const VerdictBlock block = f.Compute();
  EXPECT_FALSE(block.lines.at(0).evidence.present);
  EXPECT_EQ(VerdictLineText(block, block.lines[0]).find(" — "), std::string::npos);
}

TEST(VerdictTest, TheBlockEndsTextWithABlankLineAndAHeading) {
  VerdictFixture f({"DL", "AS"});
  f.Add("DL", kVerdictRate, {20});
  f.Add("AS", kVerdictRate, {40});
  EXPECT_EQ(RenderVerdictText(f.Compute()),
            "\nVerdict (headline rows; U test two-sided, p < 0.05 with 4 or more values a side, "
            "threshold 5 %):\nbench3 io_rate_mb_s: AS best, 2.00× DL (n=1: not tested, "
            "--repetitions 4 or more)\n");
  EXPECT_EQ(RenderVerdictText(VerdictFixture({"DL"}).Compute()),
            "\nVerdict (headline rows; U test two-sided, p < 0.05 with 4 or more values a side, "
            "threshold 5 %):\nNo headline metric was measured.\n");
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// `run --kernels`: one line per kernel (its schedulers) and one per configuration (its kernels).
TEST(VerdictKernelsTest, SeveralKernelsGiveALinePerKernelAndPerConfiguration) {
  VerdictFixture f({"old-DL", "old-AS", "new-DL", "new-AS"});
  f.doc.context["kernels"] = {{{"label", "old"}}, {{"label", "new"}}};
  f.Add("old-DL", kVerdictRate, {10, 10.1, 10.2, 10.3});
  f.Add("old-AS", kVerdictRate, {20, 20.1, 20.2, 20.3});
  f.Add("new-DL", kVerdictRate, {30, 30.1, 30.2, 30.3});
  f.Add("new-AS", kVerdictRate, {40, 40.1, 40.2, 40.3});
  for (const char* l : {"old", "new"}) {
    f.SetKernel(std::string(l) + "-DL", l, "DL");
    f.SetKernel(std::string(l) + "-AS", l, "AS");
  }
  const VerdictBlock b = ComputeVerdict(f.doc, f.measurements, VerdictSettings{});
  ASSERT_EQ(b.lines.size(), 4u);
  EXPECT_EQ(b.lines[0].group, "old");
  EXPECT_EQ(b.lines[0].best.name, "old-AS");
  ASSERT_EQ(b.lines[0].others.size(), 1u);
  EXPECT_EQ(b.lines[0].others[0].other.name, "old-DL");
  EXPECT_EQ(b.lines[1].group, "new");
  EXPECT_EQ(b.lines[2].group, "DL across kernels");
  EXPECT_EQ(b.lines[2].best.name, "new-DL");
  EXPECT_EQ(b.lines[3].group, "AS across kernels");
  EXPECT_NE(VerdictLineText(b, b.lines[2]).find("[DL across kernels] bench3"), std::string::npos)
      << VerdictLineText(b, b.lines[2]);
}

TEST(VerdictKernelsTest, OneKernelKeepsOneLine) {
  VerdictFixture f({"old-DL", "old-AS"});
  f.doc.context["kernels"] = {{{"label", "old"}}};
  f.Add("old-DL", kVerdictRate, {10, 10.1, 10.2, 10.3});
  f.Add("old-AS", kVerdictRate, {20, 20.1, 20.2, 20.3});
  for (const char* l : {"old-DL", "old-AS"}) f.SetKernel(l, "old");
  const VerdictBlock b = ComputeVerdict(f.doc, f.measurements, VerdictSettings{});
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].group, "");
}

// Issue 57 §3: the kernel is the rows' field, never their labels' prefix. Here no label starts
// with its kernel (a guest's rows named otherwise), and the field still gives one line per
// kernel with that kernel's rows alone: before, the labels were searched for the kernels of
// context.kernels, none matched, and the four rows made one line across both kernels.
TEST(VerdictKernelsTest, TheKernelFieldGroupsRowsWhateverTheirLabels) {
  VerdictFixture f({"a-DL", "a-AS", "b-DL", "b-AS"});
  f.doc.context["kernels"] = {{{"label", "6.1"}}, {{"label", "6.12"}}};
  f.Add("a-DL", kVerdictRate, {10, 10.1, 10.2, 10.3});
  f.Add("a-AS", kVerdictRate, {20, 20.1, 20.2, 20.3});
  f.Add("b-DL", kVerdictRate, {30, 30.1, 30.2, 30.3});
  f.Add("b-AS", kVerdictRate, {40, 40.1, 40.2, 40.3});
  for (const char* l : {"a-DL", "a-AS"}) f.SetKernel(l, "6.1");
  for (const char* l : {"b-DL", "b-AS"}) f.SetKernel(l, "6.12");
  const VerdictBlock b = ComputeVerdict(f.doc, f.measurements, VerdictSettings{});
  ASSERT_EQ(b.lines.size(), 2u);
  EXPECT_EQ(b.lines[0].group, "6.1");
  EXPECT_EQ(b.lines[0].best.name, "a-AS");
  ASSERT_EQ(b.lines[0].others.size(), 1u);
  EXPECT_EQ(b.lines[0].others[0].other.name, "a-DL");
  EXPECT_EQ(b.lines[1].group, "6.12");
  EXPECT_EQ(b.lines[1].best.name, "b-AS");
}

// Issue 60: the line across kernels is named by the rows' configuration label, never by their
// labels less a kernel's prefix. Here the second kernel's @LABEL ("new") is no prefix of its
// rows' labels, which a prefix strip left whole ("b-AS": no line across kernels for AS).
TEST(VerdictKernelsTest, TheConfigurationLabelNamesTheLineAcrossKernels) {
  VerdictFixture f({"6.1.0-50-cloud-DL", "6.1.0-50-cloud-AS", "b-DL", "b-AS"});
  f.doc.context["kernels"] = {{{"label", "6.1.0-50-cloud"}}, {{"label", "new"}}};
  f.Add("6.1.0-50-cloud-DL", kVerdictRate, {10, 10.1, 10.2, 10.3});
  f.Add("6.1.0-50-cloud-AS", kVerdictRate, {20, 20.1, 20.2, 20.3});
  f.Add("b-DL", kVerdictRate, {30, 30.1, 30.2, 30.3});
  f.Add("b-AS", kVerdictRate, {40, 40.1, 40.2, 40.3});
  f.SetKernel("6.1.0-50-cloud-DL", "6.1.0-50-cloud", "DL");
  f.SetKernel("6.1.0-50-cloud-AS", "6.1.0-50-cloud", "AS");
  f.SetKernel("b-DL", "new", "DL");
  f.SetKernel("b-AS", "new", "AS");
  const VerdictBlock b = ComputeVerdict(f.doc, f.measurements, VerdictSettings{});
  ASSERT_EQ(b.lines.size(), 4u);
  EXPECT_EQ(b.lines[0].group, "6.1.0-50-cloud");
  EXPECT_EQ(b.lines[1].group, "new");
  EXPECT_EQ(b.lines[2].group, "DL across kernels");
  EXPECT_EQ(b.lines[3].group, "AS across kernels");
  EXPECT_EQ(b.lines[3].best.name, "b-AS");
  ASSERT_EQ(b.lines[3].others.size(), 1u);
  EXPECT_EQ(b.lines[3].others[0].other.name, "6.1.0-50-cloud-AS");
}

// A row without a configuration label (a file written before the field) is named by its whole
// label, else identifier: no kernel's prefix is taken off it.
TEST(VerdictKernelsTest, ARowWithoutAConfigurationLabelKeepsItsWholeLabel) {
  MetricRow row;
  row.identifier = "old-dl";
  row.label = "old-DL";
  row.kernel = "old";
  EXPECT_EQ(ConfigurationAcrossKernels(row), "old-DL");
  row.label.clear();
  EXPECT_EQ(ConfigurationAcrossKernels(row), "old-dl");
  row.configuration_label = "DL";
  EXPECT_EQ(ConfigurationAcrossKernels(row), "DL");
}

// A file written before the field (context.kernels, labels prefixed, no "kernel") reads as one
// kernel: nothing is inferred from its labels (docs/output-format.md).
TEST(VerdictKernelsTest, AFileWithoutTheFieldIsOneKernel) {
  VerdictFixture f({"old-DL", "new-DL"});
  f.doc.context["kernels"] = {{{"label", "old"}}, {{"label", "new"}}};
  f.Add("old-DL", kVerdictRate, {10, 10.1, 10.2, 10.3});
  f.Add("new-DL", kVerdictRate, {30, 30.1, 30.2, 30.3});
  const VerdictBlock b = ComputeVerdict(f.doc, f.measurements, VerdictSettings{});
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].group, "");
  EXPECT_EQ(b.lines[0].best.name, "new-DL");
}

}  // namespace
}  // namespace elevbench
