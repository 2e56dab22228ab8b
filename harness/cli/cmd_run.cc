// `elevbench run SUITE`: validates the options, prepares the target (directory, scratch device or
// emulated disk), journals and applies device settings, runs the session of the chosen suite,
// prints its tables, and restores everything on every exit path. Knows no suite.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/device_control.h"
#include "harness/device/restore_journal.h"
#include "harness/device/scratch_device.h"
#include "harness/disk/emulated_stack.h"
#include "harness/fio/fio_runner.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/run/run_session.h"
#include "harness/run/target.h"
#include "reporters/render.h"

namespace elevbench {
namespace {

// Undoes the journal when the run ends, however it ends.
class JournalGuard {
 public:
  explicit JournalGuard(RestoreJournal* journal) : journal_(journal) {}
  ~JournalGuard() { Restore(); }
  JournalGuard(const JournalGuard&) = delete;
  JournalGuard& operator=(const JournalGuard&) = delete;
  bool Restore() {
    if (!journal_->is_open() || journal_->entries().empty()) return true;
    std::vector<std::string> log;
    std::string err;
    if (!journal_->RestoreAll(&log, &err)) {
      PrintError("restore incomplete: " + err + " (run 'elevbench restore')");
      return false;
    }
    return true;
  }

 private:
  RestoreJournal* journal_;
};

std::string DefaultOutPath(const std::string& suite, const std::string& host) {
  std::error_code ec;
  std::filesystem::create_directories("results", ec);
  const std::string stamp = NowIso8601();
  std::string compact;
  for (char c : stamp) {
    if (c != '-' && c != ':') compact += c;
  }
  return (ec ? std::string(".") : std::string("results")) + "/" + compact + "-" + host + "-" +
         suite + ".json";
}

bool WritableDirectory(const std::string& dir) {
  struct stat st {};
  return stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && access(dir.c_str(), W_OK) == 0;
}

std::string SelfExe() {
  std::error_code ec;
  auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("elevbench") : p.string();
}

bool ContainsDisk(const std::vector<std::string>& disks, const std::string& name) {
  return std::find(disks.begin(), disks.end(), name) != disks.end();
}

// The nickbench/probe style label: the configuration's code in capitals ("DL", "BFQ-LL0"), or
// the user's own "@LABEL" as written.
std::string TableLabel(const SchedulerConfig& config) {
  if (!config.code_override.empty()) return config.code_override;
  std::string code = ShortCode(config);
  for (char& ch : code) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return code;
}

// The label of a run that does not switch: the active scheduler of the target's first disk.
std::string CurrentSchedulerLabel(const DeviceControl& control) {
  for (const auto& [key, value] : control.Snapshot()) {
    if (key.size() < 16 || key.compare(key.size() - 16, 16, "/queue/scheduler") != 0) continue;
    std::vector<std::string> names;
    std::string current, ignored;
    if (ParseSchedulerLine(value, &names, &current, &ignored) && !current.empty()) {
      return TableLabel(SchedulerConfig{current, {}, ""});
    }
  }
  return "CURRENT";
}

// Everything the command line asked for, checked before the machine is touched.
struct CheckedRun {
  std::vector<SchedulerConfig> configs;
  bool all_schedulers = false;
  std::vector<std::pair<std::string, std::string>> queue_attrs;
  TargetOptions target;
  std::string out_path;
  std::string fio_version;
  MachineSpec machine_spec;    ///< --machine; limits() false without it
  CgroupLayout cgroup_layout;  ///< where its cgroups go (with --machine)
  MachineInfo suite_machine;   ///< what the suites see: the host, or the --machine limits
};

// Step 1: every check a user can fail. False with err for a usage error (exit 2).
// Every scheduler some block device lists, plus the four of Linux 6.x: a scheduler built as a
// module is listed only once loaded, and selecting it loads it.
std::vector<std::string> SchedulersThisKernelOffers() {
  std::vector<std::string> offered = {"none", "mq-deadline", "kyber", "bfq"};
  std::vector<BlockDeviceInfo> devices;
  std::string ignored;  // without a listing the four standard names remain
  if (ListBlockDevices(SystemPaths{}, &devices, &ignored)) {
    for (const BlockDeviceInfo& d : devices) {
      for (const std::string& s : d.available_schedulers) {
        if (std::find(offered.begin(), offered.end(), s) == offered.end()) offered.push_back(s);
      }
    }
  }
  return offered;
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
  std::ifstream in("/proc/self/cgroup");
  const std::string self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!DetectCgroupLayout(Sysfs{}, self, &c->cgroup_layout, err)) return false;
  c->suite_machine = EmulatedMachineInfo(host, c->machine_spec);
  return true;
}

bool CheckRunOptions(const RunOptions& o, const MachineInfo& host, CheckedRun* c,
                     std::string* err) {
  if (!o.format.empty() && o.format != "json") {
    bool known = false;
    for (const std::string& f : o.entry->formats) known = known || f == o.format;
    if (!known) {
      *err = "unknown --format '" + o.format + "' (" + FormatChoices(o.entry->name) + ")";
      return false;
    }
  }
  if (!o.directory.empty() + !o.scratch.empty() + !o.emulated.empty() > 1) {
    *err = "--dir, --scratch and --emulated are alternatives: give one";
    return false;
  }
  c->all_schedulers = o.schedulers == "all";
  if (!o.schedulers.empty() && !c->all_schedulers &&
      !ParseSchedulerList(o.schedulers, &c->configs, err)) {
    *err = "--schedulers: " + *err;
    return false;
  }
  if (!CheckSchedulersExist(c->configs, SchedulersThisKernelOffers(), err)) {
    *err = "--schedulers: " + *err;
    return false;
  }
  if (!o.queue.empty() && !ParseQueueAttrs(o.queue, &c->queue_attrs, err)) {
    *err = "--queue: " + *err;
    return false;
  }
  if (!SupportedScratchFs(o.fs)) {
    *err = "unsupported --fs '" + o.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  TargetOptions& t = c->target;
  t.directory = o.directory;
  t.fs = o.fs;
  if (!o.scratch.empty() && !ParseSizeBytes(o.scratch, &t.scratch_bytes, err)) {
    *err = "--scratch: " + *err;
    return false;
  }
  t.emulated = !o.emulated.empty();
  if (t.emulated) {
    EmulatedOptions& emu = t.emulated_options;
    if (!ParseEmulatedSpec(o.emulated, &emu, err)) return false;
    emu.overrides = o.disk_settings;
    emu.fs = o.fs;
    emu.trace_path = o.disk_trace;
    emu.keep_wbt = o.keep_wbt;
    emu.self_exe = SelfExe();
    DiskProfile probe;
    if (!LookupDiskProfile(emu.profile_name, &probe, err)) return false;
    for (const std::string& s : emu.overrides) {
      if (!ApplyDiskOverride(s, &probe, err)) {
        *err = "--disk-set: " + *err;
        return false;
      }
    }
  }
  if (!o.directory.empty() && !WritableDirectory(o.directory)) {
    *err = "--dir " + o.directory + " is not a writable directory";
    return false;
  }
  if (!CheckMachineOption(o, host, c, err)) return false;
  // Under --machine the suites size their loads by the emulated RAM and CPUs.
  if (!o.suite->Prepare(c->suite_machine, err)) return false;
  // A device elevbench makes must hold the suite's files: size it to fit when its size was not
  // given, and refuse a size that cannot fit rather than failing with ENOSPC halfway through.
  const uint64_t needed = o.suite->BytesNeeded();
  const uint64_t fitting = std::max<uint64_t>(needed + (192ULL << 20), 1ULL << 30);
  if (t.emulated && o.emulated.find(':') == std::string::npos) {
    t.emulated_options.size_bytes = std::max<uint64_t>(t.emulated_options.size_bytes, fitting);
  }
  for (const auto& [flag, bytes] :
       {std::pair<const char*, uint64_t>{"--scratch", t.scratch_bytes},
        {"--emulated", t.emulated ? t.emulated_options.size_bytes : 0}}) {
    if (bytes > 0 && bytes < needed) {
      *err = std::string(o.entry->name) + " needs " + std::to_string(needed >> 20) +
             " MiB, which does not fit on the " + std::to_string(bytes >> 20) + " MiB device of " +
             flag + "; give a larger device or a smaller --size";
      return false;
    }
  }
  if (RunningAsRoot() && o.directory.empty() && t.scratch_bytes == 0 && !t.emulated) {
    t.scratch_bytes = fitting;  // the default target as root: a scratch device
  }
  c->out_path = o.out.empty() ? DefaultOutPath(o.entry->name, host.hostname) : o.out;
  return true;
}

// Step 3 (root): undo what an earlier run left, then take the journal's lock.
bool OpenJournal(RestoreJournal* journal, Progress* progress, std::string* err) {
  const std::string state_dir = DefaultStateDir();
  std::vector<std::string> log;
  const bool leftover = access((state_dir + "/" + RestoreJournal::kJournalFile).c_str(), F_OK) == 0;
  if (leftover && !RestoreJournal::ApplyLeftoverJournal(state_dir, &log, err)) {
    *err = "cannot restore what an earlier run left: " + *err;
    return false;
  }
  if (leftover) {
    progress->Note("elevbench: restored what an earlier run left behind (" +
                   std::to_string(log.size()) + " steps):");
    for (const std::string& line : log) progress->Note("  " + line);
  }
  return journal->Open(state_dir, "elevbench run (pid " + std::to_string(getpid()) + ")", err);
}

// The results context: machine, target, devices, what was pinned and how caches were handled.
nlohmann::json RunContext(const RunOptions& o, const MachineInfo& machine,
                          const nlohmann::json& emulated_machine, const std::string& fio_version,
                          const RunTarget& target, bool switching,
                          const std::vector<std::pair<std::string, std::string>>& pinned,
                          uint64_t seed, bool root, bool drop) {
  std::string err;
  nlohmann::json devices = nlohmann::json::array();
  for (const std::string& d : target.disks()) {
    BlockDeviceInfo info;
    if (!ReadBlockDevice(d, SystemPaths{}, &info, &err)) continue;
    nlohmann::json dj = ToJson(info);
    if (target.emulated()) {
      dj["model"] = "elevbench emulated " + target.stack().profile.name + " disk";
    } else if (target.created_device()) {
      dj["model"] = "elevbench scratch loop device";
    }
    devices.push_back(dj);
  }
  nlohmann::json context = {
      {"elevbench_version", ELEVBENCH_VERSION},
      {"command_line", o.command_line},
      {"kernel", machine.kernel},
      {"hostname", machine.hostname},
      {"cpus", machine.cpus},
      {"cpu_model", machine.cpu_model},
      {"memory_bytes", machine.memory_bytes},
      {"swap_bytes", machine.swap_bytes},
      {"fio_version", fio_version},
      {"start_time", NowIso8601()},
      {"root", root},
      {"target", target.description()},
      {"filesystem", target.description().value("filesystem", std::string())},
      {"devices", devices},
      {"switching", switching},
      {"pinned_queue", switching ? pinned : std::vector<std::pair<std::string, std::string>>{}},
      {"seed", seed},
      {"drop_caches", drop},
      {"timeout_seconds", o.timeout_seconds},
      {"cache_policy", o.suite->CachePolicy(drop ? "; all caches dropped before each cell"
                                                 : (root ? " (--no-drop-caches: no global drop)"
                                                         : " (not root: no global drop)"))},
  };
  if (!emulated_machine.is_null()) context["emulated_machine"] = emulated_machine;
  if (target.emulated()) {
    context["vm_settings"] = EmulatedVmSettings();
    context["emulated_queue"] = EmulatedQueueSettingsJson(target.stack());
  }
  return context;
}

bool ParseRepetitions(const RunOptions& o, uint32_t* repetitions, AdaptiveRepetitions* adaptive,
                      std::string* err) {
  if (o.repetitions == "auto") {
    adaptive->enabled = true;
    adaptive->max_repetitions = o.max_repetitions;
    adaptive->ci_width = o.ci_width_pct / 100;
    *repetitions = o.max_repetitions;
    return true;
  }
  size_t used = 0;
  unsigned long n = 0;
  try {
    n = std::stoul(o.repetitions, &used);
  } catch (...) {
    used = 0;
  }
  if (used == 0 || used != o.repetitions.size() || n < 1 || n > 1000 ||
      o.repetitions.find_first_not_of("0123456789") != std::string::npos) {
    *err = "--repetitions must be a number from 1 to 1000 or 'auto', not '" + o.repetitions + "'";
    return false;
  }
  *repetitions = static_cast<uint32_t>(n);
  return true;
}

}  // namespace

int RunCommand(const RunOptions& o) {
  // ---- 1. Validate everything a user can get wrong before touching the machine.
  if (o.entry == nullptr || o.suite == nullptr) {
    PrintError("no suite given (see --help)");
    return kExitUsage;
  }
  std::string err;
  AdaptiveRepetitions adaptive;
  uint32_t repetitions = 0;
  if (!ParseRepetitions(o, &repetitions, &adaptive, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const MachineInfo machine = ReadMachineInfo();
  CheckedRun checked;
  if (!CheckRunOptions(o, machine, &checked, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  if (!FioVersion(&checked.fio_version, &err)) {
    PrintError("fio is required: " + err);
    return kExitFailure;
  }
  const std::string& out_path = checked.out_path;
  // fio's job files and raw json+ outputs are kept beside the results for audit.
  const std::string work_dir = out_path + ".fio";
  {
    std::error_code ec;
    std::filesystem::create_directories(work_dir, ec);
    if (ec) {
      PrintError("cannot write results next to " + out_path + ": " + ec.message());
      return kExitUsage;
    }
  }

  // ---- 2. Root or not.
  const bool root = RunningAsRoot();
  Progress progress = Progress::ForStderr();
  bool want_switching = !o.schedulers.empty() || !checked.queue_attrs.empty();
  TargetOptions target_options = checked.target;
  if (!root) {
    const bool wanted_device = target_options.scratch_bytes > 0 || target_options.emulated;
    progress.Note(want_switching || wanted_device
                      ? "elevbench: not root: running on the current scheduler only (no "
                        "switching, no scratch or emulated device, no cache drop)"
                      : "elevbench: not root: caches are not dropped between cells (a suite "
                        "still evicts its own files)");
    want_switching = target_options.emulated = false;
    target_options.scratch_bytes = 0;
  }

  // ---- 3. The journal, before any change.
  InstallInterruptHandlers();
  RestoreJournal journal;
  JournalGuard guard(&journal);
  if (root && !OpenJournal(&journal, &progress, &err)) {
    PrintError(err);
    return kExitFailure;
  }

  // ---- 4. The target.
  RunTarget target;
  if (!target.Create(target_options, &journal, &progress, &err)) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }

  // ---- 5. Device control: only on devices we made, or that the user named with --device.
  Sysfs sysfs;
  DeviceControl control(sysfs, &journal, target.disks());
  if (want_switching && !target.created_device()) {
    if (target.disks().empty()) {
      PrintError("cannot find the block device under " + target.directory() +
                 " to switch its scheduler");
      return kExitUsage;
    }
    if (o.device.empty() || !ContainsDisk(target.disks(), o.device)) {
      PrintError("refusing to change the queue of " + target.disks().front() + " (it holds " +
                 target.directory() + "); name it with --device " + target.disks().front() +
                 " to allow this");
      return kExitUsage;
    }
  }
  std::vector<SchedulerConfig> configs = checked.configs;
  std::vector<std::pair<std::string, std::string>> pinned;
  if (target.emulated()) pinned = EmulatedQueueAttrs(target.stack());
  for (const auto& a : checked.queue_attrs) pinned.push_back(a);
  const bool switching = root && (want_switching || target.created_device());
  if (switching) {
    // A device elevbench made exists for the comparison: without --schedulers, compare them all.
    if (checked.all_schedulers || configs.empty()) {
      std::vector<std::string> available;
      if (!control.AvailableSchedulers(&available, &err)) {
        PrintError(err);
        return kExitFailure;
      }
      configs = ExpandAll(available);
    }
    if (!pinned.empty() && !control.PinQueueAttrs(pinned, &err)) {
      PrintError("--queue: " + err);
      return kExitFailure;
    }
  }
  if (target.emulated() && !ApplyVmSettings(sysfs, &journal, EmulatedVmSettings(), &err)) {
    PrintError("vm writeback settings: " + err);
    return kExitFailure;
  }

  // ---- 5b. The machine (--machine): its cgroups, made after the target, so the emulated disk's
  // daemon (started above) stays outside them: it is the disk, not the machine.
  MachineCgroups cgroups;
  nlohmann::json emulated_machine;
  if (checked.machine_spec.limits()) {
    if (!cgroups.Create(checked.machine_spec, checked.cgroup_layout,
                        "elevbench-machine-" + std::to_string(getpid()), &journal, &err)) {
      PrintError("--machine: " + err);
      return kExitFailure;
    }
    emulated_machine = cgroups.Describe(checked.machine_spec);
    std::string where;
    for (const std::string& p : cgroups.paths()) where += (where.empty() ? "" : ", ") + p;
    progress.Note("elevbench: machine " + checked.suite_machine.emulated_profile + ": " +
                  DescribeMachineLimits(checked.machine_spec.cpus,
                                        emulated_machine.value("memory_bytes", uint64_t{0})) +
                  (cgroups.cpuset_cpus().empty() ? "" : " (CPU " + cgroups.cpuset_cpus() + ")") +
                  (checked.machine_spec.memory_bytes > 0 ? ", no swap" : "") + "; cgroup v" +
                  std::to_string(checked.cgroup_layout.version) + ": " + where);
  }

  // ---- 6. Identifiers, labels and context.
  SessionConfig sc;
  const std::string prefix =
      o.identifier.empty() ? ShortKernelVersion(machine.kernel) : o.identifier;
  if (!switching || configs.empty()) {
    sc.identifiers.push_back(o.identifier.empty() ? machine.kernel : o.identifier);
    sc.labels.push_back(o.identifier.empty() ? CurrentSchedulerLabel(control) : o.identifier);
  } else {
    for (const SchedulerConfig& c : configs) {
      sc.identifiers.push_back(prefix + "-" + ShortCode(c));
      sc.labels.push_back(TableLabel(c));
    }
    sc.configs = configs;
  }
  sc.seed = o.seed_given ? o.seed : std::random_device{}();
  sc.repetitions = repetitions;
  sc.adaptive = adaptive;
  sc.root = root;
  sc.drop_caches = root && !o.no_drop_caches;
  sc.out_path = out_path;
  sc.work_dir = work_dir;
  sc.timeout_seconds = o.timeout_seconds;
  ResultsDocument doc;
  doc.suite = o.entry->name;
  doc.context = RunContext(o, machine, emulated_machine, checked.fio_version, target, switching,
                           pinned, sc.seed, root, sc.drop_caches);
  doc.context["repetitions"] = sc.repetitions;  // auto: the cap until rounds have run

  // ---- 7. Run.
  SessionTarget st;
  st.directory = target.directory();
  if (switching) {
    st.control = &control;
  } else {
    st.snapshot = [&] { return control.Snapshot(); };
  }
  if (target.emulated()) {
    st.disk_counters = [&]() -> nlohmann::json {
      nlohmann::json counters;
      std::string e;
      return ReadDiskCounters(target.stack(), &counters, &e) ? counters : nlohmann::json(nullptr);
    };
  }
  SystemFioRunner fio;
  size_t failed = 0;
  // From here every child (fio, probes, loads) starts inside the machine's cgroups.
  if (checked.machine_spec.limits() && !cgroups.Enter(getpid(), &err)) {
    PrintError("--machine: " + err);
    return kExitFailure;
  }
  const bool finished = RunSession(*o.suite, sc, st, &fio, &progress, &doc, &failed, &err);
  std::string leave_err;
  if (!cgroups.Leave(&leave_err)) PrintError("--machine: " + leave_err);  // restore moves it
  const bool restored = guard.Restore();

  // ---- 8. Report.
  if (!doc.records.empty() || finished) {
    std::string text, render_err;
    if (RenderResults(doc, o.format, &text, &render_err)) {
      std::cout << text;
    } else {
      PrintError("cannot print the tables: " + render_err);
    }
    std::cout.flush();
  }
  PrintNote("results written to " + out_path);
  NoteRunInHistory(o, out_path, doc);
  if (!finished) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  if (failed > 0) {
    PrintError(std::to_string(failed) + " cell(s) failed; see " + out_path);
    return kExitFailure;
  }
  return restored ? kExitOk : kExitFailure;
}

}  // namespace elevbench
