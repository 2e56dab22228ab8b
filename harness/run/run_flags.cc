#include "harness/run/run_flags.h"

#include <map>

#include "harness/machine/machine_spec.h"

namespace elevbench {

std::string RunFlagValueName(const std::string& flag) {
  static const std::map<std::string, std::string> kValueNames = {
      {"--dir", "DIR"},
      {"--disk-set", "KEY=VALUE"},
      {"--disk-trace", "FILE"},
      {"--machine", "SPEC"},
      {"--schedulers", "LIST"},
      {"--controls", "LIST"},
      {"--queue", "LIST"},
      {"--lanes", "N|auto"},
      {"--repetitions", "N|auto"},
      {"--shard", "I/N"},
      {"--kernels", "LIST"},
      {"--kernel-image", "IMAGE"},
      {"--guest-clock", "instructions|wall"}};
  const auto it = kValueNames.find(flag);
  return it == kValueNames.end() ? "" : it->second;
}

const char* SharedRunOptionsNote() {
  return "Every suite also takes the options of `elevbench run` (before or after the suite's "
         "name), listed by `elevbench run --help`: the target (--dir, --scratch, --emulated, "
         "--fs, --machine, --device), the plan (--schedulers, --repetitions, --seed, --timeout, "
         "--trace-requests) and the output (--format, --out, --identifier, --no-verdict, --db). "
         "Sizes: MiB = 2^20 bytes, MB = 10^6 bytes.";
}

const TargetFlagsHelp& RunTargetFlagsHelp() {
  static const TargetFlagsHelp kHelp = {
      .device =
          "Allow switching the scheduler of this existing device (e.g. sdb); for run "
          "replay, the device to replay onto (default: none)",
      .emulated =
          "Run on an emulated rotating disk: PROFILE[:SIZE], e.g. ide-2003:2G (SIZE in "
          "K/M/G = KiB/MiB/GiB; profiles: `disk profiles`; root; default: the suite's)",
      .scratch =
          "Create a scratch loop device of this size and run on it: SIZE with K/M/G "
          "= KiB/MiB/GiB, e.g. 1G (root; default: none)",
      .fs =
          "Filesystem of a scratch/emulated device: ext2, ext4, xfs (default: the "
          "suite's, else ext4)",
  };
  return kHelp;
}

namespace {

// The target and the machine it runs as.
std::vector<RunConfigFlag> TargetFlags() {
  return {
      {"--dir", &RunConfig::directory,
       "Run in this existing directory (default: the suite's target, see `list "
       "suites`; as root a device elevbench makes)"},
      {"--disk-set", &RunConfig::disk_settings,
       "Override an emulated-disk model parameter (key=value, units as in `disk "
       "profiles --json`), repeatable (default: none)"},
      {"--disk-trace", &RunConfig::disk_trace,
       "Write the emulated disk's request trace to this file (default: none)"},
      {"--keep-wbt", &RunConfig::keep_wbt,
       "Emulated disk: keep today's writeback throttling (2003 had none; default off)"},
      {"--machine", &RunConfig::machine,
       "Run as a smaller machine, held to it by cgroups (root): a profile (" +
           MachineProfileNames() +
           ": 1 CPU, 256 MiB, no swap) or ram=SIZE,cpus=N (SIZE in K/M/G = "
           "KiB/MiB/GiB); the suites size their loads by it (default: the suite's, "
           "else the whole machine)"},
      {"--allow-writes", &RunConfig::allow_writes,
       "Let a suite write to the raw --device (run replay of a trace with writes, a "
       "fio job on it): DESTROYS ITS DATA (default off)"},
  };
}

// The plan: configurations, repetitions, where it runs (lanes, shards, kernels), each cell.
std::vector<RunConfigFlag> PlanFlags() {
  return {
      {"--schedulers", &RunConfig::schedulers,
       "'all' or a list: none,mq-deadline,kyber,bfq,bfq:low_latency=0[@code] "
       "(default: the suite's own list where it has one (post-2003); else, as root on a "
       "device elevbench makes (--scratch, --emulated), every scheduler the kernel offers; "
       "else (--dir, --device, or not root) the device's current scheduler only; given "
       "without root: refused)"},
      {"--controls", &RunConfig::controls,
       "I/O controls crossed with --schedulers for a load and a probe (docs/controls.md): none, "
       "ionice:ROLE=CLASS (ROLE load|probe; CLASS idle, be[:N], rt[:N]), throttle:ROLE=10M, "
       "on cgroup v2 (--kernels guests) weight:ROLE=W, iocost[:model=measure,qos=50ms], "
       "iolatency:ROLE=10ms; root; labels DL+idle; a protection report"},
      {"--queue", &RunConfig::queue,
       "Pin queue attributes: read_ahead_kb=128,... (values in the sysfs file's "
       "own unit; default: none pinned; needs root)"},
      {"--repetitions", &RunConfig::repetitions,
       "Repetitions of every cell (1-1000, default 1), or 'auto': repeat until the "
       "95 % interval of every headline metric is within --ci-width"},
      {"--ci-width", &RunConfig::ci_width_pct,
       "With --repetitions auto: allowed half-width of the 95 % interval, "
       "in % of the mean (default 5)",
       std::make_pair(0.1, 100.0), "%"},
      {"--max-repetitions", &RunConfig::max_repetitions,
       "With --repetitions auto: the cap (3-1000, default 10)", std::make_pair(3.0, 1000.0)},
      {"--lanes", &RunConfig::lanes,
       "Run the plan on N emulated disks at once (root, --emulated), each lane on "
       "its own CPUs, or 'auto': as many as the CPUs and the suite allow"},
      {"--shard", &RunConfig::shard,
       "Run only the I-th of N deterministic slices of the plan, I/N (whole repetitions, or "
       "blocks when fewer than N; needs --seed; `elevbench merge` joins the shards' files; "
       "docs/ci.md; default: the whole plan)"},
      {"--kernels", &RunConfig::kernels,
       "Run the whole plan once per kernel, each booted in a QEMU guest (root; "
       "debian:PACKAGE[@LABEL] fetched into the kernel cache, or image:IMAGE[:MODROOT][@LABEL], "
       "your own bzImage and make modules_install's INSTALL_MOD_PATH, copied there; "
       "docs/kernels.md): rows are kernel × configuration"},
      {"--kernel-image", &RunConfig::kernel_images,
       "Your own kernel build as one more kernel after --kernels' (repeatable; implies "
       "--kernels): IMAGE[:MODROOT][@LABEL], as --kernels image:…"},
      {"--guest-clock", &RunConfig::guest_clock,
       "With --kernels under TCG: 'instructions' (default: one vCPU on QEMU's instruction "
       "clock, one instruction a nanosecond, so the emulated disk keeps its calibration) or "
       "'wall' (the host's clock and --machine's vCPUs; the guest's CPU is 11-23x slower)"},
      {"--seed", &RunConfig::seed, "Seed of the interleaving order, 0 or more (default: random)"},
      {"--no-drop-caches", &RunConfig::no_drop_caches,
       "Do not drop all caches before each cell (a suite still evicts its own "
       "files where it says so; default off: caches are dropped)"},
      {"--fresh-fs", &RunConfig::fresh_fs,
       "Make the filesystem again before each cell (mkfs, mount, the suite's files "
       "laid out again), so that no cell inherits the layout earlier cells left "
       "(root, --emulated or --scratch; default off: one filesystem for the run)"},
      {"--timeout", &RunConfig::timeout_seconds,
       "Seconds one fio phase or probe may take before it is stopped (DNF; "
       "default 0: the suite's own)",
       std::make_pair(0.0, 7.0 * 24 * 3600), "seconds"},
      {"--trace-requests", &RunConfig::trace_requests,
       "Trace every request through the scheduler (root; a device elevbench makes or "
       "the one named with --device): off (default), summary (block events in a "
       "private tracefs instance), full (also the scheduler's own log through the "
       "global blk tracer)"},
  };
}

}  // namespace

const std::vector<RunConfigFlag>& RunConfigFlags() {
  static const std::vector<RunConfigFlag> kFlags = [] {
    std::vector<RunConfigFlag> flags = TargetFlags();
    const std::vector<RunConfigFlag> plan = PlanFlags();
    flags.insert(flags.end(), plan.begin(), plan.end());
    return flags;
  }();
  return kFlags;
}

}  // namespace elevbench
