#include "harness/run/run_checks.h"

#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/scratch_device.h"
#include "harness/device/sysfs.h"
#include "harness/disk/disk_model.h"
#include "harness/disk/disk_profile_spec.h"
#include "harness/disk/emulated_stack.h"
#include "harness/run/kernel_rows.h"
#include "harness/run/lanes.h"
#include "harness/run/run_policy.h"

namespace elevbench {
namespace {

// The formats `run` prints for a suite of `formats`: its text formats, "json" last.
std::string RunFormatChoices(std::vector<std::string> formats) {
  formats.push_back("text");
  formats.push_back("json");
  return JoinWith(formats, ", ");
}

bool WritableDirectory(const std::string& dir) {
  struct stat st {};
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(dir.c_str(), W_OK) == 0;
}

// --machine's words (given, or the 2003 box chosen for a suite: MachineForEmulatedDisk): the
// spec, its bounds on this host, root, and cgroups that can hold it; the suites then see its RAM
// and CPUs. Read-only.
bool CheckMachineWords(const RunConfig& o, const std::string& words, const MachineInfo& host,
                       CheckedRun* c, std::string* err) {
  if (!ParseMachineSpec(words, &c->machine_spec, err) ||
      !CheckMachineSpec(c->machine_spec, host, err)) {
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "--machine needs root: it makes memory and cpuset cgroups";
    return false;
  }
  if (c->machine_spec.disk_shares_cpus &&
      (o.target.emulated.empty() || c->machine_spec.cpus == 0)) {
    *err = "--machine disk-cpus=shared needs cpus=N and an emulated disk (--emulated)";
    return false;
  }
  std::ifstream in("/proc/self/cgroup");
  const std::string self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!DetectCgroupLayout(Sysfs{}, self, &c->cgroup_layout, err)) return false;
  c->suite_machine = EmulatedMachineInfo(host, c->machine_spec);
  return true;
}

// --machine, when given; the host's RAM and CPUs for the suites otherwise.
bool CheckMachineOption(const RunConfig& o, const MachineInfo& host, CheckedRun* c,
                        std::string* err) {
  c->suite_machine = host;
  if (!o.machine_given && o.machine.empty()) return true;
  return CheckMachineWords(o, o.machine, host, c, err);
}

// The emulated disk's capacity (its profile with --disk-set), 0 when the profile is unknown
// (CheckEmulatedCapacity names that).
uint64_t EmulatedCapacity(const EmulatedOptions& emu) {
  DiskProfile p;
  std::string ignored;
  return LookupDiskProfileWithOverrides(emu.profile_name, emu.overrides, "", &p, &ignored)
             ? p.capacity_bytes
             : 0;
}

// A suite whose files follow the machine's RAM (contest's loads, the 2003 post) needs more at
// this host's RAM than the emulated disk holds (24 GiB of RAM: 58 GB, on the 40 GB ide-2003):
// without --machine, the run emulates the 2003 box its disk came with (p4-2003: 256 MiB, one
// CPU), as the README's examples run, and says so (checked->machine_note, the header's machine
// line). Nothing changes when the suite fits, --machine was given, or the 2003 box does not
// help either (the capacity check then names both ways out).
bool MachineForEmulatedDisk(const RunConfig& o, const MachineInfo& host, CheckedRun* c,
                            std::string* err) {
  const TargetOptions& t = c->target;
  if (!t.emulated || o.machine_given || !o.machine.empty()) return true;
  const uint64_t capacity = EmulatedCapacity(t.emulated_options);
  const uint64_t needed = o.suite->BytesNeeded();
  if (capacity == 0 || needed <= capacity) return true;
  CheckedRun as_2003 = *c;
  std::string why;
  if (!CheckMachineWords(o, "p4-2003", host, &as_2003, &why) ||
      !o.suite->Prepare(as_2003.suite_machine, &why) || o.suite->BytesNeeded() > capacity) {
    return o.suite->Prepare(c->suite_machine, err);  // as before: the capacity check speaks
  }
  *c = std::move(as_2003);
  char text[240];
  std::snprintf(text, sizeof text,
                "elevbench: %s's files follow the machine's RAM: %.4g GB at this host's, more "
                "than the %.4g GB %s holds; running as the 2003 box (--machine p4-2003)",
                o.suite_name.c_str(), static_cast<double>(needed) / 1e9,
                static_cast<double>(capacity) / 1e9, t.emulated_options.profile_name.c_str());
  c->machine_note = text;
  return true;
}

// --controls: the words, a suite with roles, root, no --lanes, and what this host's cgroups
// offer, read here and checked by CheckControlsOnHost; read-only.
bool CheckControlsOption(const RunConfig& o, CheckedRun* c, std::string* err) {
  // No --controls: the one "none" control, and no cgroup file read for it.
  if (TrimWhitespace(o.controls).empty()) return ParseIoControls("", false, &c->controls, err);
  const Sysfs sysfs;
  std::ifstream in("/proc/self/cgroup");
  const std::string self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::error_code ec;
  const bool io_cost = std::filesystem::exists(sysfs.Map("/sys/fs/cgroup/io.cost.qos"), ec);
  return CheckControlsOnHost(o, DetectIoCgroupLayout(sysfs, self), io_cost, c, err);
}

// --format, and --out's folder: one the run makes only when it is the default results/ (#45).
bool CheckFormatAndOut(const RunConfig& o, std::string* err) {
  // "text", as every other command takes it, is the suite's first layout (the fourth newcomer
  // pass: report took it, run refused it).
  if (!o.format.empty() && o.format != "json" && o.format != "text" &&
      std::find(o.formats.begin(), o.formats.end(), o.format) == o.formats.end()) {
    *err = "unknown --format '" + o.format + "' (" + RunFormatChoices(o.formats) + ")";
    return false;
  }
  if (o.out.empty()) return true;
  std::error_code ec;
  return (std::filesystem::path(o.out).lexically_normal().parent_path() == "results" &&
          !std::filesystem::is_directory(o.out, ec)) ||
         CheckParentFolderExists("--out", o.out, err);
}

// A suite's default --schedulers (post-2003's names bfq) on a kernel without one of them: those
// configurations are left out and the run says so (the fourth newcomer pass: README's `run
// post-2003` was refused on every kernel built without bfq). A list the user gave is checked
// whole and refused instead.
void DropSchedulersNotOffered(const std::vector<std::string>& offered, CheckedRun* c) {
  if (offered.empty()) return;
  std::vector<SchedulerConfig> kept;
  std::vector<std::string> missing, left_out;
  for (const SchedulerConfig& config : c->configs) {
    if (std::find(offered.begin(), offered.end(), config.scheduler) != offered.end()) {
      kept.push_back(config);
      continue;
    }
    if (std::find(missing.begin(), missing.end(), config.scheduler) == missing.end()) {
      missing.push_back(config.scheduler);
    }
    left_out.push_back(config.code_override.empty() ? config.scheduler : config.code_override);
  }
  if (missing.empty() || kept.empty()) return;  // none left: refused whole, as a given list
  c->configs = std::move(kept);
  c->schedulers_note = "elevbench: the suite's default --schedulers: this kernel has no " +
                       JoinWith(missing, ", ") + " (it offers " + JoinWith(offered, ", ") +
                       "): " + JoinWith(left_out, ", ") + " left out";
}

// --schedulers/--queue syntax against what this kernel offers; after the suite's own options,
// so that a bad one is named before a default --schedulers the kernel lacks (#45).
bool CheckSchedulers(const RunConfig& o, CheckedRun* c, std::string* err) {
  c->all_schedulers = o.schedulers == "all";
  const std::vector<std::string> offered =
      o.offered_schedulers.empty() ? OfferedSchedulers() : o.offered_schedulers;
  if (!o.schedulers.empty() && !c->all_schedulers &&
      !ParseSchedulerList(o.schedulers, &c->configs, err)) {
    *err = "--schedulers: " + *err;
    return false;
  }
  if (o.schedulers_by_default) DropSchedulersNotOffered(offered, c);
  if (!CheckSchedulersExist(c->configs, offered, err)) {
    *err = "--schedulers: " + *err;
    return false;
  }
  if (!o.queue.empty() &&
      (!ParseQueueAttrs(o.queue, &c->queue_attrs, err) || !CheckQueueAttrs(c->queue_attrs, err))) {
    *err = "--queue: " + *err;
    return false;
  }
  return true;
}

// --emulated's --disk-set overrides (ParseMadeTarget parsed PROFILE[:SIZE]), checked against
// the profile.
bool CheckEmulatedTarget(const RunConfig& o, TargetOptions* t, std::string* err) {
  if (!t->emulated) return true;
  EmulatedOptions& emu = t->emulated_options;
  emu.overrides = o.disk_settings;
  emu.trace_path = o.disk_trace;
  emu.keep_wbt = o.keep_wbt;
  // The disk's folder as --out's (#45: a missing one failed after the disk was built), and the
  // profile as a whole (#45: rpm=30 passed here and was refused once the daemon started).
  if (!o.disk_trace.empty() &&
      !CheckParentFolderExists("--disk-trace", o.disk_trace, err, "disk.trace")) {
    return false;
  }
  DiskProfile probe;
  if (!LookupDiskProfileWithOverrides(emu.profile_name, emu.overrides, "--disk-set: ", &probe,
                                      err)) {
    return false;
  }
  if (!ValidateDiskProfile(probe, err)) {
    *err = "--disk-set: " + *err;
    return false;
  }
  return true;
}

// A suite on a raw device (replay): no --dir, no filesystem on the device elevbench makes, or
// the --device the user names alone as the target.
bool CheckRawTarget(const RunConfig& o, TargetOptions* t, std::string* err) {
  if (!o.directory.empty()) {
    *err = std::string("run ") + o.suite_name + " replays onto a block device, not a directory: " +
           "--emulated, --scratch or --device NAME";
    return false;
  }
  t->fs = kRawDeviceFs;
  t->emulated_options.fs = kRawDeviceFs;
  if (o.target.device.empty() || !o.target.scratch.empty() || !o.target.emulated.empty())
    return true;
  if (!CheckWholeDiskName(o.target.device, o.target.device, SystemPaths{}, err)) return false;
  t->raw_device = o.target.device;
  return true;
}

// --fresh-fs: a filesystem elevbench made, which only root can make again.
bool CheckFreshFs(const RunConfig& o, std::string* err) {
  if (!o.fresh_fs) return true;
  if (o.suite->WantsRawDevice()) {
    return Fail(err, std::string("--fresh-fs: run ") + o.suite_name +
                         " works on a raw device, which has no filesystem to make again");
  }
  if (o.target.scratch.empty() && o.target.emulated.empty()) {
    return Fail(err, "--fresh-fs needs a device elevbench makes (--emulated or --scratch)");
  }
  if (!RunningAsRoot()) return Fail(err, "--fresh-fs needs root (mkfs and mount)");
  return true;
}

// --dir, --scratch, --emulated (one of them) and --fs.
bool CheckTarget(const RunConfig& o, TargetOptions* t, std::string* err) {
  if (!o.directory.empty() + !o.target.scratch.empty() + !o.target.emulated.empty() > 1) {
    *err = "--dir, --scratch and --emulated are alternatives: give one";
    return false;
  }
  if (!ParseMadeTarget(o.target, t, err)) return false;
  t->directory = o.directory;
  if (!CheckEmulatedTarget(o, t, err) || !CheckFreshFs(o, err)) return false;
  if (o.suite->WantsRawDevice()) return CheckRawTarget(o, t, err);
  if (!o.target.device.empty() &&
      !CheckWholeDiskName(o.target.device, o.target.device, SystemPaths{}, err)) {
    return false;
  }
  if (!o.directory.empty() && !WritableDirectory(o.directory)) {
    *err = "--dir " + o.directory + " is not a writable directory";
    return false;
  }
  return true;
}

// As root, --schedulers or --queue on --dir switches the disks under the directory: only the one
// named with --device (AuthorizeSwitching's refusal, made here before anything exists).
bool CheckDirSwitching(const RunConfig& o, const TargetOptions& t, std::string* err) {
  if (!RunningAsRoot() || t.directory.empty() || (o.schedulers.empty() && o.queue.empty())) {
    return true;
  }
  std::vector<std::string> disks;
  std::string ignored;
  if (!ResolveQueueDevices(t.directory, SystemPaths{}, &disks, &ignored) || disks.empty()) {
    return Fail(err, "refusing to change the queue under " + t.directory +
                         ": cannot find the block device that holds it");
  }
  if (std::find(disks.begin(), disks.end(), o.target.device) != disks.end()) return true;
  return Fail(err, "refusing to change the queue of " + disks.front() + " (it holds " +
                       t.directory + "); name it with --device " + disks.front() +
                       " to allow this");
}

// The image fits the disk it emulates: ide-2003 is a 40 GB disk, so ide-2003:64G is refused.
bool CheckEmulatedCapacity(const EmulatedOptions& emu, std::string* err) {
  DiskProfile p;
  if (!LookupDiskProfileWithOverrides(emu.profile_name, emu.overrides, "", &p, err)) return false;
  if (emu.size_bytes <= p.capacity_bytes) return true;
  char text[160];
  std::snprintf(text, sizeof text, "%.4g GB is larger than the %.4g GB disk it emulates",
                static_cast<double>(emu.size_bytes) / 1e9,
                static_cast<double>(p.capacity_bytes) / 1e9);
  *err = "--emulated " + emu.profile_name + ": " + text +
         "; give a smaller PROFILE:SIZE, or --disk-set capacity_bytes=N";
  return false;
}

// A suite that needs more than the emulated disk holds at any size is told so in one line that
// names every way out, whether or not a PROFILE:SIZE was given (issue 58: "give a smaller
// PROFILE:SIZE" and "give a larger device" had pointed opposite ways).
bool CheckSuiteFitsEmulatedDisk(const RunConfig& o, const CheckedRun& c, std::string* err) {
  if (!c.target.emulated) return true;
  const uint64_t capacity = EmulatedCapacity(c.target.emulated_options);
  const uint64_t needed = o.suite->BytesNeeded();
  if (capacity == 0 || needed <= capacity) return true;
  const bool machine = o.machine_given || !o.machine.empty();
  char text[400];
  std::snprintf(text, sizeof text,
                "%s needs %.4g GB at %s RAM (%.3g GiB), more than the %.4g GB disk --emulated %s "
                "emulates; give %s, or --disk-set capacity_bytes=N",
                o.suite_name.c_str(), static_cast<double>(needed) / 1e9,
                machine ? "--machine's" : "this host's",
                static_cast<double>(c.suite_machine.memory_bytes) / (1ULL << 30),
                static_cast<double>(capacity) / 1e9, c.target.emulated_options.profile_name.c_str(),
                machine ? "a --machine with less RAM (p4-2003: the 2003 box)"
                        : "--machine p4-2003 (the 2003 box) or ram=SIZE");
  return Fail(err, text);
}

// What the suite may check of the target before it is made (Suite::CheckTarget).
TargetFacts FactsOf(const RunConfig& o, const TargetOptions& t) {
  TargetFacts f;
  f.directory = t.directory;
  f.user_device = o.target.device;
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
bool CheckTraceOption(const RunConfig& o, const TargetOptions& t, std::string* err) {
  if (o.trace_requests == TraceMode::kOff) return true;
  const std::string flag = std::string("--trace-requests ") + TraceModeName(o.trace_requests);
  if (!RunningAsRoot()) {
    *err = flag + " needs root (tracefs)";
    return false;
  }
  const bool own_device = t.emulated || t.scratch_bytes > 0;
  if (!own_device && o.target.device.empty()) {
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
bool CheckLanesWords(const RunConfig& o, std::string* err) {
  if (o.lanes.empty()) return true;
  LaneBounds words;
  words.suite = o.suite_name;
  words.online_cpus = 1 << 20;  // no bound yet: only the words
  int lanes = 1;
  if (!ParseLanesOption(o.lanes, words, &lanes, err)) return false;
  if (o.lanes != "1" && o.lanes != "auto" && o.lane_cpus == 0) {
    return Fail(err, "--lanes " + o.lanes + ": " + words.suite +
                         " does not run in lanes: " + o.lanes_refused);
  }
  return true;
}

bool CheckLanesOption(const RunConfig& o, const MachineInfo& host, CheckedRun* c,
                      std::string* err) {
  if (o.lanes.empty()) return true;
  LaneBounds b;
  b.suite = o.suite_name;
  if (o.lane_cpus == 0) b.refusal = o.lanes_refused;
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
  b.cpus_per_lane = std::max(o.lane_cpus, c->machine_spec.cpus);
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

// --shard I/N (docs/ci.md): its words, and the plan it cuts: the same on every box (--seed), of
// a fixed number of repetitions, run serially (with --kernels each guest runs its share of its
// kernel's plan: kernel_rows.h).
bool CheckShardOption(const RunConfig& o, CheckedRun* c, std::string* err) {
  if (o.shard.empty()) return true;
  if (!ParseShardOption(o.shard, &c->shard, err)) return false;
  const char* why =
      !o.seed_given ? "needs --seed (every shard must deal the same plan; merge checks it)"
      : c->adaptive.enabled
          ? "needs a fixed --repetitions (auto decides between rounds, which shards do not share)"
      : !o.lanes.empty() && o.lanes != "1"
          ? "runs serially: give --lanes or --shard, not both (docs/ci.md)"
          : nullptr;
  if (why != nullptr) return Fail(err, "--shard " + o.shard + " " + why);
  return true;
}

// Without root no device can be made and nothing switched: an --emulated, --scratch,
// --schedulers or --queue the user gave is refused
// (#45: the run went on in the current directory's disk instead), after every check of the
// input, so that bad input is named first; a suite's default --emulated still falls back, with
// DecideRoot's notice.
bool CheckMadeDeviceRoot(const RunConfig& o, std::string* err) {
  if (RunningAsRoot()) return true;
  if (!o.target.scratch.empty()) {
    return Fail(err,
                "--scratch needs root (the scratch disk is a loop device); without it, give "
                "--dir DIR");
  }
  if (!o.target.emulated.empty() && !o.emulated_by_default) {
    return Fail(err,
                "--emulated needs root (the emulated disk is a loop device and a FUSE mount); "
                "without it, give --dir DIR");
  }
  // Nor can a scheduler or a queue attribute be switched: the run would measure the current
  // scheduler alone under the user's list (the fourth newcomer pass).
  if (!o.schedulers.empty() && !o.schedulers_by_default) {
    return Fail(err,
                "--schedulers needs root (switching a disk's scheduler writes sysfs); without it "
                "a run measures the current scheduler only: leave --schedulers out");
  }
  if (!o.queue.empty()) {
    return Fail(err,
                "--queue needs root (it writes the disk's queue attributes in sysfs); without it "
                "leave --queue out");
  }
  return true;
}

}  // namespace

bool CheckControlsOnHost(const RunConfig& o, const IoCgroupLayout& layout, bool io_cost_offered,
                         CheckedRun* c, std::string* err) {
  c->io_layout = layout;
  const bool guests = !o.kernels.empty() || !o.kernel_images.empty();
  const bool io_v2 = guests || c->io_layout.io_v2_offered;
  if (!ParseIoControls(o.controls, io_v2, &c->controls, err)) return false;
  if (!AnyControl(c->controls)) return true;
  if (!o.suite->HasRoles()) {
    return Fail(err, "--controls: " + o.suite_name +
                         " has no load and probe to control (probes, contest, visave, nickbench, "
                         "command --load have); only none");
  }
  if (!o.lanes.empty())
    return Fail(err,
                "--controls cannot run in --lanes: a control's cgroups and io.cost switch are "
                "made once per run, for one disk, not per lane");
  if (!RunningAsRoot()) {
    return Fail(err, "--controls needs root: it makes cgroups and sets I/O priorities");
  }
  if (guests) return true;
  if (c->io_layout.version == 2 && (o.machine_given || !o.machine.empty())) {
    return Fail(err, "--controls with --machine on cgroup v2 is not built yet (#46)");
  }
  return CheckIoControlsOffered(c->controls, c->io_layout, io_v2, io_cost_offered, err);
}

// Issue 57 §4.4: a replay's trace under /tmp was accepted, and the guest found no file.
bool CheckHostPathsForGuests(const RunConfig& o, std::string* err) {
  if (o.kernels.empty() && o.kernel_images.empty()) return true;
  std::vector<HostPathUse> own;
  if (!o.disk_trace.empty()) own.push_back({"--disk-trace", o.disk_trace, /*written=*/true});
  const std::string name = o.suite_name;
  const std::string owner = "run " + name + (name.ends_with("s") ? "' " : "'s ");
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  const std::string self = SelfExecutablePath();
  return CheckGuestHostPaths("", own, self, cwd, err) &&
         (o.suite == nullptr || CheckGuestHostPaths(owner, o.suite->HostPaths(), self, cwd, err));
}

bool CheckRunConfig(const RunConfig& o, const MachineInfo& host, CheckedRun* c, std::string* err) {
  if (!o.guest_clock.empty() && o.kernels.empty() && o.kernel_images.empty()) {
    return Fail(err, "--guest-clock is the clock of --kernels' guests; this run boots none");
  }
  if (!CheckLanesWords(o, err) ||
      !ParseRepetitionsOption(o.repetitions, o.max_repetitions, o.ci_width_pct, &c->repetitions,
                              &c->adaptive, err) ||
      !CheckShardOption(o, c, err) || !CheckFormatAndOut(o, err) ||
      !CheckHostPathsForGuests(o, err) || !CheckTarget(o, &c->target, err) ||
      !CheckMachineOption(o, host, c, err)) {
    return false;
  }
  // Under --machine the suites size their loads by the emulated RAM and CPUs.
  // The paths again once Prepare made what names more (a composite's parts).
  if (!o.suite->Prepare(c->suite_machine, err) || !MachineForEmulatedDisk(o, host, c, err) ||
      !CheckHostPathsForGuests(o, err) || !CheckSchedulers(o, c, err) ||
      !CheckControlsOption(o, c, err) || !CheckDirSwitching(o, c->target, err)) {
    return false;
  }
  TargetOptions& t = c->target;
  if (!CheckSuiteFitsEmulatedDisk(o, *c, err)) return false;
  const bool default_scratch = RunningAsRoot() && o.directory.empty() && t.scratch_bytes == 0 &&
                               !t.emulated && t.raw_device.empty();
  if (!SizeTargetForSuite(o.suite_name, o.suite->BytesNeeded(),
                          o.target.emulated.find(':') != std::string::npos, default_scratch, &t,
                          err) ||
      (t.emulated && !CheckEmulatedCapacity(t.emulated_options, err)) ||
      !o.suite->CheckTarget(FactsOf(o, t), err)) {
    return false;
  }
  c->out_path = o.out.empty() ? DefaultResultsPath(o.suite_name, host.hostname) : o.out;
  return CheckTraceOption(o, t, err) && CheckLanesOption(o, host, c, err) &&
         CheckMadeDeviceRoot(o, err);
}

}  // namespace elevbench
