// `elevbench history`, `history import` and `trend`: the run history on the command line
// (docs/history.md). Only the flags into a HistoryCommandConfig and the printing: the steps are
// harness/history/history_commands.h's and history_import.h's.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <limits>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites.h"
#include "app/suites_history.h"
#include "harness/core/plain_range.h"
#include "harness/history/history_commands.h"
#include "harness/history/history_import.h"
#include "reporters/history_text.h"

namespace elevbench {
namespace {

// The suites of this build, which `history --suite` takes beside the history's own.
std::vector<std::string> KnownSuites() {
  std::vector<std::string> known;
  for (const SuiteEntry& entry : AllSuites()) known.push_back(entry.name);
  return known;
}

int ListCommand(const HistoryCommandConfig& c) {
  std::vector<HistoryRun> runs;
  std::string err;
  bool usage = false;
  if (!ListHistoryRuns(c, KnownSuites(), &runs, &usage, &err))
    return ErrorExit(err, usage ? kExitUsage : kExitFailure);
  std::cout << (c.json ? HistoryRunsToJson(runs).dump(2) + "\n" : RenderHistoryRuns(runs));
  return kExitOk;
}

// Every file is tried; the exit code is the worst outcome (2 unreadable file, 1 not recorded).
int ImportCommand(const HistoryCommandConfig& c) {
  int exit_code = kExitOk;
  auto report = [&exit_code](const ImportedFile& f) {
    if (!f.recorded) {  // or refused: the same run with other cells, without --replace
      PrintError(ImportedFileError(f));
      exit_code = std::max<int>(exit_code, ImportedFileIsUsageError(f) ? kExitUsage : kExitFailure);
      return;
    }
    std::cout << RenderImportedRun(f.file, f.outcome, f.id);
    if (!f.err.empty()) PrintNote(f.file + ": " + f.err);  // what an update replaced
  };
  std::string err;
  if (!CheckHistoryImportDb(c.db, &err) ||  // #45: before any file is read
      !ImportResultsFiles(c.files, c.db, c.replace, report, &err)) {
    return ErrorExit(err);
  }
  return exit_code;
}

int TrendCommand(const HistoryCommandConfig& c) {
  Trend trend;
  std::vector<std::string> hosts;
  std::string err;
  bool usage = false;
  if (!ReadHistoryTrend(c, &trend, &hosts, &usage, &err))
    return ErrorExit(err, usage ? kExitUsage : kExitFailure);
  std::cout << RenderTrend(trend);
  if (const std::string note = MixedHostsNote(hosts); !note.empty()) PrintNote(note);
  return kExitOk;
}

// The flags of a table of harness/history/history_commands.h, each into its field of `c`.
void AddHistoryFlags(CLI::App* cmd, const std::vector<HistoryFlag>& flags,
                     HistoryCommandConfig* c) {
  for (const HistoryFlag& flag : flags) {
    cmd->add_option(flag.name, c->*flag.field, flag.help)->type_name(flag.value_name);
  }
}

}  // namespace

SubcommandRunner AddHistorySubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommandConfig>();
  AddHistoryFlags(cmd, HistoryListFlags(), c.get());
  cmd->add_option("--last", c->last, "Only the newest N runs (default: every run)")
      ->check(PlainRange(uint64_t{1}, std::numeric_limits<uint64_t>::max()));
  AddJsonFlag(cmd, &c->json, "JSON output");
  CLI::App* import_cmd = cmd->add_subcommand(
      "import", "Add saved results files to the history (a file already there is not added again)");
  import_cmd->fallthrough();
  import_cmd->footer(NestedExitCodes("history import"));
  AddPlainOptions(import_cmd,
                  {{"files", "FILE", "Results JSON files written by 'run'", &c->files, true},
                   {"--db", "DB", kHistoryDbHelp, &c->import_db}});
  import_cmd->add_flag("--replace", c->replace,
                       "Replace a recorded run that has the same identity (start time, host, "
                       "suite, command line) but other cells; without it such a file is refused "
                       "(exit 2). A run recorded mid-run is completed without it");
  return [c, cmd, import_cmd]() -> int {
    if (!*import_cmd) return ListCommand(*c);
    std::string err;
    const auto given = [cmd](const std::string& flag) { return cmd->count(flag) > 0; };
    if (!CheckHistoryImportOptions(given, import_cmd->count("--db") > 0, c.get(), &err))
      return ErrorExit(err);
    return ImportCommand(*c);
  };
}

SubcommandRunner AddTrendSubcommand(CLI::App* cmd, const std::string&) {
  auto c = std::make_shared<HistoryCommandConfig>();
  AddHistoryFlags(cmd, TrendFlags(), c.get());
  return [c] { return TrendCommand(*c); };
}

}  // namespace elevbench
