// A suite's own setting (SuiteRunDefaults) filled into the run options the command line left out.

#include "harness/cli/commands.h"

namespace elevbench {

std::string ApplySuiteRunDefaults(const SuiteRunDefaults& defaults, const GivenRunOptions& given,
                                  RunOptions* options) {
  std::string applied;
  auto note = [&applied](const std::string& flag, const std::string& value) {
    applied += (applied.empty() ? "" : " ") + flag + " " + value;
  };
  if (!given.target && !defaults.emulated.empty()) {
    options->emulated = defaults.emulated;
    note("--emulated", defaults.emulated);
    if (!given.fs && !defaults.fs.empty()) {
      options->fs = defaults.fs;
      note("--fs", defaults.fs);
    }
    if (!given.machine && !defaults.machine.empty()) {
      options->machine = defaults.machine;
      note("--machine", defaults.machine);
    }
  }
  if (!given.schedulers && !defaults.schedulers.empty()) {
    options->schedulers = defaults.schedulers;
    note("--schedulers", defaults.schedulers);
  }
  return applied;
}

}  // namespace elevbench
