#pragma once
// Executes a planned comparison for any suite: lays out the suite's files once, then for each
// cell switches the device (if switching), drops caches, runs the suite's cell, records the
// queue snapshot and emulated-disk counters, and rewrites the results file atomically so an
// interrupted run keeps every finished cell.

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/device_control.h"
#include "harness/device/scheduler_config.h"
#include "harness/results/results_document.h"
#include "harness/run/suite.h"
#include "harness/stats/measurement.h"
#include "harness/trace/cell_tracer.h"

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
  /// Writes back the target's dirty data and drops the machine's clean caches (root only,
  /// RunTarget::DropCaches: bounded, never a machine-wide sync), before a cell when
  /// SessionConfig::drop_caches; null when this target cannot. err is one line.
  std::function<bool(std::string* err)> drop_caches;
  /// Makes the target's filesystem again (RunTarget::RemakeFilesystem), before a cell when
  /// SessionConfig::fresh_fs; null when this target cannot. err is one line.
  std::function<bool(std::string* err)> remake_filesystem;
  /// Traces each cell's requests; null = `--trace-requests off` or a target that cannot be.
  CellTracer* tracer = nullptr;
  /// CellEnvironment::device and ::journal, handed to the suite.
  std::string device;
  RestoreJournal* journal = nullptr;
  /// The cause a failed cell's disk counters show (an injected EIO of the emulated disk:
  /// DiskFailureCause), put before the cell's error; empty for none. Null: none is looked for.
  std::function<std::string(const nlohmann::json& cell_counters)> failure_cause;
  /// Asked after every cell: true with why (one line) when the device under the run is gone
  /// (RunTarget::Lost: the emulated disk's daemon died, the loop device was detached). That
  /// cell is failed with why and the session stops with it. Null: never lost.
  std::function<bool(std::string* why)> lost;
};

/// `--repetitions auto` (PTS-style, per metric): repeat every cell round by round until the 95 %
/// confidence interval of every headline metric of every row is within `ci_width` of its
/// mean, or `max_repetitions` rounds have run.
struct AdaptiveRepetitions {
  bool enabled = false;
  uint32_t min_repetitions = 3;  ///< no interval is trusted from fewer (t(1) = 12.7)
  uint32_t max_repetitions = 10;
  double ci_width = 0.05;  ///< allowed half-width of the interval, relative to the mean
};

/// One configuration's I/O control (`run --controls`, docs/controls.md).
struct SessionControl {
  std::string text;        ///< "ionice:load=idle", recorded in every cell and record
  ProcessPlacement load;   ///< where the load role runs
  ProcessPlacement probe;  ///< where the probe role runs
  /// A step on the device before each cell of the configuration, after the scheduler switch
  /// (io.cost turned on or off on the disk for it: IoCostSwitch); empty: none.
  std::function<bool(std::string* err)> before_cell{};
};

/// What to run.
struct SessionConfig {
  /// Configurations to compare; empty = one pass on whatever scheduler is active.
  std::vector<SchedulerConfig> configs;
  /// Table identifier per configuration (one entry when configs is empty).
  std::vector<std::string> identifiers;
  /// Short label per configuration ("DL", "AS"), same length as identifiers.
  std::vector<std::string> labels;
  /// `--kernels` (a guest's run): each configuration's label without its kernel's, recorded in
  /// every cell and record (RecordHeader::configuration_label); same length as identifiers, or
  /// empty in any other run.
  std::vector<std::string> configuration_labels{};
  /// The I/O control per configuration, same length as identifiers; empty: none anywhere.
  std::vector<SessionControl> controls;
  uint32_t repetitions = 1;  ///< ignored when adaptive.enabled (max_repetitions is the cap)
  AdaptiveRepetitions adaptive;
  uint64_t seed = 0;
  bool root = false;
  bool drop_caches = false;  ///< sync the target + drop caches before each cell
  /// --fresh-fs: before each cell the target's filesystem is made again and the suite's SetUp
  /// lays its files out again (then the caches are dropped), so that no cell inherits what
  /// earlier cells did to the filesystem: cells independent of their order, serial or in lanes.
  bool fresh_fs = false;
  std::string out_path;        ///< results file, rewritten after every cell
  std::string work_dir;        ///< job files, fio and probe outputs
  double timeout_seconds = 0;  ///< per fio phase or probe; 0 = none
  /// The suite's measurer, which `--repetitions auto` needs to see its headline rows.
  SuiteMeasurer measure = nullptr;
  /// Asked before every cell and after a failed one: true stops the session after the current
  /// cell (a run passes its interrupt flag: SIGINT, SIGTERM, SIGHUP). Null: never.
  std::function<bool()> stop_requested;
  /// Why it stopped, for the error ("interrupted by signal 2").
  std::function<std::string()> stop_reason;
  /// `--lanes`: the lane this session is (-1: a serial run) and the indices of the plan's
  /// cells it runs (DealPlanToLanes, in plan order; empty: all). The plan is the whole run's,
  /// so cell files are named by plan index and every cell records its lane and plan index.
  int lane = -1;
  std::vector<size_t> plan_cells;
  /// `--shard I/N` (docs/ci.md): I, this session's shard (0: the whole plan); plan_cells are
  /// then the shard's (DealPlanToShard), and every cell records its shard and plan index.
  int shard = 0;
};

/// Runs every cell of the plan into `doc` (whose suite and context the caller filled). Returns
/// false with err when the run could not go on (set-up failed, results file not writable,
/// interrupted); cells that fail are recorded with status "failed" and the run continues.
/// `failed_cells` counts them. The suite's TearDown runs on every path once SetUp was called.
/// With adaptive repetitions the context's "repetitions" is set to the rounds that ran and
/// "repetitions_auto" to the target, the cap and whether every headline interval converged.
[[nodiscard]] bool RunSession(Suite& suite, const SessionConfig& config,
                              const SessionTarget& target, FioRunner* fio, Progress* progress,
                              ResultsDocument* doc, size_t* failed_cells, std::string* err);

/// Whether every headline row of `doc` (measured by `measure`) has at least `min` values and a
/// 95 % interval within `ci_width` of its mean; `widest` receives the widest relative
/// half-width seen (or +inf when a row cannot have an interval yet) and `which` names that row.
[[nodiscard]] bool HeadlineIntervalsConverged(const ResultsDocument& doc, SuiteMeasurer measure,
                                              uint32_t min, double ci_width, double* widest,
                                              std::string* which);

/// Subtracts numeric counters (after − before) key by key; non-numeric values come from `after`.
nlohmann::json CounterDelta(const nlohmann::json& before, const nlohmann::json& after);

}  // namespace elevbench
