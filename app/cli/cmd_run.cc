// `elevbench run SUITE`: the command line's options mapped to a RunConfig and run by
// harness/run/run_command.h (the ten steps of docs/architecture.md) or, with --check,
// run_check.h; here a failure's kind becomes its exit code, and the lines are printed: the
// errors and notes, the suite's tables on stdout, the history's note.

#include <iostream>
#include <string>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites.h"
#include "app/suites_history.h"
#include "app/suites_run.h"
#include "harness/run/run_check.h"
#include "harness/run/run_command.h"

namespace elevbench {
namespace {

// 9. The suite's tables on stdout, from what the session recorded.
void PrintRunTables(const RunOptions& o, const ResultsDocument& doc) {
  std::string text, err;
  ReportOptions options;
  options.verdict = !o.no_verdict;
  if (RenderResults(doc, o.config.format, options, &text, &err)) {
    std::cout << text;
  } else {
    PrintError("cannot print the tables: " + err);
  }
  std::cout.flush();
}

// Where the run's lines go, and its steps 9 and 10 (the suite's tables, the history).
RunHooks RunHooksOf(const RunOptions& o) {
  RunHooks hooks;
  hooks.error = PrintError;
  hooks.note = PrintNote;
  hooks.line = [](const std::string& line) { std::cerr << line << "\n"; };
  hooks.print_tables = [&o](const ResultsDocument& doc) { PrintRunTables(o, doc); };
  hooks.record = [&o](const std::string& out_path, const ResultsDocument& doc) {
    const std::string note = RecordInHistoryNote("run", out_path, doc, o.history_db, o.no_history);
    if (!note.empty()) PrintNote(note);
  };
  hooks.defaults_note = o.defaults_note;
  return hooks;
}

}  // namespace

int RunCommand(const RunOptions& o) {
  if (o.entry == nullptr || o.config.suite == nullptr) {
    PrintError("no suite given (see --help)");
    return kExitUsage;
  }
  const RunHooks hooks = RunHooksOf(o);
  return ExitCodeOf(o.check_only ? CheckRunCommand(RunConfigOf(o), hooks)
                                 : RunSuiteCommand(RunConfigOf(o), hooks));
}

}  // namespace elevbench
