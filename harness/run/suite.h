#pragma once
// A suite (tiobench, nickbench, the cat/ls probes, ...) as a plug-in of the run loop. The loop
// plans configurations × variants × repetitions, switches schedulers, drops caches and saves the
// results; a suite only says which variants it has and runs one cell of them. Adding a suite is
// new files under scenarios/, one entry in the table of suites (app/suites.h) and one
// renderer in reporters/; no file of the run loop changes.

#include <cstdint>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/system_info.h"
#include "harness/fio/fio_job_file.h"
#include "harness/process/subprocess.h"
#include "harness/results/results_document.h"
#include "harness/run/host_paths.h"

namespace CLI {
class App;
}

namespace elevbench {

class FioRunner;
class RestoreJournal;

/// One cell of a configuration: a thread count, a bench, a probe.
struct SuiteVariant {
  std::string label;                              ///< for progress lines: "threads=4"
  nlohmann::json key = nlohmann::json::object();  ///< recorded in the cell: {"threads": 4}
  /// The run loop does not drop the caches before this cell, even when it drops them before
  /// the others: contest's cacherun is the previous variant (no_load) again on warm caches.
  bool keep_caches = false;
};

/// What a cell runs on and with.
struct CellEnvironment {
  std::string directory;       ///< the target directory; the suite's files live here
  FioRunner* fio = nullptr;    ///< runs fio (a fake in unit tests); never null in a run
  std::string work_dir;        ///< job files, fio outputs, probe outputs (kept for audit)
  std::string label_prefix;    ///< unique per cell ("cell003-"), for those files' names
  double timeout_seconds = 0;  ///< limit of one fio phase or probe; 0 = none
  bool root = false;           ///< may drop caches and use root-only facilities
  bool drop_caches = false;    ///< the user allows global cache drops (root, no --no-drop-caches)
  /// Short description of what the cell is doing now ("seq_read", "warm-up"); may be empty.
  std::function<void(const std::string&)> on_phase;
  /// The target's block device ("/dev/loop9") when the suite runs on a raw device
  /// (Suite::WantsRawDevice); empty otherwise.
  std::string device;
  /// The run's journal, for a suite that changes machine state of its own during a cell
  /// (replay's tracefs instance): journal first, undo on every path. Null without root.
  RestoreJournal* journal = nullptr;
  /// The variants (by index in Suite::Variants()) that this session runs cells of; empty when
  /// it runs them all. A session of some lanes' cells (harness/run/lanes.h) runs only some, and
  /// a suite may set up only what those read (a composite's parts).
  std::vector<bool> runs_variant;
  /// The cell's I/O control (`run --controls`, docs/controls.md): where the load role's
  /// processes (fio, a repeated command) and the probe role's run. Empty for none; a suite with
  /// roles (Suite::HasRoles) passes them to its LoadSpec, RepeatedCommandSpec and ProbeSpec.
  ProcessPlacement load_placement;
  ProcessPlacement probe_placement;
  /// True when some control of the run puts a role in cgroups. A suite whose roles are jobs of
  /// one fio (nickbench) runs them as processes in every cell of such a run, not threads: fio
  /// moves a job into a v2 cgroup through cgroup.procs, which moves its whole process, and
  /// every row must run alike to be compared.
  bool roles_in_cgroups = false;
};

/// What the command line says the run will run on, for Suite::CheckTarget: known before
/// anything is created.
struct TargetFacts {
  std::string directory;    ///< --dir DIR; empty for a device elevbench makes or a raw device
  std::string user_device;  ///< --device NAME ("sdb"), the user's consent to touch it; or empty
  bool raw_user_device = false;  ///< the target is that device itself, without a filesystem
  bool allow_writes = false;     ///< --allow-writes: the user's device's data may be destroyed
  uint64_t raw_bytes = 0;        ///< size of the raw device (made or named); 0 when unknown
};

/// One benchmark suite. Created before the command line is parsed (it adds its own options),
/// prepared once, then asked to run cells. Errors: bool + one line in *err, as everywhere.
class Suite {
 public:
  virtual ~Suite() = default;

  /// Adds the suite's own options to its `run <suite>` subcommand.
  virtual void AddOptions(CLI::App* command) = 0;

  /// Checks and completes the options after parsing (defaults that depend on the machine, such
  /// as tiobench's 2×RAM size). err names the bad option. Called before anything is created.
  [[nodiscard]] virtual bool Prepare(const MachineInfo& machine, std::string* err) = 0;

  /// Bytes the suite's files need on the target, to size scratch and emulated devices.
  virtual uint64_t BytesNeeded() const = 0;

  /// True for a suite that does its I/O on a raw block device, no filesystem (replay): the run
  /// then makes its emulated or scratch device without one, or takes `--device NAME` alone as
  /// the target, and refuses --dir. Default: false (a filesystem target).
  virtual bool WantsRawDevice() const { return false; }

  /// Checks the suite's options against the target the command line names (a job file's paths,
  /// a trace's writes on the user's own device), after Prepare and before anything is created.
  /// It may keep what it learns (the user's device) for SetUp. err is one line. Default:
  /// nothing to check.
  [[nodiscard]] virtual bool CheckTarget(const TargetFacts& facts, std::string* err);

  /// The host's files and folders the suite's options name for the run to read or write (a
  /// trace, a job file, a tree to copy, a program by its path), so that `run --kernels` can
  /// refuse, before anything is made, what a guest cannot reach (kernel_rows.h's
  /// CheckGuestHostPaths). Complete after Prepare (a composite's parts exist from then on); the
  /// options' own before it. Default: none.
  virtual std::vector<HostPathUse> HostPaths() const { return {}; }

  /// True for a suite whose cells run a load beside a probe (probes, contest, visave, `command
  /// --load`), which then places each role as CellEnvironment's placements say: only such a
  /// suite takes `--controls` other than none. Default: false.
  virtual bool HasRoles() const { return false; }

  /// The suite's parameters for the results file.
  virtual nlohmann::json Parameters() const = 0;

  /// The cells of one configuration, in run order.
  virtual std::vector<SuiteVariant> Variants() const = 0;

  /// With `--lanes` (docs/lanes.md), whether `variant`'s cells may run while other lanes run
  /// theirs, each lane `cpus_per_lane` CPUs. A variant that may not (a composite's probes,
  /// which drop the machine's caches mid-cell) runs alone, after the lanes, on lane 0's disk.
  /// Default true: a suite that takes lanes takes them for every variant (suites that refuse
  /// them are refused before the run, by the table's lane_cpus).
  virtual bool VariantTakesLanes(const SuiteVariant& variant, int cpus_per_lane) const;

  /// Once per run, before the first cell: lays out what every configuration reads (nickbench's
  /// stream files, the source tree), so that all of them see the same layout. `setup` receives
  /// what was laid out, for the results file. Default: nothing to do.
  [[nodiscard]] virtual bool SetUp(const CellEnvironment& env, nlohmann::json* setup,
                                   std::string* err);

  /// Runs one cell and appends its records (JSON objects; the session adds "scheduler",
  /// "identifier", "label" and "repetition"). A false return fails this cell only.
  [[nodiscard]] virtual bool RunCell(const SuiteVariant& variant, const CellEnvironment& env,
                                     std::vector<nlohmann::json>* records, std::string* err) = 0;

  /// Once per run after the last cell, on every exit path: removes what SetUp laid out.
  virtual void TearDown(const CellEnvironment& env);

  /// The results header's line on how caches were handled: the suite's own eviction, with
  /// `global_drop` (what the run did globally, "; all caches dropped before each cell") put
  /// where it reads right.
  virtual std::string CachePolicy(const std::string& global_drop) const = 0;

  /// The summary block of the results file, from the document's records.
  virtual nlohmann::json Summarize(const ResultsDocument& doc) const = 0;
};

/// Lays out a cell's files before its first measurement: runs `streams` (the caller's writes,
/// synced at their end) under `global` as one fio job file in env.work_dir named
/// env.label_prefix + `label`, within `timeout_seconds` (0: no limit), fio's measurements
/// discarded. A failure's err starts with `what` ("laying out the data file: …"). One
/// definition for the suites' SetUp.
[[nodiscard]] bool LayOutWithFio(const CellEnvironment& env, const FioGlobalSpec& global,
                                 std::vector<StreamSpec> streams, const std::string& label,
                                 double timeout_seconds, const std::string& what, std::string* err);

/// The Summarize of a suite whose records aggregate into table rows: the records of `doc`
/// (from_document), aggregated in the document's configuration order, as JSON (to_json); an
/// empty array when the records do not read, since the summary is only derived from them. One
/// definition for the suites that summarise this way.
template <class Record, class Row>
nlohmann::json SummarizeRows(const ResultsDocument& doc,
                             bool (*from_document)(const ResultsDocument&, std::vector<Record>*,
                                                   std::string*),
                             std::vector<Row> (*aggregate)(const std::vector<Record>&,
                                                           const std::vector<std::string>&),
                             nlohmann::json (*to_json)(const std::vector<Row>&)) {
  std::vector<Record> records;
  std::string err;
  if (!from_document(doc, &records, &err)) return nlohmann::json::array();
  return to_json(aggregate(records, IdentifierOrder(doc)));
}

}  // namespace elevbench
