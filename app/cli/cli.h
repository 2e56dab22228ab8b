#pragma once
// The command line (CLI11): `elevbench devices · run · report · restore · disk`. Parses, then
// dispatches to one cmd_*.cc function per subcommand. Usage errors print one line and exit 2.

#include <string>
#include <vector>

#include "harness/run/run_failure.h"

namespace elevbench {

/// Process exit codes.
enum ExitCode : int {
  kExitOk = 0,
  kExitFailure = 1,        ///< a run or a restore failed
  kExitUsage = 2,          ///< bad command line or bad input file
  kExitUndecided = 3,      ///< compare's gate could not judge (docs/compare.md, "The gate")
  kExitInterrupted = 130,  ///< stopped by SIGINT/SIGTERM/SIGHUP (after cleanup)
};

/// The exit code of a command's failure kind (harness/run/run_failure.h): `run`, `capture`,
/// `kernels fetch`.
inline int ExitCodeOf(RunFailure failure) {
  return failure == RunFailure::kNone          ? kExitOk
         : failure == RunFailure::kUsage       ? kExitUsage
         : failure == RunFailure::kInterrupted ? kExitInterrupted
                                               : kExitFailure;
}

/// Entry point used by main(); returns the process exit code.
int RunCli(int argc, char** argv);

/// Prints "elevbench: <message>" as one line on stderr. The CLI layer's only way to stderr
/// besides Progress (which owns the progress line and its notes during a run).
void PrintError(const std::string& message);

/// Prints `err` as PrintError does and returns `code`: a command's end on a failed step
/// (`if (!Step(&err)) return ErrorExit(err);`).
int ErrorExit(const std::string& err, int code = kExitUsage);

/// Prints "elevbench: note: <message>" as one line on stderr (facts, not failures).
void PrintNote(const std::string& message);

/// The command line's words after the program's name, as RunCli got them (`run --kernels`
/// runs them again in each guest).
const std::vector<std::string>& CommandWords();

}  // namespace elevbench
