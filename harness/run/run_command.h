#pragma once
// `elevbench run SUITE` from its config to its end: the ten steps of docs/architecture.md, for a
// serial run (RunJob, run_job.h) and for --kernels (KernelsJob, kernels_job.h), one after
// another, each step's failure a RunFailure (run_job_steps.h) the CLI turns into its exit code.
// What the library cannot do itself is left to the caller's hooks: where the lines go, and
// steps 9 and 10, which need the table of suites (app/): the suite's tables and the history's
// measurements.

#include <functional>
#include <string>

#include "harness/results/results_document.h"
#include "harness/run/run_config.h"
#include "harness/run/run_job_steps.h"

namespace elevbench {

/// What a run's steps leave to the command that runs them (app/cli/cmd_run.cc).
struct RunHooks {
  /// An error line ("elevbench: …" on stderr): a step's refusal or failure, and the errors that
  /// do not stop a step (RunJob's report_error).
  std::function<void(const std::string& line)> error;
  /// A note ("elevbench: note: …"): what the suite's defaults filled in, where the results went.
  std::function<void(const std::string& line)> note;
  /// A line that is whole already (a CheckedRun note that starts "elevbench: "), as it is.
  std::function<void(const std::string& line)> line;
  /// 9. The suite's tables on stdout, from `doc` as the session left it; called only when
  /// there is something to lay out (RunToEnd says when).
  std::function<void(const ResultsDocument& doc)> print_tables;
  /// 10. The run recorded in the history, the results file at `out_path` complete; says how it
  /// went in its own note, and never fails the run.
  std::function<void(const std::string& out_path, const ResultsDocument& doc)> record;
  /// What the suite's defaults filled in ("tiobench runs by default with --emulated …"): a note
  /// once step 1 accepted the run (a note before a refusal would make it two lines, #45), and
  /// the source a refusal of a flag the user did not type names (WithDefaultsNote).
  std::string defaults_note;
};

/// A refusal of a flag the user did not type but the suite's defaults set (`run post-2003`
/// without root: "--machine needs root") with where it came from: `err` and, when it begins
/// with a flag of --emulated, --fs, --machine or --schedulers that `defaults_note` names, "
/// (NOTE; give your own FLAG)" (the fourth newcomer pass: the note came only once the checks
/// had passed).
std::string WithDefaultsNote(const std::string& err, const std::string& defaults_note);

/// `elevbench run`: steps 1 to 10 of `config` (--kernels or --kernel-image: the plan once per
/// kernel, each in a guest, merged), the lines said through `hooks` as they come. kNone when
/// the run was done, every cell in and everything restored; else how it failed, said already.
RunFailure RunSuiteCommand(const RunConfig& config, const RunHooks& hooks);

}  // namespace elevbench
