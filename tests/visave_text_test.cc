// The vi-save probe in seed 003's layout: all four published lines come out byte for byte from
// their values (including the truncated "14.8 avg" of 134/9), sub-second saves keep their digits,
// records round-trip, and the report is a golden file.

#include "reporters/visave_text.h"

#include <gtest/gtest.h>

#include "scenarios/visave/visave_measurements.h"
#include "test_util.h"

namespace elevbench {
namespace {

// The line of one configuration whose one repetition saved in `seconds`, aggregated as the
// suite does.
std::string LineOf(const std::string& label, const std::vector<double>& seconds) {
  VisaveRecord record;
  record.identifier = label;
  for (double s : seconds) {
    VisaveSave save;
    save.timing.wall_seconds = s;
    record.saves.push_back(save);
  }
  const std::vector<VisaveRow> rows = AggregateVisaveRows({record}, {label});
  EXPECT_EQ(rows.size(), 1u);
  return rows.empty() ? "" : VisaveLine(label, rows.front());
}

TEST(VisaveTextTest, TheSeedsFourLines) {
  EXPECT_EQ(LineOf("cfq", {13, 19, 23, 19, 23, 15, 14, 16, 14}),
            "cfq 13,19,23,19,23,15,14,16,14 = 17.3 avg");
  EXPECT_EQ(LineOf("deadline", {7, 12, 11, 15, 15, 8, 17, 14, 16, 11}),
            "deadline 7,12,11,15,15,8,17,14,16,11 = 12.6 avg");
  EXPECT_EQ(LineOf("noop", {23, 12, 14, 12, 12, 13, 14, 14, 14}),
            "noop 23,12,14,12,12,13,14,14,14 = 14.2 avg");
  EXPECT_EQ(LineOf("anticipatory", {9, 13, 13, 15, 19, 15, 23, 15, 12}),
            "anticipatory 9,13,13,15,19,15,23,15,12 = 14.8 avg");
}

TEST(VisaveTextTest, DecimalsFollowTheSmallestSave) {
  EXPECT_EQ(VisaveDecimals({13, 7, 23}), 0);
  EXPECT_EQ(VisaveDecimals({5}), 0);
  EXPECT_EQ(VisaveDecimals({4.9}), 1);
  EXPECT_EQ(VisaveDecimals({0.37, 1.2}), 2);
  EXPECT_EQ(VisaveDecimals({0.0123, 2}), 3);
  EXPECT_EQ(VisaveDecimals({0.0000001}), 6);
  EXPECT_EQ(VisaveDecimals({}), 3);
  EXPECT_EQ(LineOf("DL", {0.0123, 0.0456, 1.5}), "DL 0.012,0.045,1.500 = 0.5193 avg");
  EXPECT_EQ(LineOf("BFQ", {0.37, 1.26}), "BFQ 0.37,1.26 = 0.815 avg");
  EXPECT_EQ(LineOf("X", {}), "X (no saves)");
}

TEST(VisaveTextTest, TruncatesButKeepsExactSteps) {
  EXPECT_EQ(TruncatedDecimal(12.6, 1), "12.6");
  EXPECT_EQ(TruncatedDecimal(0.29, 2), "0.29");
  EXPECT_EQ(TruncatedDecimal(14.8888, 1), "14.8");
  EXPECT_EQ(TruncatedDecimal(0.0129, 3), "0.012");
  EXPECT_EQ(TruncatedDecimal(-1, 2), "0.00");
}

VisaveRecord MakeVisaveRecord(const std::string& label, const std::string& id, uint32_t rep,
                              std::vector<double> saves) {
  VisaveRecord r;
  r.label = label;
  r.identifier = id;
  r.scheduler = label == "DL" ? "mq-deadline" : "bfq";
  r.repetition = rep;
  r.interval_seconds = 10;
  r.file_bytes = 200;
  r.warmup_seconds = 10.02;
  double t = 0;
  for (double s : saves) {
    VisaveSave v;
    v.started_seconds = t;
    v.timing.wall_seconds = s;
    v.timing.fsync_seconds = s * 0.9;
    v.timing.write_seconds = s * 0.05;
    v.timing.rename_seconds = s * 0.05;
    v.timing.system_seconds = 0.0001;
    v.timing.voluntary_switches = 3;
    r.saves.push_back(v);
    (void)r.histogram.Record(static_cast<uint64_t>(s * 1e9));
    t += s + 10;
  }
  StreamResult w;
  w.name = "buffered-writer";
  w.direction = "write";
  w.bytes_written = uint64_t{3000} << 20;
  w.runtime_seconds = 100;
  r.load = {w};
  return r;
}

ResultsDocument VisaveDocument() {
  ResultsDocument doc;
  doc.suite = "visave";
  doc.identifiers = {"6.18.44-dl", "6.18.44-bfq"};
  doc.labels = {"DL", "BFQ"};
  doc.parameters = {{"file_bytes", 200}, {"interval_seconds", 10}, {"saves", 3}};
  for (const VisaveRecord& r : {MakeVisaveRecord("DL", "6.18.44-dl", 0, {0.0123, 0.0456, 1.5}),
                                MakeVisaveRecord("BFQ", "6.18.44-bfq", 0, {0.37, 1.26, 0.5}),
                                MakeVisaveRecord("DL", "6.18.44-dl", 1, {0.02, 0.03, 0.9})}) {
    doc.records.push_back(VisaveRecordToJson(r));
  }
  return doc;
}

// A buffered writer's rate is the page cache's and says so whatever the target: the emulated
// disk's or a plain directory, whose disk's rate is unknown (issue 45: "buffered writer: DL
// 5239.9 MB/s" on a 49 MB/s disk).
TEST(VisaveTextTest, TheWritersRateIsMarkedAsThePageCaches) {
  ResultsDocument doc = VisaveDocument();
  std::string text, err;
  ASSERT_TRUE(RenderVisaveReport(doc, "lkml", &text, &err)) << err;
  EXPECT_NE(text.find("buffered writer into the page cache: DL 30.0 MB/s, BFQ 30.0 MB/s\n"),
            std::string::npos)
      << text;
  doc.context = {{"target", {{"kind", "emulated"}, {"profile", {{"write_mbps", 20.0}}}}}};
  ASSERT_TRUE(RenderVisaveReport(doc, "lkml", &text, &err)) << err;
  EXPECT_NE(text.find("buffered writer into the page cache: DL 30.0 MB/s, BFQ 30.0 MB/s\n"),
            std::string::npos)
      << text;
}

TEST(VisaveTextTest, GoldenReport) {
  std::string text, err;
  ASSERT_TRUE(RenderVisaveReport(VisaveDocument(), "lkml", &text, &err)) << err;
  EXPECT_NE(text.find("\nDL 0.012,0.045,1.500,0.020,0.030,0.900 = 0.4179 avg\n"), std::string::npos)
      << text;
  testing::ExpectPrintedMatchesGolden("visave_report.txt", VisaveDocument(), "lkml", text);
  EXPECT_FALSE(RenderVisaveReport(VisaveDocument(), "nick", &text, &err));
  EXPECT_EQ(err, "visave results print as lkml, not 'nick'");
}

TEST(VisaveTextTest, RecordsRoundTripWithTheirHistogram) {
  const VisaveRecord r = MakeVisaveRecord("DL", "x", 0, {0.0123, 2.5});
  VisaveRecord back;
  std::string err;
  ASSERT_TRUE(VisaveRecordFromJson(VisaveRecordToJson(r), &back, &err)) << err;
  EXPECT_EQ(VisaveRecordToJson(back), VisaveRecordToJson(r));
  EXPECT_EQ(back.histogram.count(), 2u);
  EXPECT_EQ(back.histogram.max_ns(), 2'500'000'000u);
  nlohmann::json j = VisaveRecordToJson(r);
  j["saves"][1]["fsync_seconds"] = "slow";
  EXPECT_FALSE(VisaveRecordFromJson(j, &back, &err));
  EXPECT_EQ(err, "saves[1].fsync_seconds: expected a number");
}

TEST(VisaveMeasurementsTest, MeanMaxMedianAndTheWriter) {
  std::vector<Measurement> m;
  std::string err;
  ASSERT_TRUE(VisaveMeasurements(VisaveDocument(), &m, &err)) << err;
  ASSERT_EQ(m.size(), 12u);  // 3 records x (mean, max, median, load)
  EXPECT_EQ(m[0].section, "vi-save");
  EXPECT_EQ(m[0].metric.name, "mean_save_seconds");
  EXPECT_TRUE(m[0].metric.headline);
  EXPECT_NEAR(m[0].value, (0.0123 + 0.0456 + 1.5) / 3, 1e-12);
  EXPECT_EQ(m[1].metric.name, "max_save_seconds");
  EXPECT_DOUBLE_EQ(m[1].value, 1.5);
  EXPECT_EQ(m[2].metric.name, "median_save_seconds");
  EXPECT_NEAR(m[2].value, 0.0456, 0.0456 / 128);  // fio's bucket error
  EXPECT_EQ(m[3].metric.name, "load_mb_s");
  EXPECT_DOUBLE_EQ(m[3].value, 30);
}

// A real run on a plain directory (3 saves 2 s apart, two repetitions), as `run` printed it.
TEST(VisaveTextTest, ARealRunAsItWasPrinted) {
  ResultsDocument doc;
  std::string err, text;
  ASSERT_TRUE(
      LoadResultsFile(testing::TestDataPath("fixtures/report_visave_small.json"), &doc, &err))
      << err;
  ASSERT_TRUE(RenderVisaveReport(doc, "lkml", &text, &err)) << err;
  testing::ExpectPrintedMatchesGolden("visave_small.txt", doc, "lkml", text);
}

}  // namespace
}  // namespace elevbench
