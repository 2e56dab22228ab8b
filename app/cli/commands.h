#pragma once
// One function per subcommand. Each returns a process exit code (cli.h ExitCode) and prints its
// own one-line errors; the CLI layer only parses and dispatches.

#include <functional>
#include <string>
#include <vector>

#include "app/suites_run.h"
#include "harness/core/command_texts.h"  // kUsageExitCodes
#include "harness/core/plain_cli.h"      // AddJsonFlag, which every command with --json uses

namespace CLI {
class App;
}

namespace elevbench {

/// `elevbench run SUITE …`: the ten steps of docs/architecture.md, run by RunJob
/// (harness/run/run_job.h) from the options' RunConfig; prints, and returns the exit code.
int RunCommand(const RunOptions& options);

/// `--db DB` and `--no-history`, as `run` and `merge` take them: `what` is what gets recorded
/// ("run", "merged run"). One wording for both commands' help.
void AddHistoryOptions(CLI::App* cmd, const std::string& what, std::string* db, bool* no_history);

/// Declares the target flags `run` and `capture` share (harness/run/target_spec.h), once for
/// both: --device, --emulated, --scratch and --fs into `target`, in that order, each with the
/// command's own `help` (--device is a disk whose scheduler run switches, one capture traces).
void AddTargetOptions(CLI::App* cmd, TargetSpec* target, const TargetFlagsHelp& help);

/// Runs a parsed subcommand and returns the process exit code (cli.h ExitCode).
using SubcommandRunner = std::function<int()>;

/// One row of the table of subcommands (cli.cc): `elevbench NAME …`, its texts from
/// harness/core/command_texts.h.
struct SubcommandEntry {
  const char* name;
  const char* description;  ///< its line in --help
  /// Adds the subcommand's options (and nested subcommands) to `cmd`, which the table's owner
  /// made with the name and description; the returned runner reads the parsed values. Gets the
  /// whole command line, which `run` records.
  SubcommandRunner (*add)(CLI::App* cmd, const std::string& command_line);
  bool hidden = false;  ///< left out of --help and the man page (`internal`)
  /// Its exit codes, the last lines of its --help and of its nested commands' (every
  /// subcommand can exit 2 on a bad command line); cli.h ExitCode.
  const char* exit_codes = kUsageExitCodes;
};

/// The table of subcommands, in --help's order.
const std::vector<SubcommandEntry>& AllSubcommands();

// Each subcommand's `add` (the table's third column), one per cmd_*.cc.
SubcommandRunner AddRunSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddReportSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddCompareSubcommand(CLI::App* cmd, const std::string& command_line);
/// `merge`: the shards of `run --shard I/N` joined into the whole plan's results (docs/ci.md).
SubcommandRunner AddMergeSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddHistorySubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddTrendSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddListSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddDevicesSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddKernelsSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddRestoreSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddDiskSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddInternalSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddCaptureSubcommand(CLI::App* cmd, const std::string& command_line);
SubcommandRunner AddTraceSubcommand(CLI::App* cmd, const std::string& command_line);

}  // namespace elevbench
