#pragma once
// What `elevbench run SUITE` is asked to do, as plain fields: the suite (its object and the few
// facts of its row in the table of suites that the run reads), the target, the plan and the
// output. The CLI fills it from its flags (app/suites_run.h's RunOptions holds it beside
// what only the CLI reads); RunJob (run_job.h) checks it and runs it. It names no table
// of suites, so the library below the CLI never sees one (docs/architecture.md, "Layers").

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/trace_mode.h"
#include "harness/run/suite.h"
#include "harness/run/target_spec.h"
#include "harness/stats/measurement.h"

namespace elevbench {

/// The run's config, checked by CheckRunConfig (run_checks.h) before the machine is touched.
/// Text fields hold the command line's words as given ("1G", "all", "auto"): the checks parse
/// them, so that every error names the flag it came from.
struct RunConfig {
  // The suite: its object (options parsed) and the facts of its row the run reads.
  Suite* suite = nullptr;  ///< the suite chosen on the command line, options parsed
  std::string suite_name;  ///< "tiobench": the results' "suite", the errors' name
  std::vector<std::string>
      formats;  ///< its text formats, the default first (json is every suite's)
  /// Its measurer (the suite's and the request tracer's measurements), which `--repetitions
  /// auto` needs to see its headline rows; null when it has none.
  SuiteMeasurer measure = nullptr;
  int lane_cpus = 0;          ///< the CPUs one lane of the suite needs; 0: it refuses lanes...
  std::string lanes_refused;  ///< ...and then why, in the refusal's words

  // The target.
  /// --device, --emulated, --scratch and --fs, which `capture` shares (target_spec.h); run's
  /// --device is consent to switch the scheduler of a device we did not make.
  TargetSpec target;
  std::string directory;                   ///< "--dir DIR"
  std::vector<std::string> disk_settings;  ///< "--disk-set key=value" model overrides
  std::string disk_trace;                  ///< "--disk-trace FILE"
  /// target.emulated is the suite's default (the command line gave no target): without root
  /// the run goes on in a directory with a notice, where an --emulated or --scratch the user
  /// gave is refused (#45).
  bool emulated_by_default = false;
  /// The schedulers are a suite's default (ApplySuiteRunDefaults), not the user's --schedulers:
  /// without root they fall back to the current scheduler with DecideRoot's notice, where a
  /// --schedulers the user gave is refused (CheckRunConfig).
  bool schedulers_by_default = false;
  bool keep_wbt = false;       ///< "--keep-wbt": today's writeback throttling on the emulated disk
  std::string machine;         ///< "--machine SPEC": p4-2003 or ram=SIZE,cpus=N (cgroups)
  bool machine_given = false;  ///< --machine was given (so an empty SPEC is an error)
  bool allow_writes = false;   ///< "--allow-writes": a suite may write to the raw --device

  // The plan.
  std::string schedulers;  ///< "all" or a list; empty = current scheduler only
  /// "--controls none,ionice:load=idle,throttle:load=10M": I/O controls crossed with the
  /// schedulers (docs/controls.md); empty = none only.
  std::string controls;
  std::string queue;              ///< "--queue attr=value,..."
  std::string repetitions = "1";  ///< "--repetitions N" (1..1000) or "auto"
  std::string lanes;  ///< "--lanes N|auto": emulated disks at once (docs/lanes.md); empty = serial
  /// "--shard I/N": run only the I-th of N deterministic slices of the plan (docs/ci.md); empty
  /// = the whole plan. `elevbench merge` joins the shards' files.
  std::string shard;
  double ci_width_pct = 5;        ///< "--ci-width": auto's target 95 % half-width, % of the mean
  uint32_t max_repetitions = 10;  ///< "--max-repetitions": auto's cap
  uint64_t seed = 0;
  bool seed_given = false;
  bool no_drop_caches = false;
  bool fresh_fs = false;       ///< --fresh-fs: the filesystem made again before each cell
  double timeout_seconds = 0;  ///< "--timeout": one fio phase or probe; 0 = the suite's default
  /// "--trace-requests off|summary|full", parsed by CLI11 into the enum; off by default: tracing
  /// can tip bfq's close calls (docs/performance.md, "Cost of the request tracer").
  TraceMode trace_requests = TraceMode::kOff;

  // The kernels (docs/kernels.md).
  /// "--kernels debian:PKG[@LABEL],…": the whole plan once per kernel, each in a guest; empty:
  /// on this host's kernel.
  std::string kernels;
  /// "--guest-clock instructions|wall": the clock of a TCG guest (docs/kernels.md, "What TCG
  /// costs"). instructions (the default, empty here): QEMU's -icount shift=0, one vCPU, one
  /// nanosecond of guest time an instruction, so the guest's own slow translated path costs
  /// what a 1 GHz CPU's would and the emulated disk keeps its calibration; wall: the host's
  /// clock, --machine's vCPUs on several host threads, each request 15-23x the host's CPU.
  std::string guest_clock;
  /// "--kernel-image IMAGE[:MODROOT][@LABEL]", repeatable: a user's build, a kernel after
  /// --kernels' words (as `--kernels image:…`, but a path may hold a ','); implies --kernels.
  std::vector<std::string> kernel_images;
  /// The schedulers every kernel under test offers (read from their configs), which the checks
  /// take instead of this host's; empty: this host's (OfferedSchedulers).
  std::vector<std::string> offered_schedulers;
  /// "--label-prefix ROW" (hidden): a guest's run names its configurations `ROW-<code>` and
  /// `ROW-<LABEL>` (NameKernelConfigurations), so the kernels' rows stay apart when merged.
  std::string label_prefix;
  /// The command line's words after the program's name, which a guest runs again.
  std::vector<std::string> command_args;

  // The output.
  std::string identifier;
  std::string format;        ///< empty = the suite's default text format; checked against `formats`
  std::string out;           ///< the results file; empty = DefaultResultsPath
  std::string command_line;  ///< recorded in the results' context
};

}  // namespace elevbench
