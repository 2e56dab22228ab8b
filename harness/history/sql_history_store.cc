// HistoryStore over any SqlConnection: the queries of the history, written once for SQLite and
// PostgreSQL (docs/history.md has the tables).

#include <algorithm>
#include <filesystem>

#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/history/history_schema.h"
#include "harness/history/history_store.h"
#include "harness/history/run_facts.h"
#include "harness/history/sql_connection.h"

namespace elevbench {
namespace {

// Rows per multi-row INSERT of measurements: 14 values each stays far below SQLite's 32766 and
// PostgreSQL's 65535 parameters, and saves a round trip per row on a shared server.
constexpr size_t kMeasurementsPerInsert = 200;
constexpr int kMeasurementColumns = 14;

Direction DirectionFromName(const std::string& name) {
  if (name == "higher") return Direction::kHigherIsBetter;
  if (name == "lower") return Direction::kLowerIsBetter;
  return Direction::kNeither;
}

std::vector<std::string> ConfigurationsFromJson(const std::string& text) {
  std::vector<std::string> out;
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_array()) return out;
  for (const nlohmann::json& c : j) {
    if (!c.is_object()) continue;
    const std::string label = c.value("label", std::string());
    out.push_back(label.empty() ? c.value("identifier", std::string()) : label);
  }
  return out;
}

// The columns of a run, in the order of kRunColumns.
constexpr const char* kRunColumns =
    "id, start_time, host, suite, command_line, kernel, target, configurations, results_path, "
    "elevbench_version, repetitions, cells_ok, cells_failed, cells_interrupted, complete, "
    "recorded_at";

HistoryRun RunFromRow(const SqlRow& r) {
  HistoryRun run;
  run.id = SqlInt(r[0]);
  run.start_time = SqlText(r[1]);
  run.host = SqlText(r[2]);
  run.suite = SqlText(r[3]);
  run.command_line = SqlText(r[4]);
  run.kernel = SqlText(r[5]);
  run.target = SqlText(r[6]);
  run.configurations = ConfigurationsFromJson(SqlText(r[7]));
  run.results_path = SqlText(r[8]);
  run.elevbench_version = SqlText(r[9]);
  run.repetitions = static_cast<uint32_t>(SqlInt(r[10]));
  run.cells_ok = static_cast<uint32_t>(SqlInt(r[11]));
  run.cells_failed = static_cast<uint32_t>(SqlInt(r[12]));
  run.cells_interrupted = static_cast<uint32_t>(SqlInt(r[13]));
  run.complete = SqlInt(r[14]) != 0;
  run.recorded_at = SqlText(r[15]);
  return run;
}

class SqlHistoryStore : public HistoryStore {
 public:
  SqlHistoryStore(std::unique_ptr<SqlConnection> connection, std::string location)
      : db_(std::move(connection)), location_(std::move(location)) {}

  bool AppendRun(const ResultsDocument& doc, const std::vector<Measurement>& measurements,
                 const std::string& results_path, int64_t* run_id, AppendOutcome* outcome,
                 std::string* err) override {
    const RunFacts facts = RunFactsOf(doc, results_path);
    const HistoryRun& run = facts.run;
    SqlTransaction tx(db_.get());
    if (!tx.Begin(err)) return Fail(err);
    std::vector<SqlRow> rows;
    if (!db_->Execute("SELECT id, cells_ok, cells_failed, cells_interrupted, complete FROM runs "
                      "WHERE start_time = ? AND host = ? AND suite = ? AND command_line = ?",
                      {run.start_time, run.host, run.suite, run.command_line}, &rows, err)) {
      return Fail(err);
    }
    const std::vector<SqlValue> facts_values = {run.kernel,
                                                run.target,
                                                facts.target_json,
                                                facts.configurations_json,
                                                run.results_path,
                                                run.elevbench_version,
                                                static_cast<int64_t>(run.repetitions),
                                                static_cast<int64_t>(run.cells_ok),
                                                static_cast<int64_t>(run.cells_failed),
                                                static_cast<int64_t>(run.cells_interrupted),
                                                static_cast<int64_t>(run.complete ? 1 : 0),
                                                NowIso8601()};
    if (!rows.empty()) {
      const SqlRow& old = rows[0];
      *run_id = SqlInt(old[0]);
      if (SqlInt(old[1]) == run.cells_ok && SqlInt(old[2]) == run.cells_failed &&
          SqlInt(old[3]) == run.cells_interrupted && (SqlInt(old[4]) != 0) == run.complete) {
        *outcome = AppendOutcome::kUnchanged;
        return true;  // the transaction rolls back: nothing was written
      }
      std::vector<SqlValue> params = facts_values;
      params.emplace_back(*run_id);
      if (!db_->Execute("UPDATE runs SET kernel = ?, target = ?, target_json = ?, "
                        "configurations = ?, results_path = ?, elevbench_version = ?, "
                        "repetitions = ?, cells_ok = ?, cells_failed = ?, cells_interrupted = ?, "
                        "complete = ?, recorded_at = ? WHERE id = ?",
                        params, nullptr, err) ||
          !db_->Execute("DELETE FROM measurements WHERE run_id = ?", {*run_id}, nullptr, err)) {
        return Fail(err);
      }
      *outcome = AppendOutcome::kUpdated;
    } else {
      std::vector<SqlValue> params = {run.start_time, run.host, run.suite, run.command_line};
      params.insert(params.end(), facts_values.begin(), facts_values.end());
      rows.clear();
      if (!db_->Execute("INSERT INTO runs (start_time, host, suite, command_line, kernel, target, "
                        "target_json, configurations, results_path, elevbench_version, "
                        "repetitions, cells_ok, cells_failed, cells_interrupted, complete, "
                        "recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        "RETURNING id",
                        params, &rows, err)) {
        return Fail(err);
      }
      if (rows.empty()) {
        *err = "the new run got no id";
        return Fail(err);
      }
      *run_id = SqlInt(rows[0][0]);
      *outcome = AppendOutcome::kAdded;
    }
    if (!InsertMeasurements(*run_id, measurements, err) || !tx.Commit(err)) return Fail(err);
    return true;
  }

  bool ListRuns(const RunFilter& filter, std::vector<HistoryRun>* runs, std::string* err) override {
    std::string sql = std::string("SELECT ") + kRunColumns +
                      " FROM runs WHERE (? = '' OR suite = ?) AND (? = '' OR host = ?) "
                      "ORDER BY start_time DESC, id DESC";
    std::vector<SqlValue> params = {filter.suite, filter.suite, filter.host, filter.host};
    if (filter.last > 0) {
      sql += " LIMIT ?";
      params.emplace_back(static_cast<int64_t>(filter.last));
    }
    std::vector<SqlRow> rows;
    if (!db_->Execute(sql, params, &rows, err)) return Fail(err);
    runs->clear();
    for (auto it = rows.rbegin(); it != rows.rend(); ++it) runs->push_back(RunFromRow(*it));
    return true;
  }

  bool Series(const SeriesKey& key, std::vector<SeriesPoint>* points, std::string* err) override {
    std::vector<SqlRow> rows;
    if (!db_->Execute(
            "SELECT r.id, r.start_time, r.host, r.kernel, m.identifier, m.label, m.unit, "
            "m.direction, m.mean_kind, m.headline, m.value, m.status "
            "FROM measurements m JOIN runs r ON r.id = m.run_id "
            "WHERE r.suite = ? AND m.section = ? AND m.row_key = ? AND m.metric = ? "
            "AND (? = '' OR r.host = ?) "
            "AND (m.scheduler = ? OR LOWER(m.identifier) = LOWER(?) OR "
            "LOWER(m.label) = LOWER(?) OR LOWER(m.identifier) LIKE ?) "
            "ORDER BY r.start_time, r.id, m.identifier, m.repetition, m.id",
            {key.suite, key.section, key.row, key.metric, key.host, key.host, key.configuration,
             key.configuration, key.configuration, "%_-" + Lowercase(key.configuration)},
            &rows, err)) {
      return Fail(err);
    }
    points->clear();
    for (const SqlRow& r : rows) {
      const int64_t run_id = SqlInt(r[0]);
      const std::string identifier = SqlText(r[4]);
      if (points->empty() || points->back().run_id != run_id ||
          points->back().identifier != identifier) {
        SeriesPoint p;
        p.run_id = run_id;
        p.start_time = SqlText(r[1]);
        p.host = SqlText(r[2]);
        p.kernel = SqlText(r[3]);
        p.identifier = identifier;
        p.label = SqlText(r[5]);
        p.metric.name = key.metric;
        p.metric.unit = SqlText(r[6]);
        p.metric.direction = DirectionFromName(SqlText(r[7]));
        p.metric.mean = SqlText(r[8]) == "hmean" ? MeanKind::kHarmonic : MeanKind::kArithmetic;
        p.metric.headline = SqlInt(r[9]) != 0;
        points->push_back(std::move(p));
      }
      if (SqlText(r[11]) == "ok" && !SqlIsNull(r[10])) {
        points->back().values.push_back(SqlDouble(r[10]));
      } else {
        ++points->back().not_measured;
      }
    }
    return true;
  }

  bool MeasuredKeys(const std::string& suite, const std::string& host,
                    std::vector<MeasuredKey>* keys, std::string* err) override {
    std::vector<SqlRow> rows;
    if (!db_->Execute("SELECT m.section, m.row_key, m.identifier, m.label, m.scheduler, m.metric, "
                      "MAX(m.headline) FROM measurements m JOIN runs r ON r.id = m.run_id "
                      "WHERE r.suite = ? AND (? = '' OR r.host = ?) "
                      "GROUP BY m.section, m.row_key, m.identifier, m.label, m.scheduler, "
                      "m.metric ORDER BY MIN(m.id)",
                      {suite, host, host}, &rows, err)) {
      return Fail(err);
    }
    keys->clear();
    for (const SqlRow& r : rows) {
      keys->push_back({SqlText(r[0]), SqlText(r[1]), SqlText(r[2]), SqlText(r[3]), SqlText(r[4]),
                       SqlText(r[5]), SqlInt(r[6]) != 0});
    }
    return true;
  }

  bool Suites(std::vector<std::string>* suites, std::string* err) override {
    std::vector<SqlRow> rows;
    if (!db_->Execute("SELECT DISTINCT suite FROM runs ORDER BY suite", {}, &rows, err)) {
      return Fail(err);
    }
    suites->clear();
    for (const SqlRow& r : rows) suites->push_back(SqlText(r[0]));
    return true;
  }

 private:
  bool InsertMeasurements(int64_t run_id, const std::vector<Measurement>& all, std::string* err) {
    for (size_t begin = 0; begin < all.size(); begin += kMeasurementsPerInsert) {
      const size_t end = std::min(all.size(), begin + kMeasurementsPerInsert);
      std::string sql =
          "INSERT INTO measurements (run_id, section, row_key, identifier, label, scheduler, "
          "repetition, metric, unit, direction, mean_kind, headline, value, status) VALUES ";
      std::vector<SqlValue> params;
      params.reserve((end - begin) * kMeasurementColumns);
      for (size_t i = begin; i < end; ++i) {
        const Measurement& m = all[i];
        sql += i == begin ? "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                          : ", (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
        params.insert(
            params.end(),
            {run_id, m.section, m.row, m.identifier, m.label, m.scheduler,
             static_cast<int64_t>(m.repetition), m.metric.name, m.metric.unit,
             std::string(DirectionName(m.metric.direction)),
             std::string(MeanKindName(m.metric.mean)),
             static_cast<int64_t>(m.metric.headline ? 1 : 0),
             m.status == "ok" ? SqlValue(m.value) : SqlValue(std::monostate{}), m.status});
      }
      if (!db_->Execute(sql, params, nullptr, err)) return false;
    }
    return true;
  }

  bool Fail(std::string* err) {
    *err = "history " + RedactedLocation(location_) + ": " + *err;
    return false;
  }

  std::unique_ptr<SqlConnection> db_;
  std::string location_;
};

}  // namespace

bool IsPostgresLocation(const std::string& location) {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::string RedactedLocation(const std::string& location) {
  if (!IsPostgresLocation(location)) return location;
  std::string out = location;
  // scheme://user:password@host… → scheme://user:***@host…
  const size_t authority = out.find("://") + 3;
  const size_t at = out.find('@', authority);
  const size_t slash = out.find('/', authority);
  if (at != std::string::npos && (slash == std::string::npos || at < slash)) {
    const size_t colon = out.find(':', authority);
    if (colon != std::string::npos && colon < at) {
      out = out.substr(0, colon + 1) + "***" + out.substr(at);
    }
  }
  // …?password=secret&… → …?password=***&…
  const size_t password = out.find("password=");
  if (password != std::string::npos) {
    const size_t value_end = out.find('&', password);
    out = out.substr(0, password + 9) + "***" +
          (value_end == std::string::npos ? "" : out.substr(value_end));
  }
  return out;
}

std::string DefaultHistoryLocation(bool make_directory) {
  std::error_code ec;
  if (make_directory) {
    std::filesystem::create_directories("results", ec);
    return ec ? std::string("./history.db") : std::string("results/history.db");
  }
  if (!std::filesystem::is_directory("results", ec) && std::filesystem::exists("history.db", ec)) {
    return "./history.db";
  }
  return "results/history.db";
}

bool OpenHistoryStore(const std::string& location, bool create,
                      std::unique_ptr<HistoryStore>* store, std::string* err) {
  std::unique_ptr<SqlConnection> connection;
  const bool postgres = IsPostgresLocation(location);
  const bool opened = postgres ? OpenPostgresConnection(location, &connection, err)
                               : OpenSqliteConnection(location, create, &connection, err);
  if (!opened || !EnsureHistorySchema(connection.get(), err)) {
    *err = "history " + RedactedLocation(location) + ": " + *err;
    return false;
  }
  *store = std::make_unique<SqlHistoryStore>(std::move(connection), location);
  return true;
}

bool OpenHistoryForReading(const std::string& db, std::unique_ptr<HistoryStore>* store,
                           std::string* err) {
  const std::string location = db.empty() ? DefaultHistoryLocation(false) : db;
  if (OpenHistoryStore(location, /*create=*/false, store, err)) return true;
  if (db.empty()) *err += " (every 'elevbench run' records there; --db names another)";
  return false;
}

bool RecordRunInHistory(const std::string& results_path, const ResultsDocument& doc,
                        const std::vector<Measurement>& measurements,
                        const std::string& db_location, std::string* err) {
  const std::string location = db_location.empty() ? DefaultHistoryLocation(true) : db_location;
  std::unique_ptr<HistoryStore> store;
  if (!OpenHistoryStore(location, /*create=*/true, &store, err)) return false;
  int64_t run_id = 0;
  AppendOutcome outcome = AppendOutcome::kAdded;
  return store->AppendRun(doc, measurements, results_path, &run_id, &outcome, err);
}

}  // namespace elevbench
