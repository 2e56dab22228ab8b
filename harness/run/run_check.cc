#include "harness/run/run_check.h"

#include <vector>

#include "harness/run/kernels_job.h"
#include "harness/run/run_job.h"

namespace elevbench {
namespace {

// `run … --kernels --check`: each kernel's checks and the host's, nothing fetched.
RunFailure CheckKernelsRun(const RunConfig& config, const RunHooks& hooks) {
  KernelsJob job(config, hooks.error);
  std::vector<std::string> notes;
  std::string err;
  const RunFailure checked = job.Check(&notes, &err);
  if (checked != RunFailure::kNone) {
    hooks.error(WithDefaultsNote(err, hooks.defaults_note));
    return checked;
  }
  for (const std::string& n : notes) hooks.note(n);
  hooks.note("checked: run " + config.suite_name + " --kernels on the host and each known " +
             "kernel; nothing was made or fetched (--check)");
  return RunFailure::kNone;
}

}  // namespace

std::string CheckedRunNote(const std::string& suite_name, const CheckedRun& c) {
  const TargetOptions& t = c.target;
  std::string target = t.emulated ? "an emulated " + t.emulated_options.profile_name + " disk"
                       : !t.raw_device.empty() ? "/dev/" + t.raw_device
                       : !t.directory.empty()  ? t.directory
                                               : "a scratch disk";
  if (!t.fs.empty() && t.directory.empty()) target += " (" + t.fs + ")";
  const std::string configs = c.configs.empty()
                                  ? std::string("every scheduler offered")
                                  : std::to_string(c.configs.size()) + " configuration(s)";
  std::string note = "checked: run " + suite_name + ", " + configs + " x " +
                     std::to_string(c.repetitions) + " repetition(s) on " + target;
  if (c.machine_spec.limits()) note += ", as the machine " + c.machine_spec.text;
  if (!c.machine_note.empty()) note += " (chosen for the disk's size)";
  return note + "; nothing was made (--check)";
}

RunFailure CheckRunCommand(const RunConfig& config, const RunHooks& hooks) {
  if (!config.kernels.empty() || !config.kernel_images.empty()) {
    return CheckKernelsRun(config, hooks);
  }
  RunJob job(config, hooks.error);
  std::string err;
  if (!job.Check(&err)) {
    hooks.error(WithDefaultsNote(err, hooks.defaults_note));
    return RunFailure::kUsage;
  }
  if (!job.FindFio(&err)) {
    hooks.error(err);
    return RunFailure::kFailure;
  }
  if (!hooks.defaults_note.empty()) hooks.note(hooks.defaults_note);
  for (const std::string* note : {&job.checked().schedulers_note, &job.checked().machine_note}) {
    if (!note->empty()) hooks.line(*note);
  }
  hooks.note(CheckedRunNote(config.suite_name, job.checked()));
  return RunFailure::kNone;
}

}  // namespace elevbench
