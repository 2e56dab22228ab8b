// Tidy CSV: one measurement per line (csv) or one row over repetitions per line (csv-summary),
// RFC 4180 quoting, numbers that read back exactly, and empty fields for what was not
// measured. Golden files for a tiobench run with failed and incomplete configurations.

#include "reporters/csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "app/suites.h"
#include "test_util.h"

namespace elevbench {
namespace {

// A strict RFC 4180 reader (LF line ends): the records of `text`, each a list of fields.
std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> records;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      EXPECT_TRUE(field.empty()) << "quote inside an unquoted field at " << i;
      quoted = true;
    } else if (c == ',') {
      record.push_back(field);
      field.clear();
    } else if (c == '\n') {
      record.push_back(field);
      field.clear();
      records.push_back(record);
      record.clear();
    } else {
      field += c;
    }
  }
  EXPECT_FALSE(quoted) << "unterminated quoted field";
  EXPECT_TRUE(field.empty() && record.empty()) << "last line without LF";
  return records;
}

TEST(CsvTest, QuotesOnlyWhatRfc4180Requires) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField("cr\r"), "\"cr\r\"");
  EXPECT_EQ(CsvField(""), "");
}

TEST(CsvTest, NumbersReadBackExactly) {
  for (const double v : {0.1, 42.666666666666664, 1e-5, 123456789.125, 0.0, -3.5}) {
    EXPECT_EQ(std::strtod(CsvNumber(v).c_str(), nullptr), v) << CsvNumber(v);
  }
  EXPECT_EQ(CsvNumber(0.1), "0.1");
  EXPECT_EQ(CsvNumber(1.0 / 0.0), "inf");
}

TEST(CsvTest, OneMeasurementPerLineWithEmptyValueWhenNotMeasured) {
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderCsvReport(testing::WithMeasurements({testing::LoadNamedResults(
                                  "fixtures/report_probes_dnf.json", "probes.json")}),
                              &text, &err))
      << err;
  const auto records = ParseCsv(text);
  ASSERT_GT(records.size(), 1u);
  const std::vector<std::string> header = {
      "file",   "suite", "section",   "row",   "identifier", "label",  "scheduler", "repetition",
      "metric", "unit",  "direction", "value", "status",     "reason", "page_cache"};
  EXPECT_EQ(records[0], header);
  size_t dnf = 0;
  for (size_t i = 1; i < records.size(); ++i) {
    ASSERT_EQ(records[i].size(), header.size()) << i;
    const std::string& value = records[i][11];
    const std::string& status = records[i][12];
    if (status == "ok") {
      EXPECT_FALSE(value.empty()) << i;
    } else {
      EXPECT_EQ(status, "dnf");
      EXPECT_TRUE(value.empty()) << "a DNF has no number, not 0: line " << i;
      ++dnf;
    }
  }
  EXPECT_EQ(dnf, 3u);  // DL's cat-during-write: elapsed, user and system time
}

TEST(CsvTest, TextWithCommasAndQuotesSurvivesARoundTrip) {
  NamedResults file = testing::LoadNamedResults("golden/results_small.json", "a,\"b\".json");
  for (nlohmann::json& r : file.doc.records) r["label"] = "x, \"y\"";
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderCsvReport(testing::WithMeasurements({file}), &text, &err)) << err;
  const auto records = ParseCsv(text);
  ASSERT_EQ(records.size(), 1 + file.doc.records.size() * 7);
  EXPECT_EQ(records[1][0], "a,\"b\".json");
  EXPECT_EQ(records[1][5], "x, \"y\"");
}

TEST(CsvTest, SummaryHasOneLinePerRowAndNoSpreadBelowTwo) {
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderCsvSummaryReport(testing::WithMeasurements({testing::LoadNamedResults(
                                         "fixtures/report_tiobench_mixed.json", "mixed.json")}),
                                     &text, &err))
      << err;
  const auto records = ParseCsv(text);
  ASSERT_GT(records.size(), 1u);
  const std::vector<std::string>& h = records[0];
  auto col = [&](const std::string& name) {
    return static_cast<size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  };
  bool saw_failed = false;
  bool saw_single = false;
  bool saw_spread = false;
  for (size_t i = 1; i < records.size(); ++i) {
    const auto& r = records[i];
    ASSERT_EQ(r.size(), h.size());
    EXPECT_EQ(r[col("requested")], "3");
    const std::string& n = r[col("n")];
    if (n == "0") {  // ky: every cell failed, so no number at all
      saw_failed = true;
      EXPECT_EQ(r[col("identifier")], "6.18.44-ky");
      for (const char* c : {"mean", "mean_kind", "stddev", "ci_low", "ci_high", "min", "max"}) {
        EXPECT_TRUE(r[col(c)].empty()) << c;
      }
    } else if (n == "1") {  // bfq-ll0: a mean, but no spread
      saw_single = true;
      EXPECT_EQ(r[col("not_measured")], "2");  // its two failed repetitions, not just fewer
      EXPECT_NE(r[col("reason")].find("planted failure"), std::string::npos);
      EXPECT_FALSE(r[col("mean")].empty());
      EXPECT_TRUE(r[col("stddev")].empty());
      EXPECT_TRUE(r[col("ci_low")].empty());
    } else {
      saw_spread = true;
      EXPECT_EQ(n, "3");
      EXPECT_FALSE(r[col("stddev")].empty());
      EXPECT_FALSE(r[col("ci_high")].empty());
    }
    if (r[col("metric")] == "rate_mb_s" && n != "0") {
      EXPECT_EQ(r[col("mean_kind")], "hmean");
    }
  }
  EXPECT_TRUE(saw_failed && saw_single && saw_spread);
  testing::ExpectMatchesGolden("report_tiobench_mixed.csv-summary", text);
}

TEST(CsvTest, GoldenMeasurementsOfSeveralFiles) {
  std::string text;
  std::string err;
  ASSERT_TRUE(RenderCsvReport(
      testing::WithMeasurements(
          {testing::LoadNamedResults("fixtures/report_tiobench_mixed.json", "mixed.json"),
           testing::LoadNamedResults("golden/nickbench_small.json", "nickbench_small.json")}),
      &text, &err))
      << err;
  EXPECT_NE(text.find("\nnickbench_small.json,nickbench,bench"), std::string::npos);
  testing::ExpectMatchesGolden("report_mixed_and_nickbench.csv", text);
}

// The same real morton and visave runs as measurements, one per line.
TEST(CsvTest, GoldenOfMortonAndVisaveRuns) {
  std::string text, err;
  ASSERT_TRUE(RenderCsvReport(
      testing::WithMeasurements(
          {testing::LoadNamedResults("fixtures/report_morton_small.json", "morton.json"),
           testing::LoadNamedResults("fixtures/report_visave_small.json", "visave.json")}),
      &text, &err))
      << err;
  const auto records = ParseCsv(text);
  // morton: 2 repetitions x (4 metrics for #1, 3 for #5, 3 for #4, 4 for each of the six tests
  // beside a load); visave: 2 repetitions x 4 metrics; and the header.
  EXPECT_EQ(records.size(), 1u + 2 * (4 + 3 + 3 + 6 * 4) + 2 * 4);
  testing::ExpectMatchesGolden("report_morton_visave.csv", text);
}

// A buffered load's rate is the page cache's: the page_cache column says so for visave's and
// morton's load_mb_s, and only for them (issue 45: 12806 MB/s on a 49 MB/s disk read as the
// disk's).
TEST(CsvTest, PageCacheRatesSayWhoseTheyAre) {
  const std::vector<NamedResults> files = testing::WithMeasurements(
      {testing::LoadNamedResults("fixtures/report_morton_small.json", "morton.json"),
       testing::LoadNamedResults("fixtures/report_visave_small.json", "visave.json")});
  std::string text, err;
  ASSERT_TRUE(RenderCsvReport(files, &text, &err)) << err;
  const auto records = ParseCsv(text);
  ASSERT_EQ(records[0].back(), "page_cache");
  size_t marked = 0;
  for (size_t i = 1; i < records.size(); ++i) {
    const bool load = records[i][8] == "load_mb_s";
    EXPECT_EQ(records[i].back(), load ? "yes" : "no") << i;
    marked += load ? 1 : 0;
  }
  EXPECT_EQ(marked, 2u * 6 + 2u);  // morton's six tests beside a load, visave; 2 repetitions
  ASSERT_TRUE(RenderCsvSummaryReport(files, &text, &err)) << err;
  const auto summary = ParseCsv(text);
  ASSERT_EQ(summary[0].back(), "page_cache");
  for (size_t i = 1; i < summary.size(); ++i) {
    EXPECT_EQ(summary[i].back(), summary[i][7] == "load_mb_s" ? "yes" : "no") << i;
  }
}

// No "inf" in csv-summary either: an unbounded interval end is an empty field, and the interval
// of durations is cut at 0 (morton's test1 slowest_seconds, two widely spread repetitions).
TEST(CsvTest, SummaryHasNoInfiniteOrNegativeIntervalEnd) {
  std::string text, err;
  ASSERT_TRUE(RenderCsvSummaryReport(testing::WithMeasurements({testing::LoadNamedResults(
                                         "fixtures/report_morton_small.json", "morton.json")}),
                                     &text, &err))
      << err;
  EXPECT_EQ(text.find("inf"), std::string::npos);
  const auto records = ParseCsv(text);
  ASSERT_GT(records.size(), 1u);
  const std::vector<std::string>& h = records[0];
  auto col = [&](const std::string& name) {
    return static_cast<size_t>(std::find(h.begin(), h.end(), name) - h.begin());
  };
  bool saw_unbounded = false, saw_cut = false;
  for (size_t i = 1; i < records.size(); ++i) {
    const auto& r = records[i];
    if (r[col("section")] != "test1") continue;
    if (r[col("metric")] == "aggregate_mb_s") {
      saw_unbounded = true;
      EXPECT_FALSE(r[col("ci_low")].empty());
      EXPECT_TRUE(r[col("ci_high")].empty());
    }
    if (r[col("metric")] == "slowest_seconds") {
      saw_cut = true;
      EXPECT_EQ(r[col("ci_low")], "0");
    }
  }
  EXPECT_TRUE(saw_unbounded && saw_cut);
}

}  // namespace
}  // namespace elevbench
