#pragma once
// The order of RunJob's steps (run_job.h) and how each one's failure ends the run, as one kind
// the CLI turns into its exit code (app/cli/cmd_run.cc): a bad command line or input is a
// usage error, a step that could not be done a failure, an interrupt its own kind. The CLI
// calls PrepareRunJob, Describe, RunCells and Restore, prints the tables, then asks
// RunEndFailure how the run ended.

#include <functional>
#include <string>

#include "harness/run/run_job.h"

namespace elevbench {

/// How a run ended, or a step of it failed.
enum class RunFailure {
  kNone,         ///< done, every cell in and everything restored
  kUsage,        ///< the command line or its input refused (nothing was changed)
  kFailure,      ///< a step could not be done, a cell failed, or the restore is incomplete
  kInterrupted,  ///< stopped by a signal (after cleanup)
};

/// Steps 1 to 5c of `job` in order (Check, FindFio, CheckGlobalTracer, MakeWorkDir, DecideRoot,
/// OpenJournal, MakeTarget, AuthorizeSwitching, SetUpDevices, MakeMachineCgroups, OpenTracer)
/// until one fails: kNone when none did, else its kind with err its one line (MakeTarget's
/// failure during an interrupt is kInterrupted). A failure after MakeWorkDir has the job take
/// back `<out>.fio/` when it ends (RunJob::TakeBackWorkDir). `accepted`, when set, is called
/// once step 1 (Check to MakeWorkDir) passed: the CLI's notes wait for it, so that a refused
/// command prints its one line only (#45).
RunFailure PrepareRunJob(RunJob* job, std::string* err, const std::function<void()>& accepted = {});

/// How a run whose cells ran ended, after the restore (`restored`: Restore's result): the
/// session's error when it did not finish (kInterrupted when a signal stopped it), the failed
/// cells (naming `out_path`), a signal after the last cell (the results are complete), an
/// incomplete restore (said by the job, err left empty). err is the one line to print.
RunFailure RunEndFailure(const RunOutcome& outcome, bool restored, const std::string& out_path,
                         std::string* err);

}  // namespace elevbench
