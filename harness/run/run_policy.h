#pragma once
// The run's decisions that need no device: how many repetitions, how large the device elevbench
// makes must be, where the results go, and the results file's context block. Kept out of the
// CLI so that tests reach them without running the binary.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/system_info.h"
#include "harness/run/run_session.h"
#include "harness/run/target.h"

namespace elevbench {

/// Reads `--repetitions`: a number from 1 to 1000 into *repetitions, or "auto", which enables
/// *adaptive with `max_repetitions` as its cap (and *repetitions) and `ci_width_pct` (percent)
/// as its target half-width. err (one line) for anything else.
[[nodiscard]] bool ParseRepetitionsOption(const std::string& text, uint32_t max_repetitions,
                                          double ci_width_pct, uint32_t* repetitions,
                                          AdaptiveRepetitions* adaptive, std::string* err);

/// Sizes the device a run makes for a suite whose files need `needed` bytes: an emulated disk
/// whose size was not given (`emulated_size_given` false) grows to fit (the files plus 192 MiB,
/// at least 1 GiB), and so does the scratch device a root run without a target gets
/// (`default_scratch`). A size that was given and cannot hold the files is refused: err names
/// `suite`, both sizes and the flag, before anything is created; so is a --dir (t->directory)
/// whose filesystem has less than `needed` bytes free.
[[nodiscard]] bool SizeTargetForSuite(const std::string& suite, uint64_t needed,
                                      bool emulated_size_given, bool default_scratch,
                                      TargetOptions* target, std::string* err);

/// The default results path: results/<UTC time, compact>-<host>-<suite>.json. Creates
/// nothing: the run makes results/ once every check has passed (a refused command leaves no
/// directory behind).
std::string DefaultResultsPath(const std::string& suite, const std::string& host);

/// What the results file's context block says of a run.
struct RunContextFacts {
  std::string command_line;
  MachineInfo machine;              ///< the host's facts
  nlohmann::json emulated_machine;  ///< --machine's limits, or null
  std::string fio_version;
  const RunTarget* target = nullptr;                        ///< the built target; never null
  bool switching = false;                                   ///< the run switches schedulers
  std::vector<std::pair<std::string, std::string>> pinned;  ///< queue attributes pinned
  uint64_t seed = 0;
  bool root = false;
  bool drop_caches = false;
  double timeout_seconds = 0;
  std::string cache_policy;  ///< the suite's line on caches (Suite::CachePolicy)
  /// An emulated target's global vm.dirty_* as the run wrote them; empty: EmulatedVmSettings().
  std::vector<std::pair<std::string, std::string>> vm_settings = {};
  nlohmann::json disk_writeback;  ///< a serial emulated run's disk writeback block, or null
};

/// The line that completes a suite's cache policy with what the run did globally.
std::string GlobalCacheDropNote(bool root, bool drop_caches);

/// The results context: machine, target, devices, what was pinned and how caches were handled
/// (docs/output-format.md).
nlohmann::json RunContextJson(const RunContextFacts& facts);

}  // namespace elevbench
