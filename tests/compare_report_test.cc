// The reports of `elevbench compare`: the numbers' formatting, the text and JUnit reports
// (golden), the JUnit document's well-formedness, and the JSON report's verdicts and samples.

#include <gtest/gtest.h>

#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "compare_fixture.h"
#include "harness/compare/compare.h"
#include "harness/process/subprocess.h"
#include "reporters/compare_json.h"
#include "reporters/compare_junit.h"
#include "reporters/compare_text.h"
#include "scenarios/tiobench/tiobench_records.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::kMissing;
using testing::MustCompare;
using testing::Noise;
using testing::TestConfig;
using testing::TioDocument;

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

}  // namespace
}  // namespace elevbench
