// The request tracer's numbers in the tidy layer: the reading of a cell's request_trace
// (harness/results/request_trace_record.h), the measurements every suite gets from it
// (harness/stats/trace_measurements.h) through the table of suites, and the rule that finds the
// cells a table row was measured in.

#include "harness/stats/trace_measurements.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "app/suites.h"
#include "fakes.h"
#include "harness/compare/compare.h"
#include "harness/stats/metric_table.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::FakeRequestTrace;
using testing::FakeTraceDirection;

TEST(TraceMeasurementsTest, VariantTextIsNameEqualsValue) {
  EXPECT_EQ(VariantText({{"bench", 3}}), "bench=3");
  EXPECT_EQ(VariantText({{"threads", 4}}), "threads=4");
  EXPECT_EQ(VariantText({{"probe", "cat-during-write"}}), "probe=cat-during-write");
  EXPECT_EQ(VariantText({{"part", "tiobench"}, {"threads", 1}}), "part=tiobench threads=1");
  EXPECT_EQ(VariantText(nlohmann::json::object()), "");
}

TEST(TraceMeasurementsTest, EverySuitesRowsAreNamedAfterTheirVariants) {
  EXPECT_TRUE(VariantNamesRow({{"threads", 4}}, "tiobench", "seq_read", "threads=4"));
  EXPECT_FALSE(VariantNamesRow({{"threads", 4}}, "tiobench", "seq_read", "threads=1"));
  EXPECT_TRUE(VariantNamesRow({{"bench", 3}}, "nickbench", "bench3", ""));
  EXPECT_FALSE(VariantNamesRow({{"bench", 3}}, "nickbench", "bench2", ""));
  EXPECT_TRUE(VariantNamesRow({{"probe", "ls-during-read"}}, "probes", "ls-during-read", ""));
  EXPECT_TRUE(VariantNamesRow({{"load", "io_load"}}, "contest", "io_load", ""));
  EXPECT_TRUE(VariantNamesRow({{"test", 9}}, "morton", "test9", ""));
  EXPECT_TRUE(VariantNamesRow({{"run", 2}}, "orasim", "oltp", "run=2"));
  EXPECT_TRUE(VariantNamesRow(nlohmann::json::object(), "visave", "vi-save", ""));
  EXPECT_TRUE(
      VariantNamesRow({{"part", "tiobench"}, {"threads", 1}}, "tiobench", "seq_read", "threads=1"));
  EXPECT_FALSE(VariantNamesRow({{"part", "nickbench"}, {"bench", 2}}, "tiobench", "bench2", ""));
}

// In every fixture, each headline row is named by exactly one of the variants of its cells.
TEST(TraceMeasurementsTest, EachHeadlineRowOfTheFixturesHasOneVariant) {
  for (const char* fixture :
       {"fixtures/report_tiobench_5cfg.json", "fixtures/report_nickbench_5cfg.json",
        "fixtures/report_probes_dnf.json", "fixtures/report_morton_small.json",
        "fixtures/report_visave_small.json", "fixtures/post2003_small.json",
        "fixtures/report_nickbench_traced.json"}) {
    const NamedResults file = testing::Measured(testing::LoadNamedResults(fixture));
    std::set<std::string> variants;
    for (const CellRecord& c : file.doc.cells) variants.insert(c.variant.dump());
    for (const MetricRow& r : MetricRowsFrom(file.doc, file.measurements)) {
      if (!r.metric.headline) continue;
      size_t named = 0;
      for (const std::string& v : variants) {
        named += VariantNamesRow(nlohmann::json::parse(v), r.suite, r.section, r.row) ? 1 : 0;
      }
      EXPECT_EQ(named, 1u) << fixture << ": " << r.section << " " << r.row;
    }
  }
}

TEST(TraceMeasurementsTest, ReadsTheTracersRecord) {
  nlohmann::json j =
      FakeRequestTrace(FakeTraceDirection(100, 4, 0.25, 2000000), FakeTraceDirection(0, 1, 0));
  j["phases"] = {{"seq_read", {{"read", FakeTraceDirection(60, 6, 0.1)}}}};
  j["scheduler_messages"] = {{"merge", 2}};
  j["something_new"] = "ignored";
  const RequestTraceRecord t = testing::FakeTraceRecord(j);
  EXPECT_EQ(t.mode, TraceMode::kSummary);
  EXPECT_EQ(t.events, 500u);
  EXPECT_TRUE(t.Complete());
  EXPECT_EQ(t.total.read.requests, 100u);
  EXPECT_DOUBLE_EQ(t.total.read.i2d.mean_ns(), 2e6);
  EXPECT_DOUBLE_EQ(t.total.read.q2c.mean_ns(), 4e6);
  EXPECT_EQ(t.total.read.dispatch_run_lengths.at(4), 25u);
  EXPECT_EQ(t.total.read.seek_distance.count(), 100u);
  EXPECT_EQ(t.total.write.requests, 0u);
  EXPECT_STREQ(t.total.Busier(), "read");
  ASSERT_EQ(t.phases.size(), 1u);
  EXPECT_EQ(t.phases.at("seq_read").read.requests, 60u);
  std::string phase;
  EXPECT_EQ(&TraceAccountOf(t, "seq_read", "threads=1", &phase), &t.phases.at("seq_read"));
  EXPECT_EQ(phase, "seq_read");
  EXPECT_EQ(&TraceAccountOf(t, "bench3", "", &phase), &t.total);
  EXPECT_EQ(phase, "");
  ASSERT_TRUE(t.queued.has_value());
  EXPECT_DOUBLE_EQ(t.queued->mean, 2.5);
}

TEST(TraceMeasurementsTest, EveryTracedCellGivesARowOfItsVariant) {
  ResultsDocument doc;
  doc.suite = "nickbench";
  CellRecord c;
  c.identifier = "k-dl";
  c.label = "DL";
  c.scheduler = "mq-deadline";
  c.repetition = 1;
  c.variant = {{"bench", 3}};
  c.status = "ok";
  c.request_trace = testing::FakeTraceRecord(
      FakeRequestTrace(FakeTraceDirection(100, 4, 0.25, 2000000), FakeTraceDirection(0, 1, 0)));
  doc.cells.push_back(c);
  c.status = "failed";  // a failed cell gives no numbers
  doc.cells.push_back(c);
  c.status = "ok";
  c.request_trace.reset();  // nor does a cell that was not traced
  doc.cells.push_back(c);
  std::vector<Measurement> ms;
  AppendRequestTraceMeasurements(doc, &ms);
  std::map<std::string, const Measurement*> by_name;
  for (const Measurement& m : ms) by_name[m.metric.name] = &m;
  EXPECT_EQ(ms.size(), 7u);  // five of the reads, queued_mean, dropped_events; no write
  ASSERT_TRUE(by_name.count("read_i2d_mean_ms"));
  const Measurement& i2d = *by_name["read_i2d_mean_ms"];
  EXPECT_EQ(i2d.section, kRequestTraceSection);
  EXPECT_EQ(i2d.row, "bench=3");
  EXPECT_EQ(i2d.identifier, "k-dl");
  EXPECT_EQ(i2d.label, "DL");
  EXPECT_EQ(i2d.scheduler, "mq-deadline");
  EXPECT_EQ(i2d.repetition, 1u);
  EXPECT_DOUBLE_EQ(i2d.value, 2);
  EXPECT_EQ(i2d.metric.direction, Direction::kLowerIsBetter);
  EXPECT_FALSE(i2d.metric.headline);
  EXPECT_DOUBLE_EQ(by_name["read_q2c_mean_ms"]->value, 4);
  EXPECT_DOUBLE_EQ(by_name["read_mean_dispatch_run"]->value, 4);
  EXPECT_EQ(by_name["read_mean_dispatch_run"]->metric.direction, Direction::kNeither);
  EXPECT_DOUBLE_EQ(by_name["read_seek_share"]->value, 0.25);
  EXPECT_EQ(by_name["read_seek_share"]->metric.direction, Direction::kNeither);
  EXPECT_DOUBLE_EQ(by_name["queued_mean"]->value, 2.5);
  EXPECT_DOUBLE_EQ(by_name["dropped_events"]->value, 0);
  EXPECT_EQ(by_name.count("write_d2c_mean_ms"), 0u);
}

// Through the table of suites: every view of the tidy layer has the trace rows, compare too.
TEST(TraceMeasurementsTest, TheTracedFixtureHasTraceRowsEverywhere) {
  const NamedResults file =
      testing::Measured(testing::LoadNamedResults("fixtures/report_nickbench_traced.json"));
  size_t traced = 0;
  for (const Measurement& m : file.measurements) traced += m.section == kRequestTraceSection;
  EXPECT_EQ(traced, 10u * 12u);  // 10 cells × (5 read + 5 write + queued_mean + dropped_events)
  std::vector<Measurement> through_compare;
  std::string err;
  ASSERT_TRUE(MeasurerOf("nickbench")(file.doc, &through_compare, &err)) << err;
  EXPECT_EQ(through_compare.size(), file.measurements.size());

  CompareSettings settings;
  ASSERT_TRUE(ParseMetricSelection("read_mean_dispatch_run,read_d2c_mean_ms", &settings, &err));
  ASSERT_TRUE(ParseBetween("DL,AS", &settings, &err)) << err;
  Comparison c;
  ASSERT_TRUE(CompareDocuments(file.doc, file.doc, MeasurerOf("nickbench"), settings, &c, &err))
      << err;
  ASSERT_EQ(c.rows.size(), 2u);
  std::map<std::string, const ComparisonRow*> rows;
  for (const ComparisonRow& r : c.rows) rows[r.metric.name] = &r;
  EXPECT_EQ(rows.at("read_d2c_mean_ms")->section, kRequestTraceSection);
  EXPECT_EQ(rows.at("read_d2c_mean_ms")->row, "bench=3");
  // AS's requests spend less time in the device; a dispatch run is neither better nor worse.
  EXPECT_EQ(rows.at("read_d2c_mean_ms")->verdict, Verdict::kImprovement);
  EXPECT_EQ(rows.at("read_mean_dispatch_run")->verdict, Verdict::kChanged);
}

}  // namespace
}  // namespace elevbench
