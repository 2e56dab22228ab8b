#pragma once
// Executes a planned tiobench comparison: for each cell, switch the device (if switching), drop
// caches, run the suite through fio, record the queue snapshot and emulated-disk counters, and
// rewrite the results file atomically so an interrupted run keeps every finished cell.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/device/device_control.h"
#include "harness/core/progress.h"
#include "harness/run/results.h"
#include "harness/device/scheduler_config.h"

namespace elevbench {

/// Where the cells run.
struct SessionTarget {
  std::string directory;
  /// Switches schedulers; null = run on the current scheduler only (not root, or not allowed).
  DeviceControl* control = nullptr;
  /// Read-only queue snapshot when not switching (may be null).
  std::function<std::map<std::string, std::string>()> snapshot;
  /// Emulated-disk counters (stats.json); null when the target is not emulated.
  std::function<nlohmann::json()> disk_counters;
};

/// What to run.
struct SessionConfig {
  TiobenchParams params;
  /// Configurations to compare; empty = one pass on whatever scheduler is active.
  std::vector<SchedulerConfig> configs;
  /// Table identifier per configuration (one entry when configs is empty).
  std::vector<std::string> identifiers;
  uint32_t repetitions = 1;
  uint64_t seed = 0;
  bool drop_caches = false;  ///< sync + drop caches before each cell and each read phase
  std::string out_path;      ///< results file, rewritten after every cell
  std::string fio_work_dir;  ///< job files and fio outputs
  double phase_timeout_seconds = 0;
};

/// Runs every cell of the plan into `doc` (whose context the caller filled). Returns false with
/// err when the run could not go on (results file not writable, interrupted); cells that fail are
/// recorded with status "failed" and the run continues. `failed_cells` counts them.
[[nodiscard]] bool RunTiobenchSession(const SessionConfig& config, const SessionTarget& target,
                                      Progress* progress, ResultsDocument* doc,
                                      size_t* failed_cells, std::string* err);

/// Subtracts numeric counters (after − before) key by key; non-numeric values come from `after`.
nlohmann::json CounterDelta(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace elevbench
