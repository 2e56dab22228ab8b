#pragma once
// Runs child programs (fio, mkfs, mount helpers, foreground probes) with fork/exec and wait4, so
// every child's exact wall time and CPU use (rusage) is known. One error style: bool + err line.

#include <sys/resource.h>
#include <sys/types.h>

#include <string>
#include <vector>

namespace elevbench {

/// How to run one child.
struct ProcessOptions {
  /// File that receives the child's stdout; empty = capture into ProcessResult::output.
  std::string stdout_path;
  /// Capture stderr into ProcessResult::error_output (else it goes to /dev/null).
  bool capture_stderr = true;
  /// Kill the child (SIGTERM, then SIGKILL after 5 s) after this many seconds; 0 = no limit.
  double timeout_seconds = 0;
  /// Working directory for the child; empty = inherit.
  std::string working_directory;
};

/// What a finished child did.
struct ProcessResult {
  int exit_code = -1;   ///< exit status, or -1 when killed by a signal
  int term_signal = 0;  ///< signal that ended the child, 0 if it exited
  bool timed_out = false;
  bool interrupted = false;  ///< we forwarded SIGINT/SIGTERM/SIGHUP to it
  double wall_seconds = 0;
  double user_seconds = 0;
  double system_seconds = 0;
  std::string output;        ///< stdout, when not redirected to a file
  std::string error_output;  ///< stderr, when captured (trimmed to 64 KiB)
};

/// Runs argv[0] (searched in PATH) in its own process group and waits for it. Returns false only
/// when the child could not be started (err says why); a child that fails is a true return with
/// a non-zero exit_code. While waiting, an interrupt (interrupt.h) is forwarded to the child.
[[nodiscard]] bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                              ProcessResult* result, std::string* err);

/// Convenience: runs argv and returns true only if it exited 0; err gets the command's name and
/// the last line of its stderr otherwise.
[[nodiscard]] bool RunChecked(const std::vector<std::string>& argv, std::string* output,
                              std::string* err);

/// True if `program` is an executable in PATH.
bool ProgramInPath(const std::string& program);

/// The last non-empty line of `text` (for one-line error messages from tools' stderr).
std::string LastLine(const std::string& text);

}  // namespace elevbench
