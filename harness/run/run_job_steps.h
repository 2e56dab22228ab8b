#pragma once
// The order of RunJob's steps (run_job.h) and how each one's failure ends the run, as one kind
// (run_failure.h) the CLI turns into its exit code: a bad command line or input is a usage
// error, a step that could not be done a failure, an interrupt its own kind. RunSuiteCommand
// (run_command.h) calls PrepareRunJob, Describe, RunCells and Restore, has the caller print
// the tables, then asks RunEndFailure how the run ended.

#include <functional>
#include <string>

#include "harness/run/run_failure.h"
#include "harness/run/run_job.h"

namespace elevbench {

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
