#pragma once
// Step 1 of a run (docs/architecture.md, "Data flow"): every mistake a user can make, found
// before the machine is touched: the format, --out's folder, the target flags, --disk-set,
// --dir, --machine (spec, bounds, root, cgroup layout: read-only), the suite's own Prepare, then
// --schedulers/--queue, the suite's CheckTarget, the device's size, --trace-requests and --lanes,
// then, without root, an --emulated or --scratch the user gave (no device can be made).
// Read-only: it makes nothing, so a refused command leaves the machine as it was.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/system_info.h"
#include "harness/device/scheduler_config.h"
#include "harness/machine/io_controls.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/machine/machine_spec.h"
#include "harness/run/run_config.h"
#include "harness/run/run_session.h"
#include "harness/run/shard.h"
#include "harness/run/target.h"

namespace elevbench {

/// Everything the config asked for, checked and parsed, before the machine is touched.
struct CheckedRun {
  std::vector<SchedulerConfig> configs;  ///< --schedulers' list; empty for "all" or none
  bool all_schedulers = false;           ///< --schedulers all
  std::vector<std::pair<std::string, std::string>> queue_attrs;  ///< --queue
  TargetOptions target;                                          ///< the target to build
  std::string out_path;  ///< the results file (--out, else DefaultResultsPath)
  std::string fio_version;
  uint32_t repetitions = 1;
  AdaptiveRepetitions adaptive;
  MachineSpec machine_spec;    ///< --machine; limits() false without it
  CgroupLayout cgroup_layout;  ///< where its cgroups go (with --machine)
  MachineInfo suite_machine;   ///< what the suites see: the host, or the --machine limits
  /// --controls, parsed (docs/controls.md); {none} without it.
  std::vector<IoControl> controls;
  IoCgroupLayout io_layout;  ///< where the roles' cgroups go (with a throttle)
  int lanes = 1;             ///< --lanes, resolved (1: serial)
  ShardSpec shard;           ///< --shard I/N (docs/ci.md); count 0: the whole plan
  int cpus_per_lane = 1;
  /// What a suite's default --schedulers lost on this kernel ("post-2003's default list: this
  /// kernel has no bfq: AS, CF left out"), for the run to say; empty when nothing was.
  std::string schedulers_note;
  /// The 2003 box the run emulates because the suite's files, sized by this host's RAM, do not
  /// fit the emulated disk ("contest's files follow the machine's RAM: … running as the 2003
  /// box (--machine p4-2003)"); empty when --machine was given or the suite fits.
  std::string machine_note;
};

/// --controls against what the host offers, given (CheckRunConfig reads them from the live
/// cgroup tree): `layout` (DetectIoCgroupLayout: v1 blkio, v2 io, or neither) and whether the
/// root offers io.cost. The words first, each value checked on any host, then a suite with roles,
/// no --lanes, root, and what the layout can give (with --kernels the guests' cgroup v2 instead:
/// KernelsJob reads each kernel's config). Fills checked->controls and io_layout; one line in
/// err. Makes nothing.
[[nodiscard]] bool CheckControlsOnHost(const RunConfig& config, const IoCgroupLayout& layout,
                                       bool io_cost_offered, CheckedRun* checked, std::string* err);

/// With --kernels, whether a guest reaches every host file the run names: the suite's
/// (Suite::HostPaths; a composite's parts' once Prepare made them) under none of the guest's own
/// /tmp, /var/tmp and /run, and none for it to write (--disk-trace, contest's --other-dir).
/// CheckRunConfig makes it before and after Prepare, KernelsJob before root and the kernels'
/// fetch. One line naming the flag, the file and why; true without --kernels. Makes nothing.
[[nodiscard]] bool CheckHostPathsForGuests(const RunConfig& config, std::string* err);

/// The checks of step 1 on `config`, for a run on `host` (ReadMachineInfo): the options in the
/// order docs/architecture.md gives, then the suite's Prepare with the machine the run emulates
/// (--machine's RAM and CPUs, else the host's), --schedulers and --queue (after the suite's own
/// options, so that a bad one of those is named first), the target sized to the suite's files, the
/// suite's CheckTarget, the results path, --trace-requests, --lanes and last, without root, an
/// --emulated or --scratch the command line gave (a suite's default --emulated is not refused:
/// the run falls back to a directory, RunJob::DecideRoot). Fills *checked; false
/// with err (one line, naming the flag) for a usage error. Makes nothing.
[[nodiscard]] bool CheckRunConfig(const RunConfig& config, const MachineInfo& host,
                                  CheckedRun* checked, std::string* err);

}  // namespace elevbench
