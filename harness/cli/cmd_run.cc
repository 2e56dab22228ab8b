// `elevbench run SUITE`: the command line's options mapped to a RunConfig and run by RunJob
// (harness/run/run_job.h), the ten steps of docs/architecture.md one after another; here each
// step's failure becomes its exit code, and the run's end is printed: the suite's tables on
// stdout, where the results went, the history's note, and why the run failed.

#include <initializer_list>
#include <iostream>
#include <string>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/interrupt.h"
#include "harness/history/history_store.h"
#include "harness/run/run_job.h"
#include "scenarios/suites_commands.h"

namespace elevbench {
namespace {

// A step of the job and the exit code its failure means.
struct RunStep {
  bool (RunJob::*run)(std::string* err);
  int exit_code;
  bool interruptible = false;  // an interrupt during it makes its failure 130
};

// Runs `steps` in order; the first that fails prints its error and gives its exit code, else -1.
int RunSteps(RunJob* job, std::initializer_list<RunStep> steps) {
  for (const RunStep& step : steps) {
    std::string err;
    if ((job->*step.run)(&err)) continue;
    PrintError(err);
    return step.interruptible && InterruptRequested() ? kExitInterrupted : step.exit_code;
  }
  return -1;
}

// 9. The suite's tables on stdout, from what the session recorded.
void PrintRunTables(const RunOptions& o, const ResultsDocument& doc, bool finished) {
  if (doc.records.empty() && !finished) return;
  std::string text, err;
  ReportOptions options;
  options.verdict = !o.no_verdict;
  if (RenderResults(doc, o.format, options, &text, &err)) {
    std::cout << text;
  } else {
    PrintError("cannot print the tables: " + err);
  }
  std::cout.flush();
}

// The run's exit code once everything is restored and printed, and its last line.
int RunExitCode(const RunOutcome& outcome, bool restored, const std::string& out_path) {
  if (!outcome.finished) {
    PrintError(outcome.error);
    return InterruptSignal() != 0 ? kExitInterrupted : kExitFailure;
  }
  if (outcome.failed_cells > 0) {
    PrintError(std::to_string(outcome.failed_cells) + " cell(s) failed; see " + out_path);
    return kExitFailure;
  }
  if (InterruptSignal() != 0) {
    // A signal after the last cell (during the teardown or the restore, which still ran to the
    // end): every cell is in, but the run was interrupted, and says so as README promises.
    PrintError("interrupted by signal " + std::to_string(InterruptSignal()) +
               " after the last cell; the results are complete");
    return kExitInterrupted;
  }
  return restored ? kExitOk : kExitFailure;
}

// The end of `elevbench run`: records the run (the results file at `out_path`) in the
// history unless --no-history, and says so, or why not, in one note on stderr. Never fails
// the run: the results file is already complete.
void NoteRunInHistory(const RunOptions& options, const std::string& out_path,
                      const ResultsDocument& doc) {
  if (options.no_history || doc.cells.empty()) return;
  const std::string location =
      options.history_db.empty() ? DefaultHistoryLocation(true) : options.history_db;
  std::string err;
  if (RecordResultsInHistory(out_path, doc, location, &err)) {
    PrintNote("run recorded in the history " + RedactedLocation(location));
  } else {
    PrintNote("run not recorded in the history: " + err + "; the results file is complete " +
              "('elevbench history import " + out_path + "' adds it later)");
  }
}

}  // namespace

int RunCommand(const RunOptions& o) {
  if (o.entry == nullptr || o.suite == nullptr) {
    PrintError("no suite given (see --help)");
    return kExitUsage;
  }
  RunJob job(RunConfigOf(o), PrintError);
  const int checked = RunSteps(&job, {{&RunJob::Check, kExitUsage},  // 1
                                      {&RunJob::FindFio, kExitFailure},
                                      {&RunJob::CheckGlobalTracer, kExitUsage},
                                      {&RunJob::MakeWorkDir, kExitUsage}});
  if (checked >= 0) return checked;
  job.DecideRoot();                                                           // 2
  const int prepared = RunSteps(&job, {{&RunJob::OpenJournal, kExitFailure},  // 3
                                       {&RunJob::MakeTarget, kExitFailure, true},
                                       {&RunJob::AuthorizeSwitching, kExitUsage},
                                       {&RunJob::SetUpDevices, kExitFailure},
                                       {&RunJob::MakeMachineCgroups, kExitFailure},
                                       {&RunJob::OpenTracer, kExitFailure}});  // 5c
  if (prepared >= 0) return prepared;
  job.Describe();  // 6
  RunOutcome outcome;
  std::string err;
  if (!job.RunCells(&outcome, &err)) {  // 7
    PrintError(err);
    return kExitFailure;
  }
  const bool restored = job.Restore();             // 8
  PrintRunTables(o, job.doc(), outcome.finished);  // 9
  PrintNote("results written to " + job.out_path());
  NoteRunInHistory(o, job.out_path(), job.doc());  // 10
  return RunExitCode(outcome, restored, job.out_path());
}

}  // namespace elevbench
