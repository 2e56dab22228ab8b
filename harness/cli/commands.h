#pragma once
// One function per subcommand. Each returns a process exit code (cli.h ExitCode) and prints its
// own one-line errors; the CLI layer only parses and dispatches.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "harness/results/results_document.h"
#include "harness/run/run_config.h"
#include "harness/stats/statistics.h"
#include "scenarios/suites.h"

namespace CLI {
class App;
}

namespace elevbench {

/// Options of `elevbench run SUITE`, common to every suite: the run's plain config
/// (harness/run/run_config.h, which RunJob runs) and what only the CLI reads: the suite's row
/// in the table of suites, the printing and the history. The suite's own options live in the
/// suite object (harness/run/suite.h), which parsed them.
struct RunOptions : RunConfig {
  const SuiteEntry* entry = nullptr;  ///< the suite chosen on the command line (and `suite`)
  bool no_verdict = false;            ///< "--no-verdict": the tables without the verdict block
  std::string history_db;             ///< "--db": the run history; empty = results/history.db
  bool no_history = false;            ///< "--no-history": do not record the run
};

/// Which of the options a suite's defaults may fill the command line gave (CLI11's counts: an
/// option given an empty value still counts as given).
struct GivenRunOptions {
  bool target = false;  ///< --dir, --scratch or --emulated
  bool fs = false;
  bool machine = false;
  bool schedulers = false;
};

/// Fills what the command line left out from the suite's own setting (SuiteRunDefaults: the
/// target with its fs and machine only when no target is given; the schedulers whenever they
/// are not). Returns what it filled as command-line words ("--emulated ide-2003 --fs ext2 …"),
/// empty when nothing, so that the run can say so.
std::string ApplySuiteRunDefaults(const SuiteRunDefaults& defaults, const GivenRunOptions& given,
                                  RunOptions* options);

/// `elevbench run SUITE …`: the ten steps of docs/architecture.md, run by RunJob
/// (harness/run/run_job.h) from the options' RunConfig; prints, and returns the exit code.
int RunCommand(const RunOptions& options);

/// Runs a parsed subcommand and returns the process exit code (cli.h ExitCode).
using SubcommandRunner = std::function<int()>;

/// One row of the table of subcommands (cli.cc): `elevbench NAME …`.
struct SubcommandEntry {
  const char* name;
  const char* description;  ///< its line in --help
  /// Adds the subcommand's options (and nested subcommands) to `cmd`, which the table's owner
  /// made with the name and description; the returned runner reads the parsed values. Gets the
  /// whole command line, which `run` records.
  SubcommandRunner (*add)(CLI::App* cmd, const std::string& command_line);
  bool hidden = false;  ///< left out of --help and the man page (`internal`)
};

/// The table of subcommands, in --help's order.
const std::vector<SubcommandEntry>& AllSubcommands();

// Each subcommand's `add` (the table's third column), one per cmd_*.cc.
SubcommandRunner AddRunSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddReportSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddCompareSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddHistorySubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddTrendSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddListSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddDevicesSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddRestoreSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddDiskSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddInternalSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddCaptureSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddTraceSubcommand(CLI::App* cmd, const std::string& command_line);

/// `elevbench report FILE… --format F [--no-verdict]`: every file is loaded first (an unreadable
/// one is a usage error), then rendered by RenderReport (scenarios/suites.h), with the verdict
/// block unless `verdict` is false.
int ReportCommand(const std::vector<std::string>& paths, const std::string& format, bool verdict);

/// Options of `elevbench compare` (cmd_compare.cc).
struct CompareCommandOptions {
  std::string base_path;             ///< BASE.json
  std::string new_path;              ///< NEW.json; empty: compare inside BASE.json with --between
  std::string between;               ///< "--between A,B"
  std::string metrics = "headline";  ///< "--metrics headline|all|name,name"
  double alpha = kDefaultAlpha;
  double threshold_pct = kDefaultThresholdPct;  ///< "--threshold"
  bool no_significance = false;
  std::string format = "text";  ///< text, json, junit
  std::string allow;            ///< "--allow failed,inconclusive,missing,parameters"
};

/// `elevbench compare BASE.json NEW.json | FILE --between A,B`, a CI gate (docs/compare.md):
/// exit 0 when the gate passes, 1 when it finds a regression or a row failed/DNF in the new
/// results only, 3 when it cannot judge (untested changes beyond the threshold, rows missing,
/// parameters that differ), 2 for usage errors and unreadable or mismatched files.
int CompareCommand(const CompareCommandOptions& options);

/// The end of `elevbench run`: records the run (the results file at `out_path`) in the
/// history unless --no-history, and says so, or why not, in one note on stderr. Never fails
/// the run: the results file is already complete.
void NoteRunInHistory(const RunOptions& options, const std::string& out_path,
                      const ResultsDocument& doc);

}  // namespace elevbench
