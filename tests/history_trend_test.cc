// The history's trend (harness/history/trend.h): the defaults where one choice fits, the errors
// that list the choices, the verdicts on significant changes, the hosts in order of appearance
// and the rows of a build that measured nothing.

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "harness/history/history_store.h"
#include "harness/history/trend.h"
#include "history_fixture.h"
#include "reporters/history_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::DlSeqRead;
using testing::HistorySqliteTest;
using testing::MeasurementsFor;
using testing::OneLine;
using testing::TiobenchRun;

// ---- Trend: defaults, choices, verdicts ---------------------------------------------------

class TrendTest : public HistorySqliteTest {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(OpenHistoryStore(db_, true, &store_, &err)) << err;
    int64_t id;
    AppendOutcome outcome;
    ASSERT_TRUE(store_->AppendRun(
        TiobenchRun("2026-12-01T10:00:00Z", "box1", {40, 41, 42, 43}),
        MeasurementsFor(TiobenchRun("2026-12-01T10:00:00Z", "box1", {40, 41, 42, 43})), "a.json",
        &id, &outcome, &err))
        << err;
    ASSERT_TRUE(store_->AppendRun(
        TiobenchRun("2026-12-02T10:00:00Z", "box1", {50, 51, 52, 53}),
        MeasurementsFor(TiobenchRun("2026-12-02T10:00:00Z", "box1", {50, 51, 52, 53})), "b.json",
        &id, &outcome, &err))
        << err;
    ASSERT_TRUE(
        store_->AppendRun(TiobenchRun("2026-12-03T10:00:00Z", "box1", {50}),
                          MeasurementsFor(TiobenchRun("2026-12-03T10:00:00Z", "box1", {50})),
                          "c.json", &id, &outcome, &err))
        << err;
    ASSERT_TRUE(store_->AppendRun(
        TiobenchRun("2026-12-04T10:00:00Z", "box1", {52, 50, 53, 51}),
        MeasurementsFor(TiobenchRun("2026-12-04T10:00:00Z", "box1", {52, 50, 53, 51})), "d.json",
        &id, &outcome, &err))
        << err;
  }
  std::string ResolveError(const TrendRequest& request) {
    SeriesKey key;
    std::string err;
    EXPECT_FALSE(ResolveTrendRequest(store_.get(), request, &key, &err));
    EXPECT_TRUE(OneLine(err)) << err;
    return err;
  }
  std::unique_ptr<HistoryStore> store_;
};

TEST_F(TrendTest, DefaultsWhereOneChoiceFits) {
  SeriesKey key;
  std::string err;
  // The only suite and row; "1" for "threads=1"; the headline metric.
  ASSERT_TRUE(
      ResolveTrendRequest(store_.get(), {"", "seq_read", "1", "mq-deadline", "", ""}, &key, &err))
      << err;
  EXPECT_EQ(key.suite, "tiobench");
  EXPECT_EQ(key.row, "threads=1");
  EXPECT_EQ(key.metric, "rate_mb_s");
  ASSERT_TRUE(ResolveTrendRequest(
      store_.get(), {"tiobench", "seq_read", "threads=1", "6.18.44-bfq-ll0", "max_latency_ms", ""},
      &key, &err))
      << err;
  EXPECT_EQ(key.metric, "max_latency_ms");
}

TEST_F(TrendTest, ErrorsListTheChoices) {
  EXPECT_NE(ResolveError({"nosuch", "", "", "", "", ""})
                .find("no suite 'nosuch' in the history (suites: tiobench)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_reed", "", "", "", ""})
                .find("no section 'seq_reed' in tiobench (sections: seq_read, random_read, "
                      "seq_write, random_write)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "", "", "", "", ""}).find("give --section"), std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "8", "", "", ""}).find("(rows: threads=1)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "", "", "", ""})
                .find("give --config (in tiobench seq_read threads=1: mq-deadline, "
                      "bfq:low_latency=0)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "", "kyber", "", ""})
                .find("no configuration 'kyber' with measurements"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "", "mq-deadline", "speed", ""})
                .find("(metrics: rate_mb_s, cpu_pct, avg_latency_ms"),
            std::string::npos);
}

TEST_F(TrendTest, MarksSignificantChangesAndSaysWhenNoTestIsPossible) {
  std::vector<SeriesPoint> points;
  std::string err;
  ASSERT_TRUE(store_->Series(DlSeqRead(), &points, &err)) << err;
  const Trend trend = BuildTrend(DlSeqRead(), points);
  ASSERT_EQ(trend.points.size(), 4u);
  EXPECT_FALSE(trend.points[0].has_previous);
  // 40..43 → 50..53 at n = 4: every value higher, exact p = 2/70.
  const TrendPoint& up = trend.points[1];
  EXPECT_TRUE(up.tested);
  EXPECT_NEAR(up.test.p_value, 2.0 / 70, 1e-9);
  EXPECT_TRUE(up.significant);
  EXPECT_EQ(up.verdict, "better");
  EXPECT_GT(up.change_pct, 20);
  // n = 1: a change, no test.
  EXPECT_TRUE(trend.points[2].has_previous);
  EXPECT_FALSE(trend.points[2].tested);
  // n = 4 after n = 1: still no test (the previous run has one value).
  EXPECT_FALSE(trend.points[3].tested);
  EXPECT_EQ(trend.points[3].previous_n, 1u);

  const std::string text = RenderTrend(trend);
  EXPECT_NE(text.find("tiobench seq_read threads=1, configuration mq-deadline: rate_mb_s (MiB/s, "
                      "higher is better, harmonic mean"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("alpha 0.05"), std::string::npos) << text;
  EXPECT_NE(text.find("* better"), std::string::npos) << text;
  EXPECT_NE(text.find("no test (n=1)"), std::string::npos) << text;
  EXPECT_NE(text.find("HMEAN"), std::string::npos) << text;
}

TEST_F(TrendTest, ReadsTheSeriesOrSaysTheRequestIsBad) {
  SeriesKey key;
  std::vector<SeriesPoint> points;
  bool bad_request = false;
  std::string err;
  ASSERT_TRUE(ReadTrendSeries(store_.get(), {"", "seq_read", "1", "mq-deadline", "", ""}, &key,
                              &points, &bad_request, &err))
      << err;
  EXPECT_FALSE(bad_request);
  EXPECT_EQ(points.size(), 4u);
  EXPECT_EQ(SeriesHosts(points), std::vector<std::string>{"box1"});
  EXPECT_FALSE(ReadTrendSeries(store_.get(), {"", "nope", "", "", "", ""}, &key, &points,
                               &bad_request, &err));
  EXPECT_TRUE(bad_request);
}

// #43: a --kernels run's rows share their code and scheduler (6.1.0-50-cloud-DL and
// 6.12.118-cloud-DL are both "dl" and mq-deadline): naming either is refused as naming two
// configurations, where trend had printed both as one series ("+78 % against the previous
// run" between two kernels of one run); a label named whole is one series.
TEST_F(HistorySqliteTest, ACodeThatTwoKernelsRowsShareIsRefusedAndTheirLabelsAreNot) {
  std::string err;
  std::unique_ptr<HistoryStore> store;
  ASSERT_TRUE(OpenHistoryStore(db_, true, &store, &err)) << err;
  ResultsDocument doc = TiobenchRun("2026-12-05T18:00:00Z", "box1", {40, 41, 42, 43});
  doc.identifiers = {"6.1.0-50-cloud-dl", "6.12.118-cloud-dl"};
  doc.labels = {"6.1.0-50-cloud-DL", "6.12.118-cloud-DL"};
  const auto rename = [](const std::string& id) {
    return id == "6.18.44-dl" ? std::string("6.1.0-50-cloud-dl") : std::string("6.12.118-cloud-dl");
  };
  for (CellRecord& c : doc.cells) {
    c.identifier = rename(c.identifier);
    c.label = c.identifier == "6.1.0-50-cloud-dl" ? "6.1.0-50-cloud-DL" : "6.12.118-cloud-DL";
    c.scheduler = "mq-deadline";
  }
  for (nlohmann::json& r : doc.records) {
    r["identifier"] = rename(r["identifier"].get<std::string>());
    r["label"] = r["identifier"] == "6.1.0-50-cloud-dl" ? "6.1.0-50-cloud-DL" : "6.12.118-cloud-DL";
    r["scheduler"] = "mq-deadline";
  }
  int64_t id = 0;
  AppendOutcome outcome;
  ASSERT_TRUE(store->AppendRun(doc, MeasurementsFor(doc), "k.json", &id, &outcome, &err)) << err;
  SeriesKey key;
  for (const char* ambiguous : {"dl", "DL", "mq-deadline"}) {
    EXPECT_FALSE(
        ResolveTrendRequest(store.get(), {"", "seq_read", "", ambiguous, "", ""}, &key, &err))
        << ambiguous;
    EXPECT_NE(err.find("names 2 configurations"), std::string::npos) << err;
    EXPECT_TRUE(OneLine(err)) << err;
  }
  EXPECT_TRUE(ResolveTrendRequest(store.get(), {"", "seq_read", "", "6.12.118-cloud-DL", "", ""},
                                  &key, &err))
      << err;
}

TEST(TrendHostsTest, InTheOrderTheyFirstAppear) {
  std::vector<SeriesPoint> points(4);
  points[0].host = "b";
  points[1].host = "a";
  points[2].host = "b";
  points[3].host = "c";
  EXPECT_EQ(SeriesHosts(points), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(TrendBuildTest, NotMeasuredIsNotANumber) {
  SeriesPoint failed;
  failed.run_id = 7;
  failed.not_measured = 2;
  failed.metric = {"elapsed_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true};
  SeriesPoint slower = failed;
  slower.run_id = 8;
  slower.not_measured = 0;
  slower.values = {10, 11, 12, 13};
  SeriesPoint faster = slower;
  faster.run_id = 9;
  faster.values = {5, 6, 5, 6};
  const Trend trend =
      BuildTrend({"probes", "cat", "", "DL", "elapsed_seconds", ""}, {failed, slower, faster});
  EXPECT_EQ(trend.points[0].summary.n, 0u);
  EXPECT_FALSE(trend.points[1].has_previous);    // the failed run is no baseline
  EXPECT_EQ(trend.points[2].verdict, "better");  // lower is better
  const std::string text = RenderTrend(trend);
  EXPECT_NE(text.find("not measured"), std::string::npos) << text;
  EXPECT_NE(text.find("2 not measured"), std::string::npos) << text;
  EXPECT_EQ(text.find("0.000"), std::string::npos) << text;
}

}  // namespace
}  // namespace elevbench
