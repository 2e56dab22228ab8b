// The gate of `elevbench compare` (docs/compare.md, "The gate"): one table row per rule
// (regression, failed, inconclusive, missing, parameters), what --allow relaxes, the verdicts
// that need a test (inconclusive, never "unchanged", without one), and the built binary's exit
// codes on the issue's two compares (#29).

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <optional>

#include "harness/compare/compare.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

const MetricInfo kGateRate{"rate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic,
                           true};

// One side of a gate case: the values of one configuration's rate row; a NaN is a repetition
// that did not finish (status "dnf").
struct GateSide {
  std::vector<double> values;
};

std::vector<MetricRow> GateRows(const GateSide& side, bool present = true) {
  std::vector<Measurement> ms;
  if (!present) return {};
  for (size_t rep = 0; rep < side.values.size(); ++rep) {
    Measurement m;
    m.suite = "tiobench";
    m.section = "seq_read";
    m.row = "threads=1";
    m.identifier = "6.18.44-dl";
    m.label = "DL";
    m.scheduler = "mq-deadline";
    m.repetition = static_cast<uint32_t>(rep);
    m.metric = kGateRate;
    m.value = std::isnan(side.values[rep]) ? 0 : side.values[rep];
    m.status = std::isnan(side.values[rep]) ? "dnf" : "ok";
    ms.push_back(m);
  }
  return TabulateMeasurements(ms, {}, static_cast<uint32_t>(side.values.size()));
}

// A second row (random_read) both sides have and that never changes, so that a comparison
// with the first row only in the base still has something to compare.
std::vector<MetricRow> WithSteadyRow(std::vector<MetricRow> rows) {
  std::vector<MetricRow> steady = GateRows({{50, 50.5, 49.5, 50.2, 49.8}});
  steady[0].section = "random_read";
  rows.push_back(steady[0]);
  return rows;
}

constexpr double kDnf = std::numeric_limits<double>::quiet_NaN();

struct GateCase {
  const char* name;
  GateSide base;
  GateSide next;
  bool next_present;
  Verdict verdict;               // of the seq_read row
  std::optional<GateRule> rule;  // the rule it breaks
  GateOutcome outcome;           // of the comparison
  const char* summary;           // in GateSummary
};

const GateCase kGateCases[] = {
    {"tested regression",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{40, 40.5, 39.5, 40.2, 39.8}},
     true,
     Verdict::kRegression,
     GateRule::kRegression,
     GateOutcome::kRegressed,
     "gate: regressed: 1 regression (seq_read threads=1 6.18.44-dl rate_mb_s -20.00%)"},
    {"tested, no change",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{50.1, 50.4, 49.6, 50.3, 49.7}},
     true,
     Verdict::kUnchanged,
     std::nullopt,
     GateOutcome::kPass,
     "gate: pass"},
    {"tested improvement",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{60, 60.5, 59.5, 60.2, 59.8}},
     true,
     Verdict::kImprovement,
     std::nullopt,
     GateOutcome::kPass,
     "gate: pass"},
    {"failed/DNF in new only",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{kDnf, kDnf, kDnf, kDnf, kDnf}},
     true,
     Verdict::kNotComparable,
     GateRule::kFailed,
     GateOutcome::kRegressed,
     "1 row failed/DNF in new more often than in base (seq_read threads=1 6.18.44-dl rate_mb_s: "
     "5 failed/DNF in new, 0 in base)"},
    {"one DNF more in new",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{50, 50.5, kDnf, 50.2, 49.8}},
     true,
     Verdict::kUnchanged,
     GateRule::kFailed,
     GateOutcome::kRegressed,
     "failed/DNF"},
    {"the same DNF on both sides",
     {{50, kDnf, 49.5, 50.2, 49.8}},
     {{50, 50.5, kDnf, 50.2, 49.8}},
     true,
     Verdict::kUnchanged,
     std::nullopt,
     GateOutcome::kPass,
     "gate: pass"},
    {"n=1 change beyond the threshold, bad way",
     {{50}},
     {{5}},
     true,
     Verdict::kInconclusive,
     GateRule::kInconclusive,
     GateOutcome::kUndecided,
     "gate: undecided: 1 untested change beyond 5% the bad way (seq_read threads=1 6.18.44-dl "
     "rate_mb_s -90.00%, n=1/1); --allow inconclusive to accept"},
    {"n=1 within the threshold",
     {{50}},
     {{51}},
     true,
     Verdict::kInconclusive,
     std::nullopt,
     GateOutcome::kPass,
     "gate: pass"},
    {"n=1 change beyond the threshold, good way",
     {{50}},
     {{70}},
     true,
     Verdict::kInconclusive,
     std::nullopt,
     GateOutcome::kPass,
     "gate: pass"},
    {"3 against 3, too few for the test",
     {{50, 50.5, 49.5}},
     {{40, 40.5, 39.5}},
     true,
     Verdict::kInconclusive,
     GateRule::kInconclusive,
     GateOutcome::kUndecided,
     "n=3/3"},
    {"row only in base",
     {{50, 50.5, 49.5, 50.2, 49.8}},
     {{}},
     false,
     Verdict::kNotComparable,
     GateRule::kMissing,
     GateOutcome::kUndecided,
     "gate: undecided: 1 row only in base (seq_read threads=1 6.18.44-dl rate_mb_s); --allow "
     "missing to accept"},
};

TEST(CompareGateTest, EachRuleFailsTheGateAsTheTableSays) {
  for (const GateCase& t : kGateCases) {
    SCOPED_TRACE(t.name);
    Comparison c;
    std::string err;
    ASSERT_TRUE(CompareMetricRows(WithSteadyRow(GateRows(t.base)),
                                  WithSteadyRow(GateRows(t.next, t.next_present)), {}, &c, &err))
        << err;
    const ComparisonRow& row = c.rows.at(0);
    ASSERT_EQ(row.section, "seq_read");
    EXPECT_EQ(row.verdict, t.verdict) << VerdictName(row.verdict);
    EXPECT_EQ(row.gate, t.rule);
    EXPECT_EQ(c.Outcome(), t.outcome) << GateSummary(c);
    EXPECT_NE(GateSummary(c).find(t.summary), std::string::npos) << GateSummary(c);
    EXPECT_EQ(GateSummary(c).find('\n'), std::string::npos);
  }
}

// --allow relaxes every rule but a regression, by name.
TEST(CompareGateTest, AllowRelaxesEachRuleByName) {
  for (const GateCase& t : kGateCases) {
    if (!t.rule || *t.rule == GateRule::kRegression) continue;
    SCOPED_TRACE(t.name);
    CompareSettings settings;
    std::string err;
    ASSERT_TRUE(ParseAllow(GateRuleName(*t.rule), &settings, &err)) << err;
    Comparison c;
    ASSERT_TRUE(CompareMetricRows(WithSteadyRow(GateRows(t.base)),
                                  WithSteadyRow(GateRows(t.next, t.next_present)), settings, &c,
                                  &err))
        << err;
    EXPECT_FALSE(c.rows.at(0).gate.has_value());
    EXPECT_EQ(c.Outcome(), GateOutcome::kPass);
    EXPECT_EQ(GateSummary(c), "gate: pass (--allow relaxed some rules)");
  }
  CompareSettings settings;
  std::string err;
  EXPECT_FALSE(ParseAllow("regression", &settings, &err));
  EXPECT_NE(err.find("cannot be allowed"), std::string::npos) << err;
  EXPECT_FALSE(ParseAllow("failed,bogus", &settings, &err));
  EXPECT_NE(err.find("'bogus'"), std::string::npos) << err;
  ASSERT_TRUE(ParseAllow("failed, parameters,failed", &settings, &err)) << err;
  EXPECT_EQ(settings.allowed, (std::vector<GateRule>{GateRule::kFailed, GateRule::kParameters}));
}

// --no-significance: the threshold alone decides, so n = 1 is judged, not inconclusive.
TEST(CompareGateTest, NoSignificanceJudgesSingleValuesByTheThreshold) {
  CompareSettings settings;
  settings.no_significance = true;
  Comparison c;
  std::string err;
  ASSERT_TRUE(CompareMetricRows(GateRows({{50}}), GateRows({{51}}), settings, &c, &err)) << err;
  EXPECT_EQ(c.rows.at(0).verdict, Verdict::kUnchanged);
  ASSERT_TRUE(CompareMetricRows(GateRows({{50}}), GateRows({{5}}), settings, &c, &err)) << err;
  EXPECT_EQ(c.rows.at(0).verdict, Verdict::kRegression);
  EXPECT_EQ(c.Outcome(), GateOutcome::kRegressed);
}

// The reports say what the gate says: the text's last line, JSON's gate object, JUnit's
// <failure> for "regressed" and <error> for "could not judge".
TEST(CompareGateTest, ReportsCarryTheGate) {
  Comparison c;
  std::string err;
  ASSERT_TRUE(CompareMetricRows(WithSteadyRow(GateRows({{50}})), WithSteadyRow(GateRows({{5}})), {},
                                &c, &err))
      << err;
  const std::string text = RenderCompareText(c);
  EXPECT_NE(text.find("INCONCLUSIVE"), std::string::npos) << text;
  EXPECT_NE(text.find("\ngate: undecided: "), std::string::npos) << text;
  const nlohmann::json j = CompareToJson(c);
  EXPECT_EQ(j["gate"]["outcome"], "undecided");
  EXPECT_EQ(j["gate"]["findings"][0]["rule"], "inconclusive");
  EXPECT_EQ(j["rows"][0]["gate"], "inconclusive");
  EXPECT_EQ(j["counts"]["inconclusive"], 1);
  const std::string xml = RenderCompareJunit(c);
  EXPECT_NE(xml.find("<error type=\"inconclusive\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("errors=\"1\""), std::string::npos) << xml;
  EXPECT_EQ(xml.find("<failure"), std::string::npos) << xml;
}

// The built binary on the issue's two compares: non-zero, the cause on one line of stderr.
struct CliGateCase {
  std::vector<std::string> args;
  int exit_code;
  std::vector<std::string> causes;  // each in the one line
};

TEST(CompareGateTest, TheIssuesComparesFailTheGateWithTheCauseOnOneLine) {
  const std::string five = testing::TestDataPath("fixtures/report_tiobench_5cfg.json");
  const std::string mixed = testing::TestDataPath("fixtures/report_tiobench_mixed.json");
  const std::string probes = testing::TestDataPath("fixtures/report_probes_dnf.json");
  const CliGateCase cases[] = {
      {{five, mixed},
       1,
       {"gate: regressed", "failed/DNF in new", "6.18.44-ky", "untested change",
        "6.18.44-dl rate_mb_s -91.39%", "only in base",
        "parameters differ (random_ops, size_mb, "
        "threads)",
        "--allow failed,inconclusive,missing,parameters to accept"}},
      {{five, mixed, "--allow", "failed"}, 3, {"gate: undecided", "untested change"}},
      {{five, mixed, "--allow", "failed,inconclusive,missing,parameters"}, 0, {}},
      {{probes, "--between", "AS,DL"},
       1,
       {"gate: regressed",
        "cat-during-write 6.18.44-AS -> 6.18.44-DL elapsed_seconds: 1 "
        "failed/DNF in new, 0 in base",
        "ls-during-write", "+1039.86%, n=1/1"}},
      {{probes, "--between", "AS,DL", "--allow", "failed"}, 3, {"gate: undecided"}},
      {{probes, "--between", "AS,DL", "--format", "junit"}, 1, {"gate: regressed"}},
      {{probes, "--between", "AS,DL", "--allow", "regression"}, 2, {"cannot be allowed"}},
  };
  for (const CliGateCase& t : cases) {
    std::vector<std::string> args = {"compare"};
    args.insert(args.end(), t.args.begin(), t.args.end());
    SCOPED_TRACE(::testing::PrintToString(args));
    const ProcessResult r = testing::RunElevbenchCli(args, 60);
    EXPECT_EQ(r.exit_code, t.exit_code) << r.error_output;
    if (t.exit_code == 0) {
      EXPECT_EQ(r.error_output, "") << r.error_output;
      continue;
    }
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1)
        << "one line: " << r.error_output;
    for (const std::string& cause : t.causes) {
      EXPECT_NE(r.error_output.find(cause), std::string::npos) << cause << " in " << r.error_output;
    }
  }
}

// docs/compare.md quotes the gate's line of the first compare above: it is what the command
// prints, word for word (issue 45: the doc said 4 untested changes and 24 rows, the command 7
// and 28).
TEST(CompareGateTest, TheDocsQuoteIsWhatTheCommandPrints) {
  std::ifstream doc(testing::TestDataPath("../docs/compare.md"));
  ASSERT_TRUE(doc.good());
  std::string line;
  std::string quoted;
  while (std::getline(doc, line)) {
    if (line.rfind("elevbench: gate: regressed: ", 0) == 0) quoted = line;
  }
  ASSERT_FALSE(quoted.empty()) << "docs/compare.md quotes no gate line";
  const ProcessResult r = testing::RunElevbenchCli(
      {"compare", testing::TestDataPath("fixtures/report_tiobench_5cfg.json"),
       testing::TestDataPath("fixtures/report_tiobench_mixed.json")},
      60);
  EXPECT_EQ(r.error_output, quoted + "\n");
}

// #45: the footer counts a FAILED row as failed (4 FAILED rows were "4 inconclusive"), and the
// header says which inconclusive rows the gate fails on, so that 8 inconclusive improvements
// under "fails on … inconclusive" and then "gate: pass" do not contradict each other.
TEST(CompareGateTest, TheFooterCountsFailedRowsAndTheHeaderNamesTheBadWay) {
  const ProcessResult mixed = testing::RunElevbenchCli(
      {"compare", testing::TestDataPath("fixtures/report_tiobench_mixed.json"), "--between",
       "dl,bfq-ll0"},
      60);
  EXPECT_EQ(mixed.exit_code, 1) << mixed.error_output;
  EXPECT_NE(mixed.output.find("\n0 regressions, 0 improvements, 0 changed, 0 inconclusive, 0 "
                              "unchanged, 0 not comparable, 4 failed\n"),
            std::string::npos)
      << mixed.output;
  // The JSON's counts are the footer's, `failed` included (#45: it had none, and the 4 FAILED
  // rows counted as inconclusive).
  const ProcessResult json = testing::RunElevbenchCli(
      {"compare", testing::TestDataPath("fixtures/report_tiobench_mixed.json"), "--between",
       "dl,bfq-ll0", "--format", "json"},
      60);
  EXPECT_EQ(json.exit_code, 1) << json.error_output;
  const nlohmann::json counts = nlohmann::json::parse(json.output, nullptr, false)["counts"];
  EXPECT_EQ(counts, nlohmann::json({{"regressions", 0},
                                    {"improvements", 0},
                                    {"changed", 0},
                                    {"inconclusive", 0},
                                    {"unchanged", 0},
                                    {"not_comparable", 0},
                                    {"failed", 4}}))
      << counts;
  const ProcessResult five = testing::RunElevbenchCli(
      {"compare", testing::TestDataPath("fixtures/report_tiobench_5cfg.json"), "--between",
       "dl,ky"},
      60);
  EXPECT_EQ(five.exit_code, 0) << five.error_output;
  EXPECT_NE(five.output.find("\ngate: fails on regression, failed, inconclusive beyond 5% the "
                             "bad way, missing, parameters\n"),
            std::string::npos)
      << five.output;
  EXPECT_NE(five.output.find(", 8 inconclusive, 0 unchanged, 0 not comparable, 0 failed\ngate: "
                             "pass\n"),
            std::string::npos)
      << five.output;
  const ProcessResult help = testing::RunElevbenchCli({"compare", "--help"}, 60);
  std::string flat = help.output;  // the help wraps its lines
  for (char& ch : flat) {
    if (ch == '\n') ch = ' ';
  }
  std::string squeezed;
  for (char ch : flat) {
    if (ch != ' ' || squeezed.empty() || squeezed.back() != ' ') squeezed += ch;
  }
  EXPECT_NE(squeezed.find("an untested change beyond --threshold the bad way"), std::string::npos)
      << help.output;
  // The failed rule as compare_gate.cc has it: "more often than in base", not "only".
  EXPECT_NE(squeezed.find("or a row failed/DNF more often in the new results than in the base;"),
            std::string::npos)
      << help.output;
}

}  // namespace
}  // namespace elevbench
