// `elevbench run SUITE`: the command line's options mapped to a RunConfig and run by RunJob
// (harness/run/run_job.h), the ten steps of docs/architecture.md one after another; here each
// step's failure becomes its exit code, and the run's end is printed: the suite's tables on
// stdout, where the results went, the history's note, and why the run failed.

#include <iostream>
#include <string>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites_commands.h"
#include "harness/history/history_store.h"
#include "harness/run/kernels_job.h"
#include "harness/run/run_job_steps.h"

namespace elevbench {
namespace {

// The exit code of a run's failure (harness/run/run_job_steps.h).
int ExitCodeOf(RunFailure failure) {
  return failure == RunFailure::kNone          ? kExitOk
         : failure == RunFailure::kUsage       ? kExitUsage
         : failure == RunFailure::kInterrupted ? kExitInterrupted
                                               : kExitFailure;
}

// 9. The suite's tables on stdout, from what the session recorded. A `--kernels` run none of
// whose guests gave results has no suite parameters to lay the tables out by (each guest's run
// writes them): its failures are the errors already printed, not a table.
void PrintRunTables(const RunOptions& o, const ResultsDocument& doc, bool finished) {
  if (doc.records.empty() && !finished) return;
  const bool kernels = !o.config.kernels.empty() || !o.config.kernel_images.empty();
  if (doc.records.empty() && doc.parameters.empty() && kernels) return;
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

// A refusal of a flag the user did not type but the suite's defaults set (`run post-2003` without
// root: "--machine needs root") says where it came from (the fourth newcomer pass: the note that
// names the defaults came only once the checks had passed).
std::string WithDefaultsNote(const std::string& err, const std::string& defaults_note) {
  for (const char* flag : {"--emulated", "--fs", "--machine", "--schedulers"}) {
    const std::string word = std::string(flag) + " ";
    if (err.rfind(flag, 0) == 0 && defaults_note.find(word) != std::string::npos) {
      return err + " (" + defaults_note + "; give your own " + flag + ")";
    }
  }
  return err;
}

// `run … --kernels`: the plan once per kernel, each in a guest (harness/run/kernels_job.h);
// the merged results printed and recorded as a serial run's are.
int RunKernelsCommand(const RunOptions& o) {
  KernelsJob job(RunConfigOf(o), PrintError);
  std::string err;
  const RunFailure prepared = job.Prepare(&err);
  if (prepared != RunFailure::kNone) {
    PrintError(WithDefaultsNote(err, o.defaults_note));
    return ExitCodeOf(prepared);
  }
  if (!o.defaults_note.empty()) PrintNote(o.defaults_note);
  RunOutcome outcome;
  job.RunGuests(&outcome);
  const bool restored = job.Restore();
  PrintRunTables(o, job.doc(), outcome.finished);
  PrintNote("results written to " + job.out_path());
  NoteRunInHistory(o, job.out_path(), job.doc());
  const RunFailure end = RunEndFailure(outcome, restored, job.out_path(), &err);
  if (end != RunFailure::kNone && !err.empty()) PrintError(err);
  return ExitCodeOf(end);
}

// What a checked run would do, in one note: the suite, its configurations (or every scheduler
// offered), repetitions and target, the machine it emulates.
std::string CheckedRunNote(const RunOptions& o, const CheckedRun& c) {
  const TargetOptions& t = c.target;
  std::string target = t.emulated ? "an emulated " + t.emulated_options.profile_name + " disk"
                       : !t.raw_device.empty() ? "/dev/" + t.raw_device
                       : !t.directory.empty()  ? t.directory
                                               : "a scratch disk";
  if (!t.fs.empty() && t.directory.empty()) target += " (" + t.fs + ")";
  const std::string configs = c.configs.empty()
                                  ? std::string("every scheduler offered")
                                  : std::to_string(c.configs.size()) + " configuration(s)";
  std::string note = "checked: run " + std::string(o.entry->name) + ", " + configs + " x " +
                     std::to_string(c.repetitions) + " repetition(s) on " + target;
  if (c.machine_spec.limits()) note += ", as the machine " + c.machine_spec.text;
  if (!c.machine_note.empty()) note += " (chosen for the disk's size)";
  return note + "; nothing was made (--check)";
}

// `run … --check`: step 1 alone (the kernels' own checks too, nothing fetched); exit 0 with
// what the run would do, or the refusal's one line and its exit code.
int CheckRunCommand(const RunOptions& o) {
  std::string err;
  if (!o.config.kernels.empty() || !o.config.kernel_images.empty()) {
    KernelsJob job(RunConfigOf(o), PrintError);
    std::vector<std::string> notes;
    const RunFailure checked = job.Check(&notes, &err);
    if (checked != RunFailure::kNone) {
      PrintError(WithDefaultsNote(err, o.defaults_note));
      return ExitCodeOf(checked);
    }
    for (const std::string& n : notes) PrintNote(n);
    PrintNote("checked: run " + std::string(o.entry->name) +
              " --kernels on the host and each known " +
              "kernel; nothing was made or fetched (--check)");
    return kExitOk;
  }
  RunJob job(RunConfigOf(o), PrintError);
  if (!job.Check(&err)) {
    PrintError(WithDefaultsNote(err, o.defaults_note));
    return kExitUsage;
  }
  if (!job.FindFio(&err)) {
    PrintError(err);
    return kExitFailure;
  }
  if (!o.defaults_note.empty()) PrintNote(o.defaults_note);
  for (const std::string* note : {&job.checked().schedulers_note, &job.checked().machine_note}) {
    if (!note->empty()) std::cerr << *note << "\n";
  }
  PrintNote(CheckedRunNote(o, job.checked()));
  return kExitOk;
}

}  // namespace

int RunCommand(const RunOptions& o) {
  if (o.entry == nullptr || o.config.suite == nullptr) {
    PrintError("no suite given (see --help)");
    return kExitUsage;
  }
  if (o.check_only) return CheckRunCommand(o);
  if (!o.config.kernels.empty() || !o.config.kernel_images.empty()) return RunKernelsCommand(o);
  RunJob job(RunConfigOf(o), PrintError);
  std::string err;
  const RunFailure prepared = PrepareRunJob(&job, &err, [&o] {  // 1-5c
    if (!o.defaults_note.empty()) PrintNote(o.defaults_note);   // once step 1 accepted it
  });
  if (prepared != RunFailure::kNone) {
    PrintError(WithDefaultsNote(err, o.defaults_note));
    return ExitCodeOf(prepared);
  }
  job.Describe();  // 6
  RunOutcome outcome;
  if (!job.RunCells(&outcome, &err)) {  // 7
    PrintError(err);
    return kExitFailure;
  }
  const bool restored = job.Restore();             // 8
  PrintRunTables(o, job.doc(), outcome.finished);  // 9
  PrintNote("results written to " + job.out_path());
  NoteRunInHistory(o, job.out_path(), job.doc());  // 10
  const RunFailure end = RunEndFailure(outcome, restored, job.out_path(), &err);
  if (end != RunFailure::kNone && !err.empty()) PrintError(err);  // an incomplete restore: said
  return ExitCodeOf(end);
}

}  // namespace elevbench
