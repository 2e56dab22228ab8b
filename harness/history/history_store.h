#pragma once
// The run history: every run's facts and its tidy measurements in a database, so a metric can
// be followed over time (`elevbench history`, `elevbench trend`). One schema (docs/history.md),
// two backends: an SQLite file (the default, results/history.db) and a PostgreSQL server that
// a lab's test boxes share (`--db postgresql://…`).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/stats/measurement.h"

namespace elevbench {

/// Version of the history schema (the `schema_version` table). Bump on any change of a table;
/// a database with a newer version is refused rather than misread.
inline constexpr int kHistorySchemaVersion = 1;

/// One run as the history lists it.
struct HistoryRun {
  int64_t id = 0;
  std::string start_time;  ///< ISO 8601 UTC, the results file's context.start_time
  std::string host;
  std::string kernel;
  std::string suite;
  std::string target;  ///< one line: "emulated ide-2003 ext2", "directory /var/tmp/x (ext4)"
  /// The configurations in table order, each as its short label ("DL", "AS") or, in files
  /// without labels, its identifier.
  std::vector<std::string> configurations;
  std::string results_path;  ///< absolute path of the results file when it was recorded
  std::string elevbench_version;
  std::string command_line;
  uint32_t repetitions = 0;
  uint32_t cells_ok = 0;
  uint32_t cells_failed = 0;
  uint32_t cells_interrupted = 0;
  bool complete = false;  ///< the run finished (false: interrupted, or imported mid-run)
  std::string recorded_at;
};

/// Which runs to list. Empty strings match everything.
struct RunFilter {
  std::string suite;
  std::string host;
  uint32_t last = 0;  ///< only the newest N runs (still printed oldest first); 0 = all
};

/// One series: a metric of one row of one section of a suite, for one configuration.
struct SeriesKey {
  std::string suite;
  std::string section;
  std::string row;  ///< "" for sections with one row (nickbench, probes)
  /// Matches a configuration's scheduler ("mq-deadline", "bfq:low_latency=0"), its label
  /// ("dl", "AS"), its identifier ("6.18.44-dl") or its code, the identifier's end after a '-'
  /// ("dl", across kernels), the last three case-insensitive.
  std::string configuration;
  std::string metric;
  std::string host;  ///< "" = every host
};

/// The series' measurements of one configuration in one run.
struct SeriesPoint {
  int64_t run_id = 0;
  std::string start_time;
  std::string host;
  std::string kernel;
  std::string identifier;
  std::string label;
  MetricInfo metric;
  std::vector<double> values;  ///< the "ok" values in repetition order
  uint32_t not_measured = 0;   ///< repetitions without a number (DNF, failed)
};

/// A distinct (section, row, configuration, metric) that the history holds for a suite, for
/// defaults and for the list of valid choices in an error.
struct MeasuredKey {
  std::string section;
  std::string row;
  std::string identifier;
  std::string label;
  std::string scheduler;
  std::string metric;
  bool headline = false;
};

/// What AppendRun did.
enum class AppendOutcome {
  kAdded,      ///< a new run
  kUpdated,    ///< the same run (same identity) with different cells: replaced
  kUnchanged,  ///< already recorded as it is: nothing written
};

/// The history database. Open one with OpenHistoryStore.
class HistoryStore {
 public:
  virtual ~HistoryStore() = default;

  /// Records a run and its measurements (its suite's measurer made them) in one transaction. A
  /// run's identity is (start_time, host, suite, command_line) from its context
  /// (docs/history.md): the same run recorded again is kUnchanged, or kUpdated when it has more
  /// (or other) cells now.
  [[nodiscard]] virtual bool AppendRun(const ResultsDocument& doc,
                                       const std::vector<Measurement>& measurements,
                                       const std::string& results_path, int64_t* run_id,
                                       AppendOutcome* outcome, std::string* err) = 0;

  /// The runs that match, oldest first.
  [[nodiscard]] virtual bool ListRuns(const RunFilter& filter, std::vector<HistoryRun>* runs,
                                      std::string* err) = 0;

  /// The points of one series, oldest run first; a run with two configurations that match the
  /// key gives two points.
  [[nodiscard]] virtual bool Series(const SeriesKey& key, std::vector<SeriesPoint>* points,
                                    std::string* err) = 0;

  /// The distinct keys measured for `suite` (on `host`, when not empty), in order of first
  /// appearance.
  [[nodiscard]] virtual bool MeasuredKeys(const std::string& suite, const std::string& host,
                                          std::vector<MeasuredKey>* keys, std::string* err) = 0;

  /// The suites that have runs, sorted.
  [[nodiscard]] virtual bool Suites(std::vector<std::string>* suites, std::string* err) = 0;
};

/// Opens the history at `location`: a "postgresql://…" or "postgres://…" URI, or else the path
/// of an SQLite file. With `create` a missing SQLite file is created (reading commands pass
/// false, so a mistyped --db is an error, not a new empty database). Creates the schema in an
/// empty database; refuses a database whose schema version is newer than kHistorySchemaVersion,
/// or that is not an elevbench history. err is one line that names the location (passwords
/// masked).
[[nodiscard]] bool OpenHistoryStore(const std::string& location, bool create,
                                    std::unique_ptr<HistoryStore>* store, std::string* err);

/// Opens the history at `db` for reading ("" = DefaultHistoryLocation(false)): a missing SQLite
/// file is an error, not a new database. Without `db`, err also says that every run records
/// there and that --db names another.
[[nodiscard]] bool OpenHistoryForReading(const std::string& db,
                                         std::unique_ptr<HistoryStore>* store, std::string* err);

/// True when `location` names a PostgreSQL database rather than an SQLite file.
bool IsPostgresLocation(const std::string& location);

/// `location` with the password of a URI replaced by "***", for messages.
std::string RedactedLocation(const std::string& location);

/// The default history location, "results/history.db" relative to the current directory, as
/// `run` puts its default results files in results/. With `make_directory` (a run that is about
/// to write) results/ is created, and "./history.db" is used when it cannot be, as for the
/// results files; without, nothing is created and "./history.db" is chosen only when results/
/// does not exist but that file does.
std::string DefaultHistoryLocation(bool make_directory);

/// Appends the run whose results file was saved at `results_path` to the history at
/// `db_location` ("" = DefaultHistoryLocation(true)), creating the database when needed. Called
/// once at the end of every `elevbench run`; a failure is reported by the caller as a note and
/// never fails the run.
[[nodiscard]] bool RecordRunInHistory(const std::string& results_path, const ResultsDocument& doc,
                                      const std::vector<Measurement>& measurements,
                                      const std::string& db_location, std::string* err);

}  // namespace elevbench
