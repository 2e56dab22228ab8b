// `elevbench history`, `history import` and `trend`: the run history on the command line
// (docs/history.md).

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <limits>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites.h"
#include "app/suites_history.h"
#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/plain_range.h"
#include "harness/core/strings.h"
#include "harness/history/history_filters.h"
#include "harness/history/history_store.h"
#include "harness/history/trend.h"
#include "reporters/history_text.h"

namespace elevbench {
namespace {

// The options of `history`, `history import` and `trend`.
struct HistoryCommands {
  std::string db;  // "--db": an SQLite file or a postgresql:// URI; empty = the default
  std::string suite, section, row, configuration, metric, host;
  uint32_t last = 0;
  bool json = false;
  std::vector<std::string> files;  // `history import FILE…`
  bool replace = false;            // `history import --replace`
  std::string import_db;           // `history import --db`: merged into db (CheckImportOptions)
};

constexpr const char* kDbHelp =
    "History database: an SQLite file, or postgresql://user@host/db for one shared by many "
    "test boxes (default results/history.db)";

// The suites of this build, which `history --suite` takes beside the history's own.
std::vector<std::string> KnownSuites() {
  std::vector<std::string> known;
  for (const SuiteEntry& entry : AllSuites()) known.push_back(entry.name);
  return known;
}

int ListCommand(const HistoryCommands& c) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  if (!OpenHistoryForReading(c.db, &store, &err) ||
      !CheckHistorySuite(c.suite, KnownSuites(), store.get(), &err) ||
      !CheckHistoryHost(c.host, store.get(), &err)) {
    PrintError(err);
    return kExitUsage;
  }
  std::vector<HistoryRun> runs;
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

// `history import`: the list's options do not apply to it, and one --db (#45: `--suite X`,
// `--json` were passed over, and of `history --db A import --db B` the last won). Merges
// import's --db into c->db.
bool CheckImportOptions(const CLI::App& history, const CLI::App& import, HistoryCommands* c,
                        std::string* err) {
  for (const char* flag : {"--suite", "--host", "--last", "--json", "--format"}) {
    if (history.count(flag) > 0) {
      return Fail(err, std::string(flag) +
                           " applies to the list of runs (elevbench history), not to history "
                           "import, which adds each file whole");
    }
  }
  if (import.count("--db") == 0) return true;
  if (history.count("--db") > 0 && c->db != c->import_db) {
    return Fail(err, "--db given twice, " + RedactedLocation(c->db) + " and " +
                         RedactedLocation(c->import_db) + ": give one history to import into");
  }
  c->db = c->import_db;
  return true;
}

// Every file is tried; the exit code is the worst outcome (2 unreadable file, 1 not recorded).
int ImportCommand(const HistoryCommands& c) {
  int exit_code = kExitOk;
  auto report = [&exit_code](const ImportedFile& f) {
    if (f.refused) {  // the same run with other cells, without --replace
      PrintError(f.file + ": " + f.err);
      exit_code = std::max<int>(exit_code, kExitUsage);
      return;
    }
    if (!f.recorded) {
      PrintError(f.readable ? f.file + ": " + f.err : f.err);
      exit_code = std::max<int>(exit_code, f.readable ? kExitFailure : kExitUsage);
      return;
    }
    std::cout << RenderImportedRun(f.file, f.outcome, f.id);
    if (!f.err.empty()) PrintNote(f.file + ": " + f.err);  // what an update replaced
  };
  std::string err;
  if (!c.db.empty() && !IsPostgresLocation(c.db) &&
      !CheckParentFolderExists("--db", c.db, &err, "history.db")) {  // #45: before any file is read
    PrintError(err);
    return kExitUsage;
  }
  if (!ImportResultsFiles(c.files, c.db, c.replace, report, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  return exit_code;
}

int TrendCommand(const HistoryCommands& c) {
  std::unique_ptr<HistoryStore> store;
  std::string err;
  if (!OpenHistoryForReading(c.db, &store, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  TrendRequest request{c.suite, c.section, c.row, c.configuration, c.metric, c.host};
  SeriesKey key;
  std::vector<SeriesPoint> points;
  bool bad_request = false;
  if (!ReadTrendSeries(store.get(), request, &key, &points, &bad_request, &err)) {
    PrintError(err);
    return bad_request ? kExitUsage : kExitFailure;
  }
  std::cout << RenderTrend(BuildTrend(key, points));
  std::vector<std::string> hosts = SeriesHosts(points);
  for (std::string& host : hosts) host = HostShown(host);
  if (hosts.size() > 1) {
    PrintNote("the series mixes " + std::to_string(hosts.size()) + " hosts (" +
              JoinWith(hosts, ", ") +
              "): changes between them are not changes of one box; --host H follows one");
  }
  return kExitOk;
}

}  // namespace

SubcommandRunner AddHistorySubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommands>();
  cmd->add_option("--db", c->db, kDbHelp)->type_name("DB");
  cmd->add_option("--suite", c->suite, "Only runs of this suite (default: every suite)")
      ->type_name("SUITE");
  cmd->add_option("--host", c->host, "Only runs on this host (default: every host)")
      ->type_name("HOST");
  cmd->add_option("--last", c->last, "Only the newest N runs (default: every run)")
      ->check(PlainRange(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  AddJsonFlag(cmd, &c->json, "JSON output");
  CLI::App* import_cmd = cmd->add_subcommand(
      "import", "Add saved results files to the history (a file already there is not added again)");
  import_cmd->fallthrough();
  import_cmd->footer(
      "Exit codes: 0 every file recorded (or there already); 1 a file could not be recorded; 2 "
      "bad command line, an unreadable file or database, or a run refused (recorded with other "
      "cells: --replace replaces it).");
  import_cmd->add_option("files", c->files, "Results JSON files written by 'run'")
      ->type_name("FILE")
      ->required();
  import_cmd->add_option("--db", c->import_db, kDbHelp)->type_name("DB");
  import_cmd->add_flag("--replace", c->replace,
                       "Replace a recorded run that has the same identity (start time, host, "
                       "suite, command line) but other cells; without it such a file is refused "
                       "(exit 2). A run recorded mid-run is completed without it");
  return [c, cmd, import_cmd]() -> int {
    if (!*import_cmd) return ListCommand(*c);
    std::string err;
    if (!CheckImportOptions(*cmd, *import_cmd, c.get(), &err)) {
      PrintError(err);
      return kExitUsage;
    }
    return ImportCommand(*c);
  };
}

SubcommandRunner AddTrendSubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommands>();
  cmd->add_option("--db", c->db, kDbHelp)->type_name("DB");
  cmd->add_option("--suite", c->suite, "Suite (default: the only one recorded)")
      ->type_name("SUITE");
  cmd->add_option("--section", c->section,
                  "Section: seq_read, bench3, cat-during-write, … (default: the only one)")
      ->type_name("SECTION");
  cmd->add_option("--row", c->row, "Row of the section: threads=4 or 4 (if it has rows)")
      ->type_name("ROW");
  cmd->add_option("--config", c->configuration,
                  "Configuration: its label (DL, AS), scheduler (bfq:low_latency=0) or "
                  "identifier")
      ->type_name("CONFIG");
  cmd->add_option("--metric", c->metric, "Metric (default: the section's headline metric)")
      ->type_name("METRIC");
  cmd->add_option("--host", c->host, "Only runs on this host (default: every host)")
      ->type_name("HOST");
  return [c] { return TrendCommand(*c); };
}

}  // namespace elevbench
