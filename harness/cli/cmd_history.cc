// `elevbench history`, `history import` and `trend`: the run history on the command line, and
// the note at the end of `run` that records the run (docs/history.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/history/history_store.h"
#include "harness/history/trend.h"
#include "reporters/history_text.h"
#include "scenarios/suites.h"

namespace elevbench {
namespace {

// The options of `history`, `history import` and `trend`.
struct HistoryCommands {
  std::string db;  // "--db": an SQLite file or a postgresql:// URI; empty = the default
  std::string suite, section, row, configuration, metric, host;
  uint32_t last = 0;
  bool json = false;
  std::vector<std::string> files;  // `history import FILE…`
};

constexpr const char* kDbHelp =
    "History database: an SQLite file, or postgresql://user@host/db for one shared by many "
    "test boxes (default results/history.db)";

// Opens the history for reading: a missing SQLite file is an error, not a new database.
bool OpenForReading(const std::string& db, std::unique_ptr<HistoryStore>* store) {
  const std::string location = db.empty() ? DefaultHistoryLocation(false) : db;
  std::string err;
  if (!OpenHistoryStore(location, /*create=*/false, store, &err)) {
    PrintError(err +
               (db.empty() ? " (every 'elevbench run' records there; --db names another)" : ""));
    return false;
  }
  return true;
}

int ListCommand(const HistoryCommands& c) {
  std::unique_ptr<HistoryStore> store;
  if (!OpenForReading(c.db, &store)) return kExitUsage;
  std::vector<HistoryRun> runs;
  std::string err;
  if (!store->ListRuns({c.suite, c.host, c.last}, &runs, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  if (c.json) {
    std::cout << HistoryRunsToJson(runs).dump(2) << "\n";
  } else {
    std::cout << RenderHistoryRuns(runs);
  }
  return kExitOk;
}

int ImportCommand(const HistoryCommands& c) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  // Every file is tried; the exit code is the worst outcome (2 unreadable file, 1 not recorded).
  // The history is opened (made) at the first readable file: a refused import makes no file.
  int exit_code = kExitOk;
  for (const std::string& file : c.files) {
    ResultsDocument doc;
    if (!LoadResultsFile(file, &doc, &err)) {
      PrintError(err);
      exit_code = std::max<int>(exit_code, kExitUsage);
      continue;
    }
    const std::string location = c.db.empty() ? DefaultHistoryLocation(true) : c.db;
    if (store == nullptr && !OpenHistoryStore(location, /*create=*/true, &store, &err)) {
      PrintError(err);
      return kExitUsage;
    }
    int64_t id = 0;
    AppendOutcome outcome = AppendOutcome::kAdded;
    std::vector<Measurement> measurements;
    const bool measured = MeasurementsOf(doc, &measurements, &err);
    if (!measured) err = "cannot read the measurements: " + err;
    if (!measured || !store->AppendRun(doc, measurements, file, &id, &outcome, &err)) {
      PrintError(file + ": " + err);
      exit_code = std::max<int>(exit_code, kExitFailure);
      continue;
    }
    const char* what = outcome == AppendOutcome::kAdded     ? "added as run "
                       : outcome == AppendOutcome::kUpdated ? "updated run "
                                                            : "already recorded as run ";
    std::cout << file << ": " << what << id << "\n";
  }
  return exit_code;
}

int TrendCommand(const HistoryCommands& c) {
  std::unique_ptr<HistoryStore> store;
  if (!OpenForReading(c.db, &store)) return kExitUsage;
  TrendRequest request{c.suite, c.section, c.row, c.configuration, c.metric, c.host};
  SeriesKey key;
  std::string err;
  if (!ResolveTrendRequest(store.get(), request, &key, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  std::vector<SeriesPoint> points;
  if (!store->Series(key, &points, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  std::cout << RenderTrend(BuildTrend(key, points));
  std::vector<std::string> hosts;
  for (const SeriesPoint& p : points) {
    if (std::find(hosts.begin(), hosts.end(), p.host) == hosts.end()) hosts.push_back(p.host);
  }
  if (hosts.size() > 1) {
    std::string list;
    for (const std::string& h : hosts) list += (list.empty() ? "" : ", ") + h;
    PrintNote("the series mixes " + std::to_string(hosts.size()) + " hosts (" + list +
              "): changes between them are not changes of one box; --host H follows one");
  }
  return kExitOk;
}

}  // namespace

SubcommandRunner AddHistorySubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommands>();
  cmd->add_option("--db", c->db, kDbHelp);
  cmd->add_option("--suite", c->suite, "Only runs of this suite (default: every suite)");
  cmd->add_option("--host", c->host, "Only runs on this host (default: every host)");
  cmd->add_option("--last", c->last, "Only the newest N runs (default: every run)");
  cmd->add_flag("--json", c->json, "JSON output");
  CLI::App* import_cmd = cmd->add_subcommand(
      "import", "Add saved results files to the history (a file already there is not added again)");
  import_cmd->fallthrough();
  import_cmd->add_option("files", c->files, "Results JSON files written by 'run'")->required();
  return [c, import_cmd] { return *import_cmd ? ImportCommand(*c) : ListCommand(*c); };
}

SubcommandRunner AddTrendSubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommands>();
  cmd->add_option("--db", c->db, kDbHelp);
  cmd->add_option("--suite", c->suite, "Suite (default: the only one recorded)");
  cmd->add_option("--section", c->section,
                  "Section: seq_read, bench3, cat-during-write, … (default: the only one)");
  cmd->add_option("--row", c->row, "Row of the section: threads=4 or 4 (if it has rows)");
  cmd->add_option("--config", c->configuration,
                  "Configuration: its label (DL, AS), scheduler (bfq:low_latency=0) or "
                  "identifier");
  cmd->add_option("--metric", c->metric, "Metric (default: the section's headline metric)");
  cmd->add_option("--host", c->host, "Only runs on this host (default: every host)");
  return [c] { return TrendCommand(*c); };
}

void NoteRunInHistory(const RunOptions& options, const std::string& out_path,
                      const ResultsDocument& doc) {
  if (options.no_history || doc.cells.empty()) return;
  const std::string location =
      options.history_db.empty() ? DefaultHistoryLocation(true) : options.history_db;
  std::string err;
  std::vector<Measurement> measurements;
  const bool measured = MeasurementsOf(doc, &measurements, &err);
  if (!measured) err = "cannot read the measurements: " + err;
  if (measured && RecordRunInHistory(out_path, doc, measurements, location, &err)) {
    PrintNote("run recorded in the history " + RedactedLocation(location));
  } else {
    PrintNote("run not recorded in the history: " + err + "; the results file is complete " +
              "('elevbench history import " + out_path + "' adds it later)");
  }
}

}  // namespace elevbench
