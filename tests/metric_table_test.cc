// Measurements and the rows made from them: every suite's records map to tidy measurements, rows
// keep the repetitions they were made from, and what was not measured is marked, not dropped.

#include "harness/stats/metric_table.h"

#include <gtest/gtest.h>

#include <map>

#include "app/suites.h"
#include "harness/stats/measurement.h"
#include "test_util.h"

namespace elevbench {
namespace {

Measurement Make(const std::string& id, uint32_t rep, double value,
                 const std::string& status = "ok") {
  Measurement m;
  m.suite = "tiobench";
  m.section = "seq_read";
  m.row = "threads=1";
  m.identifier = id;
  m.label = id == "a" ? "A" : "B";
  m.repetition = rep;
  m.metric = {"rate_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true};
  m.value = value;
  m.status = status;
  return m;
}

TEST(MetricTableTest, GroupsRepetitionsAndOrdersConfigurations) {
  const std::vector<Measurement> ms = {Make("b", 0, 10), Make("a", 0, 20), Make("b", 1, 30),
                                       Make("a", 1, 20)};
  const std::vector<MetricRow> rows = TabulateMeasurements(ms, {"a", "b"}, 2);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].identifier, "a");
  EXPECT_EQ(rows[0].label, "A");
  EXPECT_EQ(rows[0].values, (std::vector<double>{20, 20}));
  EXPECT_EQ(rows[1].identifier, "b");
  EXPECT_EQ(rows[1].summary.n, 2u);
  EXPECT_DOUBLE_EQ(rows[1].summary.mean, 15);  // harmonic mean of 10 and 30
  EXPECT_FALSE(rows[1].incomplete());
}

TEST(MetricTableTest, NotMeasuredRepetitionsMarkTheRowIncomplete) {
  const std::vector<Measurement> ms = {Make("a", 0, 20), Make("a", 1, 0, "dnf"), Make("a", 2, 22)};
  const std::vector<MetricRow> rows = TabulateMeasurements(ms, {}, 3);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].values.size(), 2u);
  EXPECT_EQ(rows[0].not_measured, 1u);
  EXPECT_TRUE(rows[0].incomplete());
}

TEST(MetricTableTest, TiobenchRecordsBecomeOneMeasurementPerColumn) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &doc, &err))
      << err;
  std::vector<Measurement> ms;
  ASSERT_TRUE(MeasurementsOf(doc, &ms, &err)) << err;
  EXPECT_EQ(ms.size(), doc.records.size() * 7);  // the seven columns of tiobench's table
  std::vector<MetricRow> rows;
  ASSERT_TRUE(MetricRowsOf(doc, &rows, &err)) << err;
  size_t headline = 0;
  for (const MetricRow& r : rows) {
    EXPECT_EQ(r.suite, "tiobench");
    EXPECT_EQ(r.summary.n, 1u);
    if (r.metric.headline) {
      ++headline;
      EXPECT_EQ(r.metric.name, "rate_mb_s");
      EXPECT_EQ(r.metric.mean, MeanKind::kHarmonic);
    }
  }
  EXPECT_EQ(headline, doc.records.size());
}

TEST(MetricTableTest, NickbenchRecordsCarryRateMetricAndFairness) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/nickbench_small.json"), &doc, &err))
      << err;
  std::vector<Measurement> ms;
  ASSERT_TRUE(MeasurementsOf(doc, &ms, &err)) << err;
  std::map<std::string, const Measurement*> by_name;
  for (const Measurement& m : ms) by_name[m.metric.name] = &m;
  ASSERT_TRUE(by_name.count("io_rate_mb_s"));
  ASSERT_TRUE(by_name.count("reads_per_write"));  // #45: not "metric"
  EXPECT_FALSE(by_name.count("metric"));
  ASSERT_TRUE(by_name.count("jain_index"));
  EXPECT_EQ(by_name["reads_per_write"]->section, "bench2");
  EXPECT_DOUBLE_EQ(by_name["reads_per_write"]->value, 0.08);
  EXPECT_EQ(by_name["reads_per_write"]->metric.direction, Direction::kHigherIsBetter);
}

TEST(MetricTableTest, AConfigurationWhoseCellsAllFailedIsReportedNotDropped) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &doc, &err))
      << err;
  CellRecord failed = doc.cells.front();
  failed.identifier = "6.18.44-ky";
  failed.scheduler = "kyber";
  failed.status = "failed";
  failed.error = "fio exited 1";
  doc.cells.push_back(failed);
  doc.identifiers.push_back("6.18.44-ky");
  std::vector<MetricRow> rows;
  ASSERT_TRUE(MetricRowsOf(doc, &rows, &err)) << err;
  size_t kyber_rows = 0, measured_rows = 0;
  for (const MetricRow& r : rows) {
    measured_rows += r.identifier == doc.identifiers.front() ? 1 : 0;
    if (r.identifier != "6.18.44-ky") continue;
    ++kyber_rows;
    EXPECT_EQ(r.summary.n, 0u);
    EXPECT_EQ(r.not_measured, 1u);
  }
  // Every row a measured configuration has, not only the headline Rate (#45, third newcomer
  // pass: a csv filtered on cpu_pct never saw the failed configuration).
  EXPECT_GT(measured_rows, 4u);
  EXPECT_EQ(kyber_rows, measured_rows);
}

// Each failed repetition is one value not measured, so a row of a configuration that failed
// twice says 2 (it said 1: one failed measurement per configuration, not per repetition).
TEST(MetricTableTest, EveryFailedRepetitionOfAFailedConfigurationIsCounted) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &doc, &err))
      << err;
  for (uint32_t rep = 0; rep < 2; ++rep) {
    CellRecord failed = doc.cells.front();
    failed.identifier = "6.18.44-ky";
    failed.repetition = rep;
    failed.status = "failed";
    doc.cells.push_back(failed);
  }
  doc.context["repetitions"] = 2;  // signed, as a document built in memory may hold it
  std::vector<MetricRow> rows;
  ASSERT_TRUE(MetricRowsOf(doc, &rows, &err)) << err;
  size_t kyber_rows = 0, measured_rows = 0;
  for (const MetricRow& r : rows) {
    measured_rows += r.identifier == doc.identifiers.front() ? 1 : 0;
    if (r.identifier != "6.18.44-ky") continue;
    ++kyber_rows;
    EXPECT_EQ(r.not_measured, 2u);
    EXPECT_TRUE(r.incomplete());
  }
  EXPECT_EQ(kyber_rows, measured_rows);
}

TEST(MetricTableTest, UnknownSuiteIsAnError) {
  ResultsDocument doc;
  doc.suite = "nosuch";
  std::vector<Measurement> ms;
  std::string err;
  EXPECT_FALSE(MeasurementsOf(doc, &ms, &err));
  EXPECT_NE(err.find("nosuch"), std::string::npos);
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// #45: a CSV column or a trend title has no units line, so its MB/s says what it is.
TEST(SpelledUnitTest, MegabytesAreSpelledMebibytesOnlyAsAWord) {
  EXPECT_EQ(SpelledUnit("MB/s"), "MiB/s");
  EXPECT_EQ(SpelledUnit("MB/s per CPU"), "MiB/s per CPU");
  EXPECT_EQ(SpelledUnit("MB"), "MiB");
  EXPECT_EQ(SpelledUnit("ms"), "ms");
  EXPECT_EQ(SpelledUnit("MBps"), "MBps");  // not a word of its own: left as it is
  EXPECT_EQ(SpelledUnit("IMB/s"), "IMB/s");
  EXPECT_EQ(SpelledUnit(""), "");
}

}  // namespace
}  // namespace elevbench
