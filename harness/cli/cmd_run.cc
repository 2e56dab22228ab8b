// `elevbench run SUITE`: the ten steps of docs/architecture.md, one function each. It checks
// the options, prepares the target (directory, scratch device or emulated disk), journals and
// applies device settings, runs the session of the chosen suite, prints its tables, records the
// run, and restores everything on every exit path. It knows no suite; the decisions that need
// no device are in harness/run/ (run_policy.h, run_labels.h).

#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/cli/run_journal.h"
#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/device_control.h"
#include "harness/device/restore_journal.h"
#include "harness/device/scratch_device.h"
#include "harness/disk/emulated_stack.h"
#include "harness/fio/fio_runner.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/run/lanes.h"
#include "harness/run/run_labels.h"
#include "harness/run/run_lanes.h"
#include "harness/run/run_policy.h"
#include "harness/run/run_session.h"
#include "harness/run/target.h"
#include "harness/run/target_watch.h"
#include "harness/trace/request_tracer.h"
#include "harness/trace/tracefs.h"
#include "scenarios/suites.h"

namespace elevbench {
namespace {

// A step's way of saying "go on to the next one"; any other value is the exit code.
constexpr int kContinue = -1;

// Everything the command line asked for, checked before the machine is touched.
struct CheckedRun {
  std::vector<SchedulerConfig> configs;
  bool all_schedulers = false;
  std::vector<std::pair<std::string, std::string>> queue_attrs;
  TargetOptions target;
  std::string out_path;
  std::string fio_version;
  uint32_t repetitions = 1;
  AdaptiveRepetitions adaptive;
  MachineSpec machine_spec;    ///< --machine; limits() false without it
  CgroupLayout cgroup_layout;  ///< where its cgroups go (with --machine)
  MachineInfo suite_machine;   ///< what the suites see: the host, or the --machine limits
  int lanes = 1;               ///< --lanes, resolved (1: serial)
  int cpus_per_lane = 1;
};

// What the steps share, in the order it is made. Members are destroyed in reverse: the machine's
// cgroups, the device control and the target go before the guard restores the journal.
struct RunState {
  explicit RunState(const RunOptions& options) : o(options), progress(Progress::ForStderr()) {}
  const RunOptions& o;
  MachineInfo machine;
  CheckedRun checked;
  std::string work_dir;
  bool root = false;
  bool want_switching = false;
  TargetOptions target_options;
  Progress progress;
  RestoreJournal journal;
  JournalGuard guard{&journal};
  RunTarget target;
  Sysfs sysfs;
  std::unique_ptr<DeviceControl> control;
  std::vector<SchedulerConfig> configs;
  std::vector<std::pair<std::string, std::string>> pinned;
  bool switching = false;
  MachineCgroups cgroups;
  MachineCgroups disk_cgroups;  // --machine disk-cpus=shared: the daemon on the machine's CPUs
  TraceMode trace_mode = TraceMode::kOff;
  std::string traced_disk;
  RequestTracer tracer;  // destroyed before the journal is restored: it forgets its entries
  RunLanes lanes;        // --lanes: after the target and control it points into
  nlohmann::json emulated_machine;
  SessionConfig session;
  ResultsDocument doc;
};

bool WritableDirectory(const std::string& dir) {
  struct stat st {};
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(dir.c_str(), W_OK) == 0;
}

// --machine: the spec, its bounds on this host, root, and cgroups that can hold it; read-only.
bool CheckMachineOption(const RunOptions& o, const MachineInfo& host, CheckedRun* c,
                        std::string* err) {
  c->suite_machine = host;
  if (!o.machine_given && o.machine.empty()) return true;
  if (!ParseMachineSpec(o.machine, &c->machine_spec, err) ||
      !CheckMachineSpec(c->machine_spec, host, err)) {
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "--machine needs root: it makes memory and cpuset cgroups";
    return false;
  }
  if (c->machine_spec.disk_shares_cpus && (o.emulated.empty() || c->machine_spec.cpus == 0)) {
    *err = "--machine disk-cpus=shared needs cpus=N and an emulated disk (--emulated)";
    return false;
  }
  std::ifstream in("/proc/self/cgroup");
  const std::string self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!DetectCgroupLayout(Sysfs{}, self, &c->cgroup_layout, err)) return false;
  c->suite_machine = EmulatedMachineInfo(host, c->machine_spec);
  return true;
}

// --format, and --schedulers/--queue syntax against what this kernel offers.
bool CheckFormatAndSchedulers(const RunOptions& o, CheckedRun* c, std::string* err) {
  if (!o.format.empty() && o.format != "json" &&
      std::find(o.entry->formats.begin(), o.entry->formats.end(), o.format) ==
          o.entry->formats.end()) {
    *err = "unknown --format '" + o.format + "' (" + FormatChoices(o.entry->name) + ")";
    return false;
  }
  c->all_schedulers = o.schedulers == "all";
  if ((!o.schedulers.empty() && !c->all_schedulers &&
       !ParseSchedulerList(o.schedulers, &c->configs, err)) ||
      !CheckSchedulersExist(c->configs, OfferedSchedulers(), err)) {
    *err = "--schedulers: " + *err;
    return false;
  }
  if (!o.queue.empty() && !ParseQueueAttrs(o.queue, &c->queue_attrs, err)) {
    *err = "--queue: " + *err;
    return false;
  }
  return true;
}

// --emulated PROFILE[:SIZE] with its --disk-set overrides, checked against the profile.
bool CheckEmulatedTarget(const RunOptions& o, TargetOptions* t, std::string* err) {
  t->emulated = !o.emulated.empty();
  if (!t->emulated) return true;
  EmulatedOptions& emu = t->emulated_options;
  if (!ParseEmulatedSpec(o.emulated, &emu, err)) return false;
  emu.overrides = o.disk_settings;
  emu.fs = o.fs;
  emu.trace_path = o.disk_trace;
  emu.keep_wbt = o.keep_wbt;
  emu.self_exe = SelfExecutablePath();
  DiskProfile probe;
  if (!LookupDiskProfile(emu.profile_name, &probe, err)) return false;
  for (const std::string& s : emu.overrides) {
    if (!ApplyDiskOverride(s, &probe, err)) {
      *err = "--disk-set: " + *err;
      return false;
    }
  }
  return true;
}

// A suite on a raw device (replay): no --dir, no filesystem on the device elevbench makes, or
// the --device the user names alone as the target.
bool CheckRawTarget(const RunOptions& o, TargetOptions* t, std::string* err) {
  if (!o.directory.empty()) {
    *err = std::string("run ") + o.entry->name + " replays onto a block device, not a directory: " +
           "--emulated, --scratch or --device NAME";
    return false;
  }
  t->fs = kRawDeviceFs;
  t->emulated_options.fs = kRawDeviceFs;
  if (o.device.empty() || !o.scratch.empty() || !o.emulated.empty()) return true;
  if (!std::filesystem::exists("/sys/block/" + o.device + "/dev")) {
    *err = "--device " + o.device + ": not a whole disk (see `elevbench devices`)";
    return false;
  }
  t->raw_device = o.device;
  return true;
}

// --fresh-fs: a filesystem elevbench made, which only root can make again.
bool CheckFreshFs(const RunOptions& o, std::string* err) {
  if (!o.fresh_fs) return true;
  if (o.suite->WantsRawDevice()) {
    return Fail(err, std::string("--fresh-fs: run ") + o.entry->name +
                         " works on a raw device, which has no filesystem to make again");
  }
  if (o.scratch.empty() && o.emulated.empty()) {
    return Fail(err, "--fresh-fs needs a device elevbench makes (--emulated or --scratch)");
  }
  if (!RunningAsRoot()) return Fail(err, "--fresh-fs needs root (mkfs and mount)");
  return true;
}

// --dir, --scratch, --emulated (one of them) and --fs.
bool CheckTarget(const RunOptions& o, TargetOptions* t, std::string* err) {
  if (!o.directory.empty() + !o.scratch.empty() + !o.emulated.empty() > 1) {
    *err = "--dir, --scratch and --emulated are alternatives: give one";
    return false;
  }
  if (!SupportedScratchFs(o.fs)) {
    *err = "unsupported --fs '" + o.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  t->directory = o.directory;
  t->fs = o.fs;
  if (!o.scratch.empty() && !ParseSizeBytes(o.scratch, &t->scratch_bytes, err)) {
    *err = "--scratch: " + *err;
    return false;
  }
  if (!CheckEmulatedTarget(o, t, err) || !CheckFreshFs(o, err)) return false;
  if (o.suite->WantsRawDevice()) return CheckRawTarget(o, t, err);
  if (!o.device.empty() && (o.device.find('/') != std::string::npos ||
                            !std::filesystem::exists("/sys/block/" + o.device + "/dev"))) {
    *err = "--device " + o.device + ": no such disk (a name such as sdb; see `elevbench devices`)";
    return false;
  }
  if (!o.directory.empty() && !WritableDirectory(o.directory)) {
    *err = "--dir " + o.directory + " is not a writable directory";
    return false;
  }
  return true;
}

// The image fits the disk it emulates: ide-2003 is a 40 GB disk, so ide-2003:64G is refused.
bool CheckEmulatedCapacity(const EmulatedOptions& emu, std::string* err) {
  DiskProfile p;
  if (!LookupDiskProfile(emu.profile_name, &p, err)) return false;
  for (const std::string& s : emu.overrides) {
    if (!ApplyDiskOverride(s, &p, err)) return false;
  }
  if (emu.size_bytes <= p.capacity_bytes) return true;
  char text[160];
  std::snprintf(text, sizeof text, "%.4g GB is larger than the %.4g GB disk it emulates",
                static_cast<double>(emu.size_bytes) / 1e9,
                static_cast<double>(p.capacity_bytes) / 1e9);
  *err = "--emulated " + emu.profile_name + ": " + text +
         "; give a smaller PROFILE:SIZE, or --disk-set capacity_bytes=N";
  return false;
}

// What the suite may check of the target before it is made (Suite::CheckTarget).
TargetFacts FactsOf(const RunOptions& o, const TargetOptions& t) {
  TargetFacts f;
  f.directory = t.directory;
  f.user_device = o.device;
  f.raw_user_device = !t.raw_device.empty();
  f.allow_writes = o.allow_writes;
  if (f.raw_user_device) {
    std::string size, ignored;
    if (Sysfs().Read("/sys/block/" + t.raw_device + "/size", &size, &ignored)) {
      f.raw_bytes = std::strtoull(size.c_str(), nullptr, 10) * 512;
    }
  } else if (t.fs == kRawDeviceFs) {
    f.raw_bytes = t.emulated ? t.emulated_options.size_bytes : t.scratch_bytes;
  }
  return f;
}

// --trace-requests summary|full traces a device elevbench makes, or the one named with --device,
// and needs root.
bool CheckTraceOption(const RunOptions& o, const TargetOptions& t, std::string* err) {
  if (o.trace_requests == TraceMode::kOff) return true;
  const std::string flag = std::string("--trace-requests ") + TraceModeName(o.trace_requests);
  if (!RunningAsRoot()) {
    *err = flag + " needs root (tracefs)";
    return false;
  }
  const bool own_device = t.emulated || t.scratch_bytes > 0;
  if (!own_device && o.device.empty()) {
    *err = flag +
           " traces a device elevbench makes (--emulated, --scratch) or the one named with "
           "--device";
    return false;
  }
  return true;
}

// --lanes: what it needs (root, an emulated disk, a fixed plan, one tracer each) and how many
// the suite, the CPUs and the RAM allow; read-only.
// --lanes, its words and whether the suite takes lanes: checked first, before any sizing.
bool CheckLanesWords(const RunOptions& o, std::string* err) {
  if (o.lanes.empty()) return true;
  LaneBounds words;
  words.suite = o.entry->name;
  words.online_cpus = 1 << 20;  // no bound yet: only the words
  int lanes = 1;
  if (!ParseLanesOption(o.lanes, words, &lanes, err)) return false;
  if (o.lanes != "1" && o.lanes != "auto" && o.entry->lane_cpus == 0) {
    return Fail(err, "--lanes " + o.lanes + ": " + words.suite +
                         " does not run in lanes: " + o.entry->lanes_refused);
  }
  return true;
}

bool CheckLanesOption(const RunOptions& o, const MachineInfo& host, CheckedRun* c,
                      std::string* err) {
  if (o.lanes.empty()) return true;
  LaneBounds b;
  b.suite = o.entry->name;
  if (o.entry->lane_cpus == 0) b.refusal = o.entry->lanes_refused;
  const char* why =
      !c->target.emulated   ? "needs --emulated (each lane is an emulated disk of its own)"
      : !RunningAsRoot()    ? "needs root (a disk, cpuset and writeback limit per lane)"
      : c->adaptive.enabled ? "needs a fixed --repetitions (auto decides between rounds)"
      : o.trace_requests == TraceMode::kFull ? "cannot trace in full (one global blk tracer)"
      : !o.disk_trace.empty()                ? "cannot write one --disk-trace for several disks"
                                             : nullptr;
  if (why != nullptr) return Fail(err, "--lanes " + o.lanes + " " + why);
  cpu_set_t set;
  b.online_cpus = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : host.cpus;
  b.cpus_per_lane = std::max(o.entry->lane_cpus, c->machine_spec.cpus);
  b.disk_bytes = c->target.emulated_options.size_bytes;
  b.memory_bytes = host.memory_bytes;
  if (!ParseLanesOption(o.lanes, b, &c->lanes, err)) return false;
  c->cpus_per_lane = b.cpus_per_lane;
  // Without --machine cpus=N a lane is an equal share of the CPUs, ⌊CPUs / lanes⌋: the machine
  // the header names as the serial run's equivalent (docs/lanes.md).
  if (c->lanes > 1 && c->machine_spec.cpus == 0) {
    c->cpus_per_lane = std::max(c->cpus_per_lane, b.online_cpus / c->lanes);
  }
  if (c->lanes > 1 && !c->machine_spec.limits()) {
    std::ifstream in("/proc/self/cgroup");
    const std::string self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!DetectCgroupLayout(Sysfs{}, self, &c->cgroup_layout, err)) return false;
  }
  return true;
}

// Step 1, the checks: every mistake a user can make, found before the machine is touched.
// False with err for a usage error (exit 2).
bool CheckRunOptions(const RunOptions& o, const MachineInfo& host, CheckedRun* c,
                     std::string* err) {
  if (!CheckLanesWords(o, err) ||
      !ParseRepetitionsOption(o.repetitions, o.max_repetitions, o.ci_width_pct, &c->repetitions,
                              &c->adaptive, err) ||
      !CheckFormatAndSchedulers(o, c, err) || !CheckTarget(o, &c->target, err) ||
      !CheckMachineOption(o, host, c, err)) {
    return false;
  }
  // Under --machine the suites size their loads by the emulated RAM and CPUs.
  if (!o.suite->Prepare(c->suite_machine, err)) return false;
  TargetOptions& t = c->target;
  const bool default_scratch = RunningAsRoot() && o.directory.empty() && t.scratch_bytes == 0 &&
                               !t.emulated && t.raw_device.empty();
  if (!SizeTargetForSuite(o.entry->name, o.suite->BytesNeeded(),
                          o.emulated.find(':') != std::string::npos, default_scratch, &t, err) ||
      (t.emulated && !CheckEmulatedCapacity(t.emulated_options, err)) ||
      !o.suite->CheckTarget(FactsOf(o, t), err)) {
    return false;
  }
  c->out_path = o.out.empty() ? DefaultResultsPath(o.entry->name, host.hostname) : o.out;
  return CheckTraceOption(o, t, err) && CheckLanesOption(o, host, c, err);
}

// 1. Check everything, find fio, and make the folder its job files are kept in.
int CheckStep(RunState* s) {
  std::string err;
  if (s->o.entry == nullptr || s->o.suite == nullptr) {
    PrintError("no suite given (see --help)");
    return kExitUsage;
  }
  s->machine = ReadMachineInfo();
  if (!CheckRunOptions(s->o, s->machine, &s->checked, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  if (!FioVersion(&s->checked.fio_version, &err)) {
    PrintError("fio is required: " + err);
    return kExitFailure;
  }
  if (s->o.trace_requests == TraceMode::kFull && RunningAsRoot() && !GlobalTracerFree(&err)) {
    PrintError(err);  // before anything is made: the global tracer is someone else's
    return kExitUsage;
  }
  // fio's job files and raw json+ outputs are kept beside the results for audit.
  s->work_dir = s->checked.out_path + ".fio";
  std::error_code ec;
  std::filesystem::create_directories(s->work_dir, ec);
  if (ec) {
    PrintError("cannot write results next to " + s->checked.out_path + ": " + ec.message());
    return kExitUsage;
  }
  return kContinue;
}

// 2. Without root: no switching, no device of our own, no cache drop; say so.
void RootStep(RunState* s) {
  s->root = RunningAsRoot();
  s->want_switching = !s->o.schedulers.empty() || !s->checked.queue_attrs.empty();
  s->target_options = s->checked.target;
  if (s->root) return;
  const bool wanted_device = s->target_options.scratch_bytes > 0 || s->target_options.emulated;
  s->progress.Note(s->want_switching || wanted_device
                       ? "elevbench: not root: running on the current scheduler only (no "
                         "switching, no scratch or emulated device, no cache drop)"
                       : "elevbench: not root: caches are not dropped between cells (a suite "
                         "still evicts its own files)");
  s->want_switching = s->target_options.emulated = false;
  s->target_options.scratch_bytes = 0;
}

// 3 (root). Undo what an earlier run left, then take the journal's lock: before any change.
int JournalStep(RunState* s) {
  InstallInterruptHandlers();
  if (!s->root) return kContinue;
  return OpenCommandJournal(&s->journal, &s->progress,
                            "elevbench run (pid " + std::to_string(getpid()) + ")");
}

// 4. The target: --emulated, --scratch, --dir, or a temporary directory.
int TargetStep(RunState* s) {
  std::string err;
  if (!s->target.Create(s->target_options, &s->journal, &s->progress, &err) ||
      (s->checked.lanes > 1 &&
       !s->lanes.CreateDisks(s->checked.lanes, s->o.lanes, s->target_options.emulated_options,
                             s->target.stack(), &s->journal, &s->progress, &err))) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  return kContinue;
}

// 5a. Only devices we made, or the one the user named with --device, are switched.
int AuthorizeSwitching(const RunState& s) {
  if (!s.want_switching || s.target.created_device()) return kContinue;
  const std::vector<std::string>& disks = s.target.disks();
  if (disks.empty()) {
    PrintError("cannot find the block device under " + s.target.directory() +
               " to switch its scheduler");
    return kExitUsage;
  }
  if (s.o.device.empty() || std::find(disks.begin(), disks.end(), s.o.device) == disks.end()) {
    PrintError("refusing to change the queue of " + disks.front() + " (it holds " +
               s.target.directory() + "); name it with --device " + disks.front() +
               " to allow this");
    return kExitUsage;
  }
  return kContinue;
}

// 5. Device control: which configurations, the pinned queue, the emulated disk's vm settings.
int DeviceStep(RunState* s) {
  s->control = std::make_unique<DeviceControl>(s->sysfs, &s->journal, s->target.disks());
  if (const int code = AuthorizeSwitching(*s); code != kContinue) return code;
  s->configs = s->checked.configs;
  if (s->target.emulated()) s->pinned = EmulatedQueueAttrs(s->target.stack());
  for (const auto& a : s->checked.queue_attrs) s->pinned.push_back(a);
  s->switching = s->root && (s->want_switching || s->target.created_device());
  std::string err;
  if (s->switching) {
    // A device elevbench made exists for the comparison: without --schedulers, compare them all.
    if (s->checked.all_schedulers || s->configs.empty()) {
      std::vector<std::string> available;
      if (!s->control->AvailableSchedulers(&available, &err)) {
        PrintError(err);
        return kExitFailure;
      }
      s->configs = ExpandAll(available);
    }
    if (!s->pinned.empty() && !s->control->PinQueueAttrs(s->pinned, &err)) {
      PrintError("--queue: " + err);
      return kExitFailure;
    }
  }
  if (s->checked.lanes > 1) {  // each lane's disk its own writeback limit
    if (!s->lanes.SetUpDevices(s->sysfs, &s->journal, s->control.get(), s->pinned, &err)) {
      PrintError(err);
      return kExitFailure;
    }
  } else if (s->target.emulated() &&
             !ApplyVmSettings(s->sysfs, &s->journal, EmulatedVmSettings(), &err)) {
    PrintError("vm writeback settings: " + err);
    return kExitFailure;
  }
  return kContinue;
}

// The context's machine block when every lane is the --machine.
nlohmann::json LaneMachineJson(const CheckedRun& c) {
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return {{"profile", c.machine_spec.profile},
          {"spec", c.machine_spec.text},
          {"memory_bytes", c.machine_spec.memory_bytes / page * page},
          {"cpus", c.cpus_per_lane},
          {"swap_bytes", 0},
          {"cgroup_version", c.cgroup_layout.version},
          {"per_lane", true}};
}

// --machine disk-cpus=shared: the emulated disk's daemon into a cpuset of the machine's CPUs, as
// a lane's (docs/lanes.md), so that a serial run measures what one lane of a box without a CPU
// per disk does.
bool ShareMachineCpusWithDisk(RunState* s, std::string* err) {
  MachineSpec disk;
  disk.cpus = s->checked.machine_spec.cpus;
  disk.cpu_list = s->cgroups.cpuset_cpus();
  if (!s->disk_cgroups.Create(disk, s->checked.cgroup_layout,
                              "elevbench-machine-" + std::to_string(getpid()) + "-disk",
                              &s->journal, err) ||
      !s->disk_cgroups.Enter(s->target.stack().daemon_pid, err)) {
    return false;
  }
  s->emulated_machine["disk_cpus"] = "shared";
  return true;
}

// 5b. --machine: its cgroups, made after the target, so the emulated disk's daemon (started
// above) stays outside them: it is the disk, not the machine.
int MachineStep(RunState* s) {
  const CheckedRun& c = s->checked;
  std::string err;
  if (c.lanes > 1) {  // the lanes' cgroups instead of the machine's (docs/lanes.md)
    if (!s->lanes.CreateCgroups(c.machine_spec, c.cgroup_layout, c.cpus_per_lane, &s->journal,
                                &err)) {
      PrintError(err);
      return kExitFailure;
    }
    if (c.machine_spec.limits()) s->emulated_machine = LaneMachineJson(c);
    return kContinue;
  }
  if (!c.machine_spec.limits()) return kContinue;
  if (!s->cgroups.Create(c.machine_spec, c.cgroup_layout,
                         "elevbench-machine-" + std::to_string(getpid()), &s->journal, &err)) {
    PrintError("--machine: " + err);
    return kExitFailure;
  }
  s->emulated_machine = s->cgroups.Describe(c.machine_spec);
  if (c.machine_spec.disk_shares_cpus && !ShareMachineCpusWithDisk(s, &err)) {
    PrintError("--machine disk-cpus=shared: " + err);
    return kExitFailure;
  }
  std::string where;
  for (const std::string& p : s->cgroups.paths()) where += (where.empty() ? "" : ", ") + p;
  s->progress.Note(
      "elevbench: machine " + c.suite_machine.emulated_profile + ": " +
      DescribeMachineLimits(c.machine_spec.cpus,
                            s->emulated_machine.value("memory_bytes", uint64_t{0})) +
      (s->cgroups.cpuset_cpus().empty() ? "" : " (CPU " + s->cgroups.cpuset_cpus() + ")") +
      (c.machine_spec.memory_bytes > 0 ? ", no swap" : "") + "; cgroup v" +
      std::to_string(c.cgroup_layout.version) + ": " + where);
  return kContinue;
}

// 5c. The request tracer (--trace-requests summary|full): the disk is the one we made or the one
// named with --device.
int TraceStep(RunState* s) {
  const TraceMode mode = s->o.trace_requests;
  const std::vector<std::string>& disks = s->target.disks();
  if (mode == TraceMode::kOff || disks.empty()) return kContinue;
  std::string lane_err;
  if (s->checked.lanes > 1) {  // one tracer per lane's disk
    if (!s->lanes.OpenTracers(mode, s->work_dir, &s->journal, &lane_err)) {
      PrintError(lane_err);
      return kExitFailure;
    }
    s->trace_mode = mode;
    s->traced_disk = "every lane's";
    return kContinue;
  }
  const std::string disk = s->target.created_device() ? disks.front() : s->o.device;
  RequestTracerOptions options;
  options.mode = mode;
  options.disk = disk;
  options.work_dir = s->work_dir;
  std::string err;
  if (!ReadDiskNumbers(s->sysfs, disk, &options.major, &options.minor, &err)) {
    PrintError("--trace-requests: cannot read the device number of " + disk + ": " + err);
    return kExitFailure;
  }
  if (!s->tracer.Open(&s->journal, options, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  s->trace_mode = mode;
  s->traced_disk = disk;
  s->progress.Note(std::string("elevbench: tracing the requests of ") + disk + " (" +
                   TraceModeName(mode) + ")");
  return kContinue;
}

// 6. Identifiers and labels per configuration, the session's settings, the results context.
void DescribeStep(RunState* s) {
  const RunOptions& o = s->o;
  SessionConfig& sc = s->session;
  const std::vector<SchedulerConfig> named =
      s->switching ? s->configs : std::vector<SchedulerConfig>{};
  const RunNames names = NameConfigurations(named, s->machine.kernel, o.identifier,
                                            CurrentSchedulerLabel(s->control->Snapshot()));
  sc.identifiers = names.identifiers;
  sc.labels = names.labels;
  sc.configs = named;
  sc.seed = o.seed_given ? o.seed : std::random_device{}();
  sc.repetitions = s->checked.repetitions;
  sc.adaptive = s->checked.adaptive;
  sc.root = s->root;
  sc.drop_caches = s->root && !o.no_drop_caches;
  sc.fresh_fs = o.fresh_fs;
  sc.out_path = s->checked.out_path;
  sc.work_dir = s->work_dir;
  sc.timeout_seconds = o.timeout_seconds;
  sc.measure = MeasurerOf(o.entry->name);
  sc.stop_requested = InterruptRequested;
  sc.stop_reason = [] { return "interrupted by signal " + std::to_string(InterruptSignal()); };
  s->doc.suite = o.entry->name;
  s->doc.context = RunContextJson(
      {o.command_line, s->machine, s->emulated_machine, s->checked.fio_version, &s->target,
       s->switching, s->pinned, sc.seed, s->root, sc.drop_caches, o.timeout_seconds,
       o.suite->CachePolicy(s->checked.lanes > 1 && sc.drop_caches
                                ? "; each lane's filesystem remounted before each cell (its "
                                  "page cache, dentries and inodes dropped)"
                                : GlobalCacheDropNote(s->root, sc.drop_caches))});
  if (sc.fresh_fs) s->doc.context["fresh_fs"] = true;  // each cell on a filesystem made for it
  s->doc.context["repetitions"] = sc.repetitions;      // auto: the cap until rounds have run
  s->doc.context["trace_requests"] = {{"mode", TraceModeName(s->trace_mode)},
                                      {"device", s->traced_disk}};
  if (!o.lanes.empty()) {
    s->doc.context["lanes"] = s->checked.lanes > 1
                                  ? s->lanes.Describe()
                                  : nlohmann::json{{"count", 1}, {"asked", o.lanes}};
  }
}

// What the session may touch of the target.
SessionTarget SessionTargetOf(RunState* s) {
  SessionTarget st;
  st.directory = s->target.directory();
  const RunTarget* synced = &s->target;
  st.drop_caches = [synced](std::string* err) { return synced->DropCaches(err); };
  DeviceControl* control = s->control.get();
  if (synced->CanRemakeFilesystem()) {
    // The new filesystem makes the kernel recompute read_ahead_kb: the pins are written again.
    st.remake_filesystem = [synced, control](std::string* err) {
      return synced->RemakeFilesystem(err) && (control == nullptr || control->ReapplyPinned(err));
    };
  }
  if (s->switching) {
    st.control = control;
  } else {
    st.snapshot = [control] { return control->Snapshot(); };
  }
  if (s->target.emulated()) {
    const EmulatedStack* stack = &s->target.stack();
    st.disk_counters = [stack]() -> nlohmann::json {
      nlohmann::json counters;
      std::string e;
      return ReadDiskCounters(*stack, &counters, &e) ? counters : nlohmann::json(nullptr);
    };
  }
  if (s->trace_mode != TraceMode::kOff) st.tracer = &s->tracer;
  st.device = s->target.device();
  if (s->root) st.journal = &s->journal;
  st.failure_cause = DiskFailureCause;
  const RunTarget* target = &s->target;
  st.lost = [target](std::string* why) { return target->Lost(why); };
  return st;
}

// 7. The session, with every child inside the machine's cgroups (--machine). Returns whether it
// finished; *failed counts failed cells, *err says why it did not finish.
int SessionStep(RunState* s, bool* finished, size_t* failed, std::string* err) {
  SystemFioRunner fio;
  if (s->checked.lanes > 1) {
    *finished = s->lanes.RunSessions(*s->o.suite, s->session, s->switching, s->session.drop_caches,
                                     &s->progress, &s->doc, failed, err);
    s->lanes.CloseTracers();
    return kContinue;
  }
  if (s->checked.machine_spec.limits() && !s->cgroups.Enter(getpid(), err)) {
    PrintError("--machine: " + *err);
    return kExitFailure;
  }
  {
    // A device lost under the run stops it within a second, not at fio's timeout.
    const RunTarget* target = &s->target;
    // Said at once (the run's last line says it again once everything is restored).
    TargetWatch watch([target](std::string* why) { return target->Lost(why); },
                      [](const std::string& why) {
                        PrintError("stopping the run: " + why);
                        RequestFaultStop();
                      },
                      std::chrono::milliseconds(250));
    const std::function<std::string()> by_signal = s->session.stop_reason;
    s->session.stop_reason = [&watch, by_signal] {
      std::string why = "stopped";
      if (InterruptSignal() != 0 || !watch.Lost(&why)) return by_signal();
      return why;
    };
    *finished = RunSession(*s->o.suite, s->session, SessionTargetOf(s), &fio, &s->progress, &s->doc,
                           failed, err);
    s->session.stop_reason = by_signal;
  }
  std::string leave_err;
  if (!s->cgroups.Leave(&leave_err)) PrintError("--machine: " + leave_err);  // restore moves it
  if (!s->tracer.Close(&leave_err)) PrintError("--trace-requests: " + leave_err);  // restore does
  return kContinue;
}

// 9. The suite's tables on stdout, from what the session recorded.
void PrintTablesStep(const RunState& s, bool finished) {
  if (s.doc.records.empty() && !finished) return;
  std::string text, err;
  ReportOptions options;
  options.verdict = !s.o.no_verdict;
  if (RenderResults(s.doc, s.o.format, options, &text, &err)) {
    std::cout << text;
  } else {
    PrintError("cannot print the tables: " + err);
  }
  std::cout.flush();
}

}  // namespace

int RunCommand(const RunOptions& o) {
  RunState s(o);
  if (const int code = CheckStep(&s); code != kContinue) return code;  // 1
  RootStep(&s);                                                        // 2
  for (int (*step)(RunState*) : {JournalStep, TargetStep, DeviceStep, MachineStep, TraceStep}) {
    if (const int code = step(&s); code != kContinue) return code;
  }
  DescribeStep(&s);  // 6
  bool finished = false;
  size_t failed = 0;
  std::string err;
  if (const int code = SessionStep(&s, &finished, &failed, &err); code != kContinue) return code;
  const bool restored = s.guard.Restore();  // 8
  PrintTablesStep(s, finished);             // 9
  PrintNote("results written to " + s.checked.out_path);
  NoteRunInHistory(o, s.checked.out_path, s.doc);  // 10
  if (!finished) {
    PrintError(err);
    return InterruptSignal() != 0 ? kExitInterrupted : kExitFailure;
  }
  if (failed > 0) {
    PrintError(std::to_string(failed) + " cell(s) failed; see " + s.checked.out_path);
    return kExitFailure;
  }
  if (InterruptSignal() != 0) {
    // A signal after the last cell (during the teardown or the restore, which still ran to the
    // end): every cell is in, but the run was interrupted, and says so as README promises.
    PrintError("interrupted by signal " + std::to_string(InterruptSignal()) +
               " after the last cell; the results are complete");
    return kExitInterrupted;
  }
  return restored ? kExitOk : kExitFailure;
}

}  // namespace elevbench
