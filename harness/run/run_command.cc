#include "harness/run/run_command.h"

#include "harness/run/kernels_job.h"
#include "harness/run/run_job.h"

namespace elevbench {
namespace {

// Whether the run's config asks for guests (--kernels or --kernel-image).
bool RunsKernels(const RunConfig& config) {
  return !config.kernels.empty() || !config.kernel_images.empty();
}

// 9 and 10, and how the run ended, after the restore: the suite's tables when there is
// something to lay out (a --kernels run none of whose guests gave results has no suite
// parameters to lay the tables out by, each guest's run writes them: its failures are the errors
// already said), where the results went, the history, then the end's one line.
RunFailure EndRun(const RunConfig& config, const RunOutcome& outcome, bool restored,
                  const std::string& out_path, const ResultsDocument& doc, const RunHooks& hooks) {
  const bool nothing = doc.records.empty() && !outcome.finished;
  const bool no_layout = doc.records.empty() && doc.parameters.empty() && RunsKernels(config);
  if (!nothing && !no_layout) hooks.print_tables(doc);  // 9
  hooks.note("results written to " + out_path);
  hooks.record(out_path, doc);  // 10
  std::string err;
  const RunFailure end = RunEndFailure(outcome, restored, out_path, &err);
  if (end != RunFailure::kNone && !err.empty()) hooks.error(err);  // an incomplete restore: said
  return end;
}

// `run … --kernels`: the plan once per kernel, each in a guest (kernels_job.h); the merged
// results printed and recorded as a serial run's are.
RunFailure RunKernels(const RunConfig& config, const RunHooks& hooks) {
  KernelsJob job(config, hooks.error);
  std::string err;
  const RunFailure prepared = job.Prepare(&err);
  if (prepared != RunFailure::kNone) {
    hooks.error(WithDefaultsNote(err, hooks.defaults_note));
    return prepared;
  }
  if (!hooks.defaults_note.empty()) hooks.note(hooks.defaults_note);
  RunOutcome outcome;
  job.RunGuests(&outcome);
  const bool restored = job.Restore();
  return EndRun(config, outcome, restored, job.out_path(), job.doc(), hooks);
}

}  // namespace

std::string WithDefaultsNote(const std::string& err, const std::string& defaults_note) {
  for (const char* flag : {"--emulated", "--fs", "--machine", "--schedulers"}) {
    const std::string word = std::string(flag) + " ";
    if (err.rfind(flag, 0) == 0 && defaults_note.find(word) != std::string::npos) {
      return err + " (" + defaults_note + "; give your own " + flag + ")";
    }
  }
  return err;
}

RunFailure RunSuiteCommand(const RunConfig& config, const RunHooks& hooks) {
  if (RunsKernels(config)) return RunKernels(config, hooks);
  RunJob job(config, hooks.error);
  std::string err;
  const RunFailure prepared = PrepareRunJob(&job, &err, [&hooks] {      // 1-5c
    if (!hooks.defaults_note.empty()) hooks.note(hooks.defaults_note);  // once step 1 accepted it
  });
  if (prepared != RunFailure::kNone) {
    hooks.error(WithDefaultsNote(err, hooks.defaults_note));
    return prepared;
  }
  job.Describe();  // 6
  RunOutcome outcome;
  if (!job.RunCells(&outcome, &err)) {  // 7
    hooks.error(err);
    return RunFailure::kFailure;
  }
  const bool restored = job.Restore();                                         // 8
  return EndRun(config, outcome, restored, job.out_path(), job.doc(), hooks);  // 9, 10
}

}  // namespace elevbench
