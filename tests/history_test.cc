// The run history: the store on SQLite and on a real PostgreSQL server started here, the
// trend's defaults and verdicts, and `elevbench history`/`trend` as a user meets them.

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <optional>

#include "app/suites.h"
#include "harness/history/history_schema.h"
#include "harness/history/history_store.h"
#include "harness/history/run_facts.h"
#include "harness/history/sql_connection.h"
#include "harness/history/trend.h"
#include "harness/process/subprocess.h"
#include "postgres_server.h"
#include "reporters/history_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

// ---- Documents to record ------------------------------------------------------------------

// tests/golden/results_small.json (tiobench, mq-deadline and bfq:low_latency=0, threads 1, one
// repetition) as one run at `start_time` on `host`, repeated once per value of `dl_seq_read`:
// repetition r has mq-deadline's seq_read rate set to dl_seq_read[r].
ResultsDocument TiobenchRun(const std::string& start_time, const std::string& host,
                            const std::vector<double>& dl_seq_read) {
  ResultsDocument base;
  std::string err;
  EXPECT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &base, &err))
      << err;
  ResultsDocument doc = base;
  doc.context["start_time"] = start_time;
  doc.context["hostname"] = host;
  doc.context["command_line"] = "elevbench run tiobench --dir /x";
  doc.context["repetitions"] = dl_seq_read.size();
  doc.context["target"] = {{"kind", "directory"}, {"path", "/x"}, {"filesystem", "ext4"}};
  doc.records.clear();
  doc.cells.clear();
  for (uint32_t rep = 0; rep < dl_seq_read.size(); ++rep) {
    for (CellRecord cell : base.cells) {
      cell.repetition = rep;
      doc.cells.push_back(cell);
    }
    for (nlohmann::json record : base.records) {
      record["repetition"] = rep;
      if (record["identifier"] == "6.18.44-dl" && record["phase"] == "seq_read") {
        record["metrics"]["rate_mb_s"] = dl_seq_read[rep];
      }
      doc.records.push_back(record);
    }
  }
  return doc;
}

SeriesKey DlSeqRead() {
  return {"tiobench", "seq_read", "threads=1", "mq-deadline", "rate_mb_s", ""};
}

// What `run` hands the history with a run: its measurements, made by its suite's measurer.
std::vector<Measurement> MeasurementsFor(const ResultsDocument& doc) {
  std::vector<Measurement> measurements;
  std::string err;
  EXPECT_TRUE(MeasurementsOf(doc, &measurements, &err)) << err;
  return measurements;
}

bool OneLine(const std::string& s) { return !s.empty() && s.find('\n') == std::string::npos; }

// ---- The same behaviour on every backend --------------------------------------------------

// Append, list and read a series; the same run twice is recorded once; a run that got further
// replaces its earlier record. `location` is a fresh database.
void ExpectAppendListSeries(const std::string& location) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  ASSERT_TRUE(OpenHistoryStore(location, true, &store, &err)) << err;

  const ResultsDocument first = TiobenchRun("2026-12-01T10:00:00Z", "box1", {40, 41, 42, 43});
  const ResultsDocument second = TiobenchRun("2026-12-02T10:00:00Z", "box1", {50, 51, 52, 53});
  const ResultsDocument third = TiobenchRun("2026-12-03T10:00:00Z", "box2", {50});
  int64_t id1 = 0, id2 = 0, id3 = 0;
  AppendOutcome outcome;
  // Recorded out of time order: lists and series are in time order anyway.
  ASSERT_TRUE(
      store->AppendRun(second, MeasurementsFor(second), "/r/second.json", &id2, &outcome, &err))
      << err;
  EXPECT_EQ(outcome, AppendOutcome::kAdded);
  ASSERT_TRUE(
      store->AppendRun(first, MeasurementsFor(first), "/r/first.json", &id1, &outcome, &err))
      << err;
  ASSERT_TRUE(
      store->AppendRun(third, MeasurementsFor(third), "/r/third.json", &id3, &outcome, &err))
      << err;
  EXPECT_NE(id1, id2);

  std::vector<HistoryRun> runs;
  ASSERT_TRUE(store->ListRuns({}, &runs, &err)) << err;
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].id, id1);
  EXPECT_EQ(runs[1].id, id2);
  EXPECT_EQ(runs[0].start_time, "2026-12-01T10:00:00Z");
  EXPECT_EQ(runs[0].host, "box1");
  EXPECT_EQ(runs[0].kernel, "6.18.44");
  EXPECT_EQ(runs[0].suite, "tiobench");
  EXPECT_EQ(runs[0].target, "directory /x (ext4)");
  EXPECT_EQ(runs[0].configurations, (std::vector<std::string>{"6.18.44-dl", "6.18.44-bfq-ll0"}));
  EXPECT_EQ(runs[0].results_path, "/r/first.json");
  EXPECT_EQ(runs[0].repetitions, 4u);
  EXPECT_EQ(runs[0].cells_ok, 8u);
  EXPECT_EQ(runs[0].cells_failed, 0u);
  EXPECT_TRUE(runs[0].complete);

  ASSERT_TRUE(store->ListRuns({"", "box2", 0}, &runs, &err)) << err;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].id, id3);
  ASSERT_TRUE(store->ListRuns({"tiobench", "", 2}, &runs, &err)) << err;
  ASSERT_EQ(runs.size(), 2u);  // the newest two, oldest first
  EXPECT_EQ(runs[0].id, id2);
  ASSERT_TRUE(store->ListRuns({"nickbench", "", 0}, &runs, &err)) << err;
  EXPECT_TRUE(runs.empty());

  std::vector<SeriesPoint> points;
  ASSERT_TRUE(store->Series(DlSeqRead(), &points, &err)) << err;
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].run_id, id1);
  EXPECT_EQ(points[0].values, (std::vector<double>{40, 41, 42, 43}));
  EXPECT_EQ(points[1].values, (std::vector<double>{50, 51, 52, 53}));
  EXPECT_EQ(points[2].values, (std::vector<double>{50}));
  EXPECT_EQ(points[0].metric.unit, "MB/s");
  EXPECT_EQ(points[0].metric.mean, MeanKind::kHarmonic);
  EXPECT_EQ(points[0].metric.direction, Direction::kHigherIsBetter);
  // The configuration by identifier, and one host only.
  SeriesKey by_identifier = DlSeqRead();
  by_identifier.configuration = "6.18.44-dl";
  by_identifier.host = "box1";
  ASSERT_TRUE(store->Series(by_identifier, &points, &err)) << err;
  EXPECT_EQ(points.size(), 2u);

  // The same file again: nothing new.
  int64_t again = 0;
  ASSERT_TRUE(store->AppendRun(first, MeasurementsFor(first), "/elsewhere/copy.json", &again,
                               &outcome, &err))
      << err;
  EXPECT_EQ(outcome, AppendOutcome::kUnchanged);
  EXPECT_EQ(again, id1);
  ASSERT_TRUE(store->ListRuns({}, &runs, &err)) << err;
  EXPECT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].results_path, "/r/first.json");
  ASSERT_TRUE(store->Series(DlSeqRead(), &points, &err)) << err;
  EXPECT_EQ(points[0].values.size(), 4u);

  // The same run, recorded while it ran and again at its end: one run, the final numbers.
  ResultsDocument partial = TiobenchRun("2026-12-04T10:00:00Z", "box1", {60, 61});
  ResultsDocument finished = partial;
  partial.complete = false;
  partial.cells.back().status = "interrupted";
  ASSERT_TRUE(
      store->AppendRun(partial, MeasurementsFor(partial), "/r/run4.json", &id1, &outcome, &err))
      << err;
  EXPECT_EQ(outcome, AppendOutcome::kAdded);
  ASSERT_TRUE(
      store->AppendRun(finished, MeasurementsFor(finished), "/r/run4.json", &id2, &outcome, &err))
      << err;
  EXPECT_EQ(outcome, AppendOutcome::kUpdated);
  EXPECT_EQ(id2, id1);
  ASSERT_TRUE(store->ListRuns({}, &runs, &err)) << err;
  ASSERT_EQ(runs.size(), 4u);
  EXPECT_TRUE(runs[3].complete);
  EXPECT_EQ(runs[3].cells_interrupted, 0u);
  ASSERT_TRUE(store->Series(DlSeqRead(), &points, &err)) << err;
  ASSERT_EQ(points.size(), 4u);
  EXPECT_EQ(points[3].values, (std::vector<double>{60, 61}));  // not 4 values
}

// A database whose schema is newer than this build's is refused with one clear line.
void ExpectNewerSchemaRefused(const std::string& location,
                              std::unique_ptr<SqlConnection> connection) {
  std::string err;
  ASSERT_TRUE(connection->Run("UPDATE schema_version SET version = 99", &err)) << err;
  std::unique_ptr<HistoryStore> store;
  EXPECT_FALSE(OpenHistoryStore(location, true, &store, &err));
  EXPECT_TRUE(OneLine(err)) << err;
  EXPECT_NE(err.find("schema version 99 is newer"), std::string::npos) << err;
  EXPECT_NE(err.find("use a newer elevbench"), std::string::npos) << err;
}

// ---- SQLite -------------------------------------------------------------------------------

class HistorySqliteTest : public ::testing::Test {
 protected:
  testing::ScopedTempDir temp_;
  const std::string db_ = temp_.path() + "/history.db";
};

TEST_F(HistorySqliteTest, AppendListSeriesAndDuplicates) { ExpectAppendListSeries(db_); }

TEST_F(HistorySqliteTest, SchemaIsVersioned) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  ASSERT_TRUE(OpenHistoryStore(db_, true, &store, &err)) << err;
  store.reset();
  std::unique_ptr<SqlConnection> connection;
  ASSERT_TRUE(OpenSqliteConnection(db_, false, &connection, &err)) << err;
  std::vector<SqlRow> rows;
  ASSERT_TRUE(connection->Execute("SELECT version FROM schema_version", {}, &rows, &err)) << err;
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(SqlInt(rows[0][0]), kHistorySchemaVersion);
  // Opening again neither fails nor adds a second version row.
  ASSERT_TRUE(OpenHistoryStore(db_, false, &store, &err)) << err;
  ASSERT_TRUE(connection->Execute("SELECT COUNT(*) FROM schema_version", {}, &rows, &err)) << err;
  EXPECT_EQ(SqlInt(rows.back()[0]), 1);
}

TEST_F(HistorySqliteTest, NewerSchemaIsRefused) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  ASSERT_TRUE(OpenHistoryStore(db_, true, &store, &err)) << err;
  store.reset();
  std::unique_ptr<SqlConnection> connection;
  ASSERT_TRUE(OpenSqliteConnection(db_, false, &connection, &err)) << err;
  ExpectNewerSchemaRefused(db_, std::move(connection));
}

TEST_F(HistorySqliteTest, CorruptFileIsOneLineError) {
  std::ofstream(db_) << std::string(4096, 'x');
  std::unique_ptr<HistoryStore> store;
  std::string err;
  EXPECT_FALSE(OpenHistoryStore(db_, true, &store, &err));
  EXPECT_TRUE(OneLine(err)) << err;
  EXPECT_NE(err.find(db_), std::string::npos) << err;
  EXPECT_NE(err.find("not a database"), std::string::npos) << err;
}

TEST_F(HistorySqliteTest, ForeignDatabaseIsRefused) {
  std::unique_ptr<SqlConnection> connection;
  std::string err;
  ASSERT_TRUE(OpenSqliteConnection(db_, true, &connection, &err)) << err;
  ASSERT_TRUE(connection->Run("CREATE TABLE runs (x INTEGER)", &err)) << err;
  std::unique_ptr<HistoryStore> store;
  EXPECT_FALSE(OpenHistoryStore(db_, true, &store, &err));
  EXPECT_NE(err.find("not an elevbench history"), std::string::npos) << err;
}

TEST_F(HistorySqliteTest, MissingFileIsNotCreatedForReading) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  EXPECT_FALSE(OpenHistoryStore(db_, false, &store, &err));
  EXPECT_NE(err.find("no such file"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(db_));
}

TEST_F(HistorySqliteTest, ReadingANamedMissingFileNamesNoDefault) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  EXPECT_FALSE(OpenHistoryForReading(db_, &store, &err));
  EXPECT_NE(err.find("no such file"), std::string::npos) << err;
  EXPECT_EQ(err.find("--db names another"), std::string::npos) << err;
  EXPECT_FALSE(std::filesystem::exists(db_));
}

TEST(HistoryImportTextTest, OneLinePerOutcome) {
  EXPECT_EQ(RenderImportedRun("a.json", AppendOutcome::kAdded, 3), "a.json: added as run 3\n");
  EXPECT_EQ(RenderImportedRun("a.json", AppendOutcome::kUpdated, 3), "a.json: updated run 3\n");
  EXPECT_EQ(RenderImportedRun("a.json", AppendOutcome::kUnchanged, 3),
            "a.json: already recorded as run 3\n");
}

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
                .find("no section 'seq_reed' in tiobench (sections: seq_write, random_write, "
                      "seq_read, random_read)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "", "", "", "", ""}).find("give --section"), std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "8", "", "", ""}).find("(rows: threads=1)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "", "", "", ""})
                .find("give --config (in tiobench seq_read threads=1: mq-deadline, "
                      "bfq:low_latency=0)"),
            std::string::npos);
  EXPECT_NE(ResolveError({"", "seq_read", "", "kyber", "", ""}).find("no configuration 'kyber'"),
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
  EXPECT_NE(text.find("tiobench seq_read threads=1, configuration mq-deadline: rate_mb_s (MB/s, "
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

// ---- Run facts ----------------------------------------------------------------------------

TEST(RunFactsTest, TargetSummaries) {
  EXPECT_EQ(
      TargetSummary(
          {{"kind", "emulated"}, {"profile", {{"name", "ide-2003"}}}, {"filesystem", "ext2"}}),
      "emulated ide-2003 ext2");
  EXPECT_EQ(TargetSummary({{"kind", "scratch"}, {"filesystem", "xfs"}, {"size_bytes", 1u << 30}}),
            "scratch xfs 1024 MiB");
  EXPECT_EQ(TargetSummary({{"kind", "directory"}, {"path", "/var/tmp/d"}, {"filesystem", "ext4"}}),
            "directory /var/tmp/d (ext4)");
  EXPECT_EQ(TargetSummary(nullptr), "");
}

TEST(RunFactsTest, IdentityWithoutAStartTime) {
  ResultsDocument doc;
  std::string err;
  ASSERT_TRUE(LoadResultsFile(testing::TestDataPath("golden/results_small.json"), &doc, &err));
  EXPECT_EQ(RunFactsOf(doc, "r.json").run.start_time, "2026-11-29T23:00:00Z");  // first cell
  for (CellRecord& c : doc.cells) c.started_at.clear();
  const std::string digest = RunFactsOf(doc, "r.json").run.start_time;
  EXPECT_EQ(digest.rfind("digest:", 0), 0u) << digest;
  EXPECT_EQ(RunFactsOf(doc, "other.json").run.start_time, digest);  // the content decides
  doc.records[0]["metrics"]["rate_mb_s"] = 1.0;
  EXPECT_NE(RunFactsOf(doc, "r.json").run.start_time, digest);
  EXPECT_EQ(RunFactsOf(doc, "r.json").run.results_path,
            (std::filesystem::current_path() / "r.json").string());
}

TEST(HistoryLocationTest, PostgresUrisAndPasswords) {
  EXPECT_TRUE(IsPostgresLocation("postgresql://u@h/db"));
  EXPECT_TRUE(IsPostgresLocation("postgres://u@h/db"));
  EXPECT_FALSE(IsPostgresLocation("results/history.db"));
  EXPECT_EQ(RedactedLocation("postgresql://bench:s3cret@db.lab:5432/elevbench"),
            "postgresql://bench:***@db.lab:5432/elevbench");
  EXPECT_EQ(RedactedLocation("postgresql://bench@db.lab/elevbench?password=s3cret&x=1"),
            "postgresql://bench@db.lab/elevbench?password=***&x=1");
  EXPECT_EQ(RedactedLocation("postgres://db.lab/elevbench"), "postgres://db.lab/elevbench");
}

// ---- PostgreSQL: a real server in a temporary directory (postgres_server.h) ---------------

using testing::ScopedPostgresServer;

// One server for all PostgreSQL tests (initdb takes a second or two), stopped and removed in
// TearDownTestSuite, which gtest runs even when a test failed.
class HistoryPostgresRootTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    server_ = new ScopedPostgresServer;
    if (!server_->Start(&skip_reason_)) {
      delete server_;
      server_ = nullptr;
    }
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (server_ == nullptr) GTEST_SKIP() << skip_reason_;
  }
  // A fresh database for the current test.
  std::string Database() {
    const std::string name =
        std::string("t_") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::string lower;
    for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string err;
    EXPECT_TRUE(server_->CreateDatabase(lower, &err)) << err;
    return server_->Uri(lower);
  }
  static ScopedPostgresServer* server_;
  static std::string skip_reason_;
};

ScopedPostgresServer* HistoryPostgresRootTest::server_ = nullptr;
std::string HistoryPostgresRootTest::skip_reason_;

TEST_F(HistoryPostgresRootTest, AppendListSeriesAndDuplicates) {
  ExpectAppendListSeries(Database());
}

TEST_F(HistoryPostgresRootTest, NewerSchemaIsRefused) {
  const std::string uri = Database();
  std::unique_ptr<HistoryStore> store;
  std::string err;
  ASSERT_TRUE(OpenHistoryStore(uri, true, &store, &err)) << err;
  store.reset();
  std::unique_ptr<SqlConnection> connection;
  ASSERT_TRUE(OpenPostgresConnection(uri, &connection, &err)) << err;
  ExpectNewerSchemaRefused(uri, std::move(connection));
}

TEST_F(HistoryPostgresRootTest, SameTablesAsSqlite) {
  const std::string uri = Database();
  std::unique_ptr<HistoryStore> store;
  std::string err;
  ASSERT_TRUE(OpenHistoryStore(uri, true, &store, &err)) << err;
  std::unique_ptr<SqlConnection> connection;
  ASSERT_TRUE(OpenPostgresConnection(uri, &connection, &err)) << err;
  std::vector<SqlRow> rows;
  ASSERT_TRUE(
      connection->Execute("SELECT table_name, column_name FROM information_schema.columns "
                          "WHERE table_schema = 'public' ORDER BY table_name, ordinal_position",
                          {}, &rows, &err))
      << err;
  std::string columns;
  for (const SqlRow& r : rows) columns += SqlText(r[0]) + "." + SqlText(r[1]) + " ";
  EXPECT_NE(columns.find("runs.id runs.start_time runs.host runs.suite runs.command_line"),
            std::string::npos)
      << columns;
  EXPECT_NE(columns.find("measurements.value measurements.status"), std::string::npos) << columns;
  EXPECT_NE(columns.find("schema_version.version"), std::string::npos) << columns;
}

TEST_F(HistoryPostgresRootTest, UnreachableServerIsOneLineError) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  const std::string uri =
      "postgresql://bench:s3cret@/elevbench?host=" + server_->directory() + "/nowhere&port=1";
  EXPECT_FALSE(OpenHistoryStore(uri, true, &store, &err));
  EXPECT_TRUE(OneLine(err)) << err;
  EXPECT_NE(err.find("history postgresql://bench:***@"), std::string::npos) << err;
  EXPECT_EQ(err.find("s3cret"), std::string::npos) << err;
}

// ---- The command line ---------------------------------------------------------------------

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

CliResult Elevbench(std::vector<std::string> args, const std::string& cwd = "") {
  args.insert(args.begin(), ELEVBENCH_BINARY);
  ProcessOptions options;
  options.timeout_seconds = 300;
  options.working_directory = cwd;
  ProcessResult r;
  std::string err;
  EXPECT_TRUE(RunProcess(args, options, &r, &err)) << err;
  return {r.exit_code, r.output, r.error_output};
}

class HistoryCliTest : public HistorySqliteTest {
 protected:
  std::string CopyOf(const std::string& golden) {
    const std::string path = temp_.path() + "/" + golden;
    std::filesystem::copy_file(testing::TestDataPath("golden/" + golden), path);
    return path;
  }
};

TEST_F(HistoryCliTest, ImportThenHistoryAndTrend) {
  const std::string tio = CopyOf("results_small.json");
  const std::string nick = CopyOf("nickbench_small.json");
  CliResult r = Elevbench({"history", "import", tio, nick, "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": added as run 1\n" + nick + ": added as run 2\n");
  r = Elevbench({"history", "import", tio, "--db", db_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, tio + ": already recorded as run 1\n");

  r = Elevbench({"history", "--db", db_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("ID  TIME"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("tiobench"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("6.18.44-dl,6.18.44-bfq-ll0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nickbench"), std::string::npos) << r.out;
  r = Elevbench({"history", "--db", db_, "--suite", "nickbench", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json runs = nlohmann::json::parse(r.out);
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0]["suite"], "nickbench");
  EXPECT_EQ(runs[0]["configurations"], nlohmann::json::array({"DL"}));
  EXPECT_EQ(runs[0]["results_path"], nick);

  r = Elevbench({"trend", "--db", db_, "--suite", "tiobench", "--section", "seq_read", "--config",
                 "mq-deadline"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tiobench seq_read threads=1, configuration mq-deadline: rate_mb_s"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2026-11-29T23:00:00Z"), std::string::npos) << r.out;  // its one run
  // nickbench: one section row, the only configuration chosen by default.
  r = Elevbench({"trend", "--db", db_, "--suite", "nickbench", "--section", "bench2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("configuration DL: io_rate_mb_s"), std::string::npos) << r.out;

  r = Elevbench({"trend", "--db", db_, "--suite", "tiobench", "--section", "seq"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "elevbench: no section 'seq' in tiobench (sections: seq_write, random_write, seq_read, "
            "random_read)\n");
}

TEST_F(HistoryCliTest, TrendSaysWhenItMixesHosts) {
  for (const char* host : {"box1", "box2"}) {
    const std::string path = temp_.path() + "/" + host + ".json";
    std::string err;
    ASSERT_TRUE(SaveResultsFile(path, TiobenchRun("2026-12-01T10:00:00Z", host, {40}), &err))
        << err;
    ASSERT_EQ(Elevbench({"history", "import", path, "--db", db_}).exit_code, 0);
  }
  CliResult r =
      Elevbench({"trend", "--db", db_, "--section", "seq_read", "--config", "mq-deadline"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: the series mixes 2 hosts (box1, box2)"), std::string::npos) << r.err;
  r = Elevbench(
      {"trend", "--db", db_, "--section", "seq_read", "--config", "mq-deadline", "--host", "box2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("configuration mq-deadline, host box2"), std::string::npos) << r.out;
}

TEST_F(HistoryCliTest, ReadingANonexistentOrCorruptDatabase) {
  CliResult r = Elevbench({"history"}, temp_.path());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "elevbench: history results/history.db: no such file (every 'elevbench run' records "
            "there; --db names another)\n");
  EXPECT_FALSE(std::filesystem::exists(temp_.path() + "/results"));
  std::ofstream(db_) << "not a database at all, clearly";
  r = Elevbench({"trend", "--db", db_});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "elevbench: history " + db_ + ": file is not a database\n");
}

// The CLI tests that run real fio (ctest -L root, as every test that does I/O through fio).
class HistoryCliRootTest : public HistoryCliTest {};

// `elevbench run` records itself in results/history.db of the current directory; a history
// that cannot be written is a note, not a failed run.
TEST_F(HistoryCliRootTest, RunRecordsItselfAndSurvivesABrokenHistory) {
  if (access("/usr/bin/fio", X_OK) != 0) GTEST_SKIP() << "fio is not installed";
  std::filesystem::create_directory(temp_.path() + "/d");
  CliResult r = Elevbench({"run", "tiobench", "--dir", temp_.path() + "/d", "--size", "8",
                           "--threads", "1", "--random", "100", "--out", "r.json"},
                          temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: run recorded in the history results/history.db"), std::string::npos)
      << r.err;
  r = Elevbench({"history"}, temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tiobench"), std::string::npos) << r.out;
  r = Elevbench({"trend", "--section", "seq_read"}, temp_.path());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("rate_mb_s"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n  1  "), std::string::npos) << r.out;  // run 1's line

  std::ofstream(db_) << "not a database at all, clearly";
  r = Elevbench({"run", "tiobench", "--dir", temp_.path() + "/d", "--size", "8", "--threads", "1",
                 "--random", "100", "--out", "r2.json", "--db", db_},
                temp_.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("note: run not recorded in the history: history " + db_ +
                       ": file is not a database"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::filesystem::exists(temp_.path() + "/r2.json"));
}

}  // namespace
}  // namespace elevbench
