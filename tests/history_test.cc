// The run history's store: the same behaviour on SQLite and on a real PostgreSQL server started
// here, the schema and the errors of each backend, the import's text, the run facts and the
// history's location. The trend is in history_trend_test.cc, `elevbench history`/`trend` as a
// user meets them in history_cli_test.cc.

#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/suites.h"
#include "harness/history/history_schema.h"
#include "harness/history/history_store.h"
#include "harness/history/run_facts.h"
#include "harness/history/sql_connection.h"
#include "history_fixture.h"
#include "postgres_server.h"
#include "reporters/history_text.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::DlSeqRead;
using testing::HistorySqliteTest;
using testing::MeasurementsFor;
using testing::OneLine;
using testing::TiobenchRun;

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

// #43: a --kernels run's kernel in the history is every kernel under test, in order, not the
// first guest's alone (trend showed 6.1's release beside the 6.12 rows).
TEST(RunFactsTest, AKernelsRunRecordsEveryKernelUnderTest) {
  ResultsDocument doc;
  doc.suite = "nickbench";
  doc.context = {
      {"kernel", "6.1.0-50-cloud-amd64"},
      {"hostname", "testbox"},
      {"kernels",
       {{{"release", "6.1.0-50-cloud-amd64"}}, {{"release", "6.12.118+deb12-cloud-amd64"}}}}};
  const RunFacts facts = RunFactsOf(doc, "r.json");
  EXPECT_EQ(facts.run.kernel, "6.1.0-50-cloud-amd64,6.12.118+deb12-cloud-amd64");
  EXPECT_EQ(facts.run.host, "testbox");
  doc.context.erase("kernels");
  EXPECT_EQ(RunFactsOf(doc, "r.json").run.kernel, "6.1.0-50-cloud-amd64");
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
    if (server_ == nullptr) ELEVBENCH_SKIP_OR_FAIL_IN_CI(skip_reason_);
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

}  // namespace
}  // namespace elevbench
