// `elevbench history`, `history import` and `trend`: the run history on the command line, and
// the note at the end of `run` that records the run (docs/history.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/history/history_store.h"
#include "harness/history/trend.h"
#include "reporters/history_text.h"

namespace elevbench {
namespace {

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
  const std::string location = c.db.empty() ? DefaultHistoryLocation(true) : c.db;
  std::unique_ptr<HistoryStore> store;
  std::string err;
  if (!OpenHistoryStore(location, /*create=*/true, &store, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  // Every file is tried; the exit code is the worst outcome (2 unreadable file, 1 not recorded).
  int exit_code = kExitOk;
  for (const std::string& file : c.files) {
    ResultsDocument doc;
    if (!LoadResultsFile(file, &doc, &err)) {
      PrintError(err);
      exit_code = std::max<int>(exit_code, kExitUsage);
      continue;
    }
    int64_t id = 0;
    AppendOutcome outcome = AppendOutcome::kAdded;
    if (!store->AppendRun(doc, file, &id, &outcome, &err)) {
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

void AddHistoryCommands(CLI::App* app, HistoryCommands* c) {
  c->history_cmd = app->add_subcommand("history", "List the recorded runs (the run history)");
  c->history_cmd->add_option("--db", c->db, kDbHelp);
  c->history_cmd->add_option("--suite", c->suite, "Only runs of this suite");
  c->history_cmd->add_option("--host", c->host, "Only runs on this host");
  c->history_cmd->add_option("--last", c->last, "Only the newest N runs");
  c->history_cmd->add_flag("--json", c->json, "JSON output");
  c->import_cmd = c->history_cmd->add_subcommand(
      "import", "Add saved results files to the history (a file already there is not added again)");
  c->import_cmd->fallthrough();
  c->import_cmd->add_option("files", c->files, "Results JSON files written by 'run'")->required();

  c->trend_cmd =
      app->add_subcommand("trend", "One metric of one configuration over the recorded runs");
  c->trend_cmd->add_option("--db", c->db, kDbHelp);
  c->trend_cmd->add_option("--suite", c->suite, "Suite (default: the only one recorded)");
  c->trend_cmd->add_option(
      "--section", c->section,
      "Section: seq_read, bench3, cat-during-write, … (default: the only one)");
  c->trend_cmd->add_option("--row", c->row, "Row of the section: threads=4 or 4 (if it has rows)");
  c->trend_cmd->add_option("--config", c->configuration,
                           "Configuration: its label (DL, AS), scheduler (bfq:low_latency=0) or "
                           "identifier");
  c->trend_cmd->add_option("--metric", c->metric,
                           "Metric (default: the section's headline metric)");
  c->trend_cmd->add_option("--host", c->host, "Only runs on this host");
}

int RunHistoryCommands(const HistoryCommands& c) {
  if (c.import_cmd != nullptr && *c.import_cmd) return ImportCommand(c);
  if (c.history_cmd != nullptr && *c.history_cmd) return ListCommand(c);
  if (c.trend_cmd != nullptr && *c.trend_cmd) return TrendCommand(c);
  return -1;
}

void NoteRunInHistory(const RunOptions& options, const std::string& out_path,
                      const ResultsDocument& doc) {
  if (options.no_history || doc.cells.empty()) return;
  const std::string location =
      options.history_db.empty() ? DefaultHistoryLocation(true) : options.history_db;
  std::string err;
  if (RecordRunInHistory(out_path, doc, location, &err)) {
    PrintNote("run recorded in the history " + RedactedLocation(location));
  } else {
    PrintNote("run not recorded in the history: " + err + "; the results file is complete " +
              "('elevbench history import " + out_path + "' adds it later)");
  }
}

}  // namespace elevbench
