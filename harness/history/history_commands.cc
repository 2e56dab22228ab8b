#include "harness/history/history_commands.h"

#include <memory>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/history/history_filters.h"

namespace elevbench {

const std::vector<HistoryFlag>& HistoryListFlags() {
  static const std::vector<HistoryFlag> kFlags = {
      {"--db", &HistoryCommandConfig::db, kHistoryDbHelp, "DB"},
      {"--suite", &HistoryCommandConfig::suite, "Only runs of this suite (default: every suite)",
       "SUITE"},
      {"--host", &HistoryCommandConfig::host, "Only runs on this host (default: every host)",
       "HOST"},
  };
  return kFlags;
}

const std::vector<HistoryFlag>& TrendFlags() {
  static const std::vector<HistoryFlag> kFlags = {
      {"--db", &HistoryCommandConfig::db, kHistoryDbHelp, "DB"},
      {"--suite", &HistoryCommandConfig::suite, "Suite (default: the only one recorded)", "SUITE"},
      {"--section", &HistoryCommandConfig::section,
       "Section: seq_read, bench3, cat-during-write, … (default: the only one)", "SECTION"},
      {"--row", &HistoryCommandConfig::row, "Row of the section: threads=4 or 4 (if it has rows)",
       "ROW"},
      {"--config", &HistoryCommandConfig::configuration,
       "Configuration: its label (DL, AS), scheduler (bfq:low_latency=0) or identifier", "CONFIG"},
      {"--metric", &HistoryCommandConfig::metric, "Metric (default: the section's headline metric)",
       "METRIC"},
      {"--host", &HistoryCommandConfig::host, "Only runs on this host (default: every host)",
       "HOST"},
  };
  return kFlags;
}

bool ListHistoryRuns(const HistoryCommandConfig& config,
                     const std::vector<std::string>& known_suites, std::vector<HistoryRun>* runs,
                     bool* usage, std::string* err) {
  std::unique_ptr<HistoryStore> store;
  *usage = true;
  if (!OpenHistoryForReading(config.db, &store, err) ||
      !CheckHistorySuite(config.suite, known_suites, store.get(), err) ||
      !CheckHistoryHost(config.host, store.get(), err)) {
    return false;
  }
  *usage = false;
  return store->ListRuns({config.suite, config.host, config.last}, runs, err);
}

bool CheckHistoryImportOptions(const std::function<bool(const std::string& flag)>& history_given,
                               bool import_db_given, HistoryCommandConfig* config,
                               std::string* err) {
  for (const char* flag : {"--suite", "--host", "--last", "--json", "--format"}) {
    if (history_given(flag)) {
      return Fail(err, std::string(flag) +
                           " applies to the list of runs (elevbench history), not to history "
                           "import, which adds each file whole");
    }
  }
  if (!import_db_given) return true;
  if (history_given("--db") && config->db != config->import_db) {
    return Fail(err, "--db given twice, " + RedactedLocation(config->db) + " and " +
                         RedactedLocation(config->import_db) + ": give one history to import into");
  }
  config->db = config->import_db;
  return true;
}

bool CheckHistoryImportDb(const std::string& db, std::string* err) {
  return db.empty() || IsPostgresLocation(db) ||
         CheckParentFolderExists("--db", db, err, "history.db");
}

bool ReadHistoryTrend(const HistoryCommandConfig& config, Trend* trend,
                      std::vector<std::string>* hosts, bool* usage, std::string* err) {
  std::unique_ptr<HistoryStore> store;
  *usage = true;
  if (!OpenHistoryForReading(config.db, &store, err)) return false;
  const TrendRequest request{config.suite,         config.section, config.row,
                             config.configuration, config.metric,  config.host};
  SeriesKey key;
  std::vector<SeriesPoint> points;
  if (!ReadTrendSeries(store.get(), request, &key, &points, usage, err)) return false;
  *trend = BuildTrend(key, points);
  *hosts = SeriesHosts(points);
  return true;
}

}  // namespace elevbench
