#include "harness/run/run_job_steps.h"

#include <initializer_list>

#include "harness/core/interrupt.h"

namespace elevbench {
namespace {

// A step of the job and what its failure means.
struct RunJobStep {
  bool (RunJob::*run)(std::string* err);
  RunFailure failure;
  bool interruptible = false;  // an interrupt during it makes its failure kInterrupted
};

// Runs `steps` in order; the first that fails gives its failure, else kNone.
RunFailure RunJobSteps(RunJob* job, std::initializer_list<RunJobStep> steps, std::string* err) {
  for (const RunJobStep& step : steps) {
    err->clear();
    if ((job->*step.run)(err)) continue;
    return step.interruptible && InterruptRequested() ? RunFailure::kInterrupted : step.failure;
  }
  return RunFailure::kNone;
}

}  // namespace

RunFailure PrepareRunJob(RunJob* job, std::string* err, const std::function<void()>& accepted) {
  const RunFailure checked = RunJobSteps(job,
                                         {{&RunJob::Check, RunFailure::kUsage},  // 1
                                          {&RunJob::FindFio, RunFailure::kFailure},
                                          {&RunJob::CheckGlobalTracer, RunFailure::kUsage},
                                          {&RunJob::MakeWorkDir, RunFailure::kUsage}},
                                         err);
  if (checked != RunFailure::kNone) return checked;
  if (accepted) accepted();
  job->DecideRoot();  // 2
  const RunFailure prepared = RunJobSteps(job,
                                          {{&RunJob::OpenJournal, RunFailure::kFailure},  // 3
                                           {&RunJob::MakeTarget, RunFailure::kFailure, true},
                                           {&RunJob::AuthorizeSwitching, RunFailure::kUsage},
                                           {&RunJob::SetUpDevices, RunFailure::kFailure},
                                           {&RunJob::MakeMachineCgroups, RunFailure::kFailure},
                                           {&RunJob::MakeControlCgroups, RunFailure::kFailure},
                                           {&RunJob::OpenTracer, RunFailure::kFailure}},  // 5c
                                          err);
  // Refused or failed before any cell: nothing of the run stays, <out>.fio/ included.
  if (prepared != RunFailure::kNone) job->TakeBackWorkDir();
  return prepared;
}

RunFailure RunEndFailure(const RunOutcome& outcome, bool restored, const std::string& out_path,
                         std::string* err) {
  err->clear();
  if (!outcome.finished) {
    *err = outcome.error;
    return InterruptSignal() != 0 ? RunFailure::kInterrupted : RunFailure::kFailure;
  }
  if (outcome.failed_cells > 0) {
    *err = std::to_string(outcome.failed_cells) + " cell(s) failed; see " + out_path;
    return RunFailure::kFailure;
  }
  if (InterruptSignal() != 0) {
    // A signal after the last cell (during the teardown or the restore, which still ran to the
    // end): every cell is in, but the run was interrupted, and says so as README promises.
    *err = "interrupted by signal " + std::to_string(InterruptSignal()) +
           " after the last cell; the results are complete";
    return RunFailure::kInterrupted;
  }
  return restored ? RunFailure::kNone : RunFailure::kFailure;
}

}  // namespace elevbench
