// The steps of `elevbench run` (run_job.h), each a function over the job's state. The decisions
// that need no device are in run_checks.cc, run_policy.cc and run_labels.cc; the lanes' own steps
// in run_lanes.cc.

#include "harness/run/run_job.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/device/block_device.h"
#include "harness/disk/emulated_stack.h"
#include "harness/fio/fio_runner.h"
#include "harness/run/emulated_writeback.h"
#include "harness/run/run_labels.h"
#include "harness/run/run_plan.h"
#include "harness/run/run_policy.h"
#include "harness/run/session_hooks.h"
#include "harness/run/shard.h"
#include "harness/run/target_watch.h"
#include "harness/trace/tracefs.h"

namespace elevbench {

RunJob::RunJob(RunConfig config, std::function<void(const std::string& line)> report_error)
    : config_(std::move(config)),
      report_error_(std::move(report_error)),
      progress_(Progress::ForStderr()) {}

RunJob::~RunJob() = default;

bool RunJob::Check(std::string* err) {
  if (config_.suite == nullptr) return Fail(err, "no suite given (see --help)");
  machine_ = ReadMachineInfo();
  return CheckRunConfig(config_, machine_, &checked_, err);
}

bool RunJob::FindFio(std::string* err) {
  if (FioVersion(&checked_.fio_version, err)) return true;
  return Fail(err, "fio is required: " + *err);
}

bool RunJob::CheckGlobalTracer(std::string* err) {
  return config_.trace_requests != TraceMode::kFull || !RunningAsRoot() || GlobalTracerFree(err);
}

bool RunJob::MakeWorkDir(std::string* err) {
  // Absolute: the files a cell journals there (a tracefs capture's raw events) must be, or the
  // journal refuses them and the capture silently does not start (a relative --out did that).
  std::error_code ec;
  work_dir_ = std::filesystem::absolute(checked_.out_path + ".fio", ec).string();
  made_dirs_.dirs.clear();  // what does not exist yet, deepest first: what a refusal takes back
  for (std::filesystem::path p = work_dir_; !p.empty() && p != p.parent_path();
       p = p.parent_path()) {
    if (std::filesystem::exists(p, ec)) break;
    made_dirs_.dirs.push_back(p.string());
  }
  std::filesystem::create_directories(work_dir_, ec);
  if (!ec) return true;
  return Fail(err, "cannot write results next to " + checked_.out_path + ": " + ec.message());
}

RunJob::MadeWorkDirs::~MadeWorkDirs() {
  if (!take_back) return;
  std::error_code ec;
  for (const std::string& dir : dirs) {
    if (!std::filesystem::remove(dir, ec)) break;  // not empty: something else is in it
  }
}

void RunJob::DecideRoot() {
  if (!checked_.schedulers_note.empty()) progress_.Note(checked_.schedulers_note);
  if (!checked_.machine_note.empty()) progress_.Note(checked_.machine_note);
  root_ = RunningAsRoot();
  want_switching_ = !config_.schedulers.empty() || !checked_.queue_attrs.empty();
  target_options_ = checked_.target;
  if (root_) return;
  const bool wanted_device = target_options_.scratch_bytes > 0 || target_options_.emulated;
  progress_.Note(want_switching_ || wanted_device
                     ? "elevbench: not root: running on the current scheduler only (no "
                       "switching, no scratch or emulated device, no cache drop)"
                     : "elevbench: not root: caches are not dropped between cells (a suite "
                       "still evicts its own files)");
  want_switching_ = target_options_.emulated = false;
  target_options_.scratch_bytes = 0;
}

bool RunJob::OpenJournal(std::string* err) {
  InstallInterruptHandlers();
  if (!root_) return true;
  return OpenCommandJournal(&journal_, &progress_,
                            "elevbench run (pid " + std::to_string(getpid()) + ")", err);
}

bool RunJob::MakeTarget(std::string* err) {
  return target_.Create(target_options_, &journal_, &progress_, err) &&
         (checked_.lanes <= 1 ||
          lanes_.CreateDisks(checked_.lanes, config_.lanes, target_options_.emulated_options,
                             target_.stack(), &journal_, &progress_, err));
}

bool RunJob::AuthorizeSwitching(std::string* err) {
  control_ = std::make_unique<DeviceControl>(sysfs_, &journal_, target_.disks());
  if (!want_switching_ || target_.created_device()) return true;
  const std::vector<std::string>& disks = target_.disks();
  if (disks.empty()) {
    return Fail(err, "cannot find the block device under " + target_.directory() +
                         " to switch its scheduler");
  }
  if (config_.target.device.empty() ||
      std::find(disks.begin(), disks.end(), config_.target.device) == disks.end()) {
    return Fail(err, "refusing to change the queue of " + disks.front() + " (it holds " +
                         target_.directory() + "); name it with --device " + disks.front() +
                         " to allow this");
  }
  return true;
}

bool RunJob::SetUpDevices(std::string* err) {
  configs_ = checked_.configs;
  if (target_.emulated()) pinned_ = EmulatedQueueAttrs(target_.stack());
  for (const auto& a : checked_.queue_attrs) pinned_.push_back(a);
  switching_ = root_ && (want_switching_ || target_.created_device());
  if (switching_) {
    // A device elevbench made exists for the comparison: without --schedulers, compare them all.
    if (checked_.all_schedulers || configs_.empty()) {
      std::vector<std::string> available;
      if (!control_->AvailableSchedulers(&available, err)) return false;
      configs_ = ExpandAll(available);
    }
    if (!pinned_.empty() && !control_->PinQueueAttrs(pinned_, err)) {
      return Fail(err, "--queue: " + *err);
    }
  }
  if (checked_.lanes > 1) {  // each lane's disk its own writeback limit
    return lanes_.SetUpDevices(sysfs_, &journal_, control_.get(), pinned_, err);
  }
  return !target_.emulated() || SetUpWriteback(err);
}

bool RunJob::SetUpWriteback(std::string* err) {
  EmulatedWriteback set;
  if (!SetUpEmulatedWriteback(sysfs_, &journal_, target_.stack().loop_name, &set, err)) {
    return false;
  }
  disk_writeback_ = std::move(set.described);
  vm_written_ = std::move(set.vm);
  return true;
}

namespace {

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

}  // namespace

// --machine disk-cpus=shared: the emulated disk's daemon into a cpuset of the machine's CPUs, as
// a lane's (docs/lanes.md), so that a serial run measures what one lane of a box without a CPU
// per disk does.
bool RunJob::ShareMachineCpusWithDisk(std::string* err) {
  MachineSpec disk;
  disk.cpus = checked_.machine_spec.cpus;
  disk.cpu_list = cgroups_.cpuset_cpus();
  if (!disk_cgroups_.Create(disk, checked_.cgroup_layout,
                            "elevbench-machine-" + std::to_string(getpid()) + "-disk", &journal_,
                            err) ||
      !disk_cgroups_.Enter(target_.stack().daemon_pid, err)) {
    return false;
  }
  emulated_machine_["disk_cpus"] = "shared";
  return true;
}

bool RunJob::MakeMachineCgroups(std::string* err) {
  const CheckedRun& c = checked_;
  if (c.lanes > 1) {  // the lanes' cgroups instead of the machine's (docs/lanes.md)
    if (!lanes_.CreateCgroups(c.machine_spec, c.cgroup_layout, c.cpus_per_lane, &journal_, err)) {
      return false;
    }
    if (c.machine_spec.limits()) emulated_machine_ = LaneMachineJson(c);
    return true;
  }
  if (!c.machine_spec.limits()) return true;
  if (!cgroups_.Create(c.machine_spec, c.cgroup_layout,
                       "elevbench-machine-" + std::to_string(getpid()), &journal_, err)) {
    return Fail(err, "--machine: " + *err);
  }
  emulated_machine_ = cgroups_.Describe(c.machine_spec);
  if (c.machine_spec.disk_shares_cpus && !ShareMachineCpusWithDisk(err)) {
    return Fail(err, "--machine disk-cpus=shared: " + *err);
  }
  std::string where;
  for (const std::string& p : cgroups_.paths()) where += (where.empty() ? "" : ", ") + p;
  progress_.Note("elevbench: machine " + c.suite_machine.emulated_profile + ": " +
                 DescribeMachineLimits(c.machine_spec.cpus,
                                       emulated_machine_.value("memory_bytes", uint64_t{0})) +
                 (cgroups_.cpuset_cpus().empty() ? "" : " (CPU " + cgroups_.cpuset_cpus() + ")") +
                 (c.machine_spec.memory_bytes > 0 ? ", no swap" : "") + "; cgroup v" +
                 std::to_string(c.cgroup_layout.version) + ": " + where);
  return true;
}

bool RunJob::OpenTracer(std::string* err) {
  const TraceMode mode = config_.trace_requests;
  if (mode == TraceMode::kOff || target_.disks().empty()) return true;
  if (checked_.lanes > 1) {  // one tracer per lane's disk
    if (!lanes_.OpenTracers(mode, work_dir_, &journal_, err)) return false;
    trace_mode_ = mode;
    traced_disk_ = "every lane's";
    return true;
  }
  return OpenSerialTracer(err);
}

// The serial run's tracer: the disk is the one we made or the one named with --device.
bool RunJob::OpenSerialTracer(std::string* err) {
  const TraceMode mode = config_.trace_requests;
  const std::string disk =
      target_.created_device() ? target_.disks().front() : config_.target.device;
  RequestTracerOptions options;
  options.mode = mode;
  options.disk = disk;
  options.work_dir = work_dir_;
  if (!ReadDiskNumbers(sysfs_, disk, &options.major, &options.minor, err)) {
    return Fail(err, "--trace-requests: cannot read the device number of " + disk + ": " + *err);
  }
  if (!tracer_.Open(&journal_, options, err)) return false;
  trace_mode_ = mode;
  traced_disk_ = disk;
  progress_.Note(std::string("elevbench: tracing the requests of ") + disk + " (" +
                 TraceModeName(mode) + ")");
  return true;
}

// The session's settings: identifiers and labels per configuration, the plan, the hooks.
void RunJob::DescribeSession() {
  const RunConfig& o = config_;
  SessionConfig& sc = session_;
  const std::vector<SchedulerConfig> named = switching_ ? configs_ : std::vector<SchedulerConfig>{};
  const RunNames names = o.label_prefix.empty()
                             ? NameConfigurations(named, machine_.kernel, o.identifier,
                                                  CurrentSchedulerLabel(control_->Snapshot()))
                             : NameKernelConfigurations(named, o.label_prefix);
  sc.identifiers = names.identifiers;
  sc.labels = names.labels;
  sc.configuration_labels = names.configuration_labels;
  sc.configs = named;
  if (AnyControl(checked_.controls)) {  // each configuration once per control
    const ControlledConfigurations crossed = CrossWithControls(named, names, checked_.controls);
    sc.identifiers = crossed.names.identifiers;
    sc.labels = crossed.names.labels;
    sc.configuration_labels = crossed.names.configuration_labels;
    sc.configs = crossed.configs;
    sc.controls.clear();
    for (size_t i = 0; i < crossed.control_of.size(); ++i) {
      const size_t j = crossed.control_of[i];
      const std::string scheduler = i < crossed.configs.size() ? crossed.configs[i].scheduler : "";
      sc.controls.push_back({checked_.controls[j].text, control_placements_[j].load,
                             control_placements_[j].probe,
                             IoCostStep(checked_.controls[j], scheduler)});
    }
  }
  sc.seed = o.seed_given ? o.seed : std::random_device{}();
  sc.repetitions = checked_.repetitions;
  sc.adaptive = checked_.adaptive;
  sc.root = root_;
  sc.drop_caches = root_ && !o.no_drop_caches;
  sc.fresh_fs = o.fresh_fs;
  sc.out_path = checked_.out_path;
  sc.work_dir = work_dir_;
  sc.timeout_seconds = o.timeout_seconds;
  sc.measure = o.measure;
  sc.stop_requested = InterruptRequested;
  sc.stop_reason = [] { return "interrupted by signal " + std::to_string(InterruptSignal()); };
  if (checked_.shard.given()) {  // --shard I/N: this box's slice of the whole plan (docs/ci.md)
    sc.shard = static_cast<int>(checked_.shard.index);
    sc.plan_cells = DealPlanToShard(
        BuildRunPlan(sc.identifiers.size(), o.suite->Variants().size(), sc.repetitions, sc.seed),
        checked_.shard);
  }
}

void RunJob::Describe() {
  const RunConfig& o = config_;
  DescribeSession();
  const SessionConfig& sc = session_;
  doc_.suite = o.suite_name;
  doc_.context = RunContextJson(
      {o.command_line, machine_, emulated_machine_, checked_.fio_version, &target_, switching_,
       pinned_, sc.seed, root_, sc.drop_caches, o.timeout_seconds,
       o.suite->CachePolicy(checked_.lanes > 1 && sc.drop_caches
                                ? "; each lane's filesystem remounted before each cell (its "
                                  "page cache, dentries and inodes dropped)"
                                : GlobalCacheDropNote(root_, sc.drop_caches)),
       vm_written_, disk_writeback_});
  if (sc.fresh_fs) doc_.context["fresh_fs"] = true;  // each cell on a filesystem made for it
  doc_.context["repetitions"] = sc.repetitions;      // auto: the cap until rounds have run
  // With the identifiers and repetitions, the plan's size: what an unfinished file fell short of.
  doc_.context["variants"] = o.suite->Variants().size();
  if (AnyControl(checked_.controls)) doc_.context["controls"] = ControlsContext();
  doc_.context["trace_requests"] = {{"mode", TraceModeName(trace_mode_)}, {"device", traced_disk_}};
  if (checked_.shard.given()) {
    doc_.context["shard"] =
        ShardContextJson(checked_.shard, sc.plan_cells.size(),
                         sc.identifiers.size() * o.suite->Variants().size() * sc.repetitions);
  }
  if (!o.lanes.empty()) {
    doc_.context["lanes"] =
        checked_.lanes > 1 ? lanes_.Describe() : nlohmann::json{{"count", 1}, {"asked", o.lanes}};
  }
}

// What the serial session may touch of the target.
SessionTarget RunJob::SerialSessionTarget() {
  SessionTarget st;
  st.directory = target_.directory();
  const RunTarget* synced = &target_;
  st.drop_caches = [synced](std::string* err) { return synced->DropCaches(err); };
  DeviceControl* control = control_.get();
  if (synced->CanRemakeFilesystem()) {
    st.remake_filesystem = RemakeThenRepin(
        [synced](std::string* err) { return synced->RemakeFilesystem(err); }, control);
  }
  if (switching_) {
    st.control = control;
  } else {
    st.snapshot = [control] { return control->Snapshot(); };
  }
  if (target_.emulated()) st.disk_counters = EmulatedDiskCounters(&target_.stack());
  if (trace_mode_ != TraceMode::kOff) st.tracer = &tracer_;
  st.device = target_.device();
  if (root_) st.journal = &journal_;
  st.failure_cause = DiskFailureCause;
  const RunTarget* target = &target_;
  st.lost = [target](std::string* why) { return target->Lost(why); };
  return st;
}

bool RunJob::RunCells(RunOutcome* outcome, std::string* err) {
  *outcome = RunOutcome{};
  if (checked_.lanes > 1) {
    outcome->finished =
        lanes_.RunSessions(*config_.suite, session_, switching_, session_.drop_caches, &progress_,
                           &doc_, &outcome->failed_cells, &outcome->error);
    lanes_.CloseTracers();
    return true;
  }
  if (checked_.machine_spec.limits() && !cgroups_.Enter(getpid(), err)) {
    return Fail(err, "--machine: " + *err);
  }
  {
    // A device lost under the run stops it within a second, not at fio's timeout.
    const RunTarget* target = &target_;
    // Said at once (the run's last line says it again once everything is restored).
    const std::function<void(const std::string&)> report = report_error_;
    TargetWatch watch([target](std::string* why) { return target->Lost(why); },
                      [report](const std::string& why) {
                        if (report) report("stopping the run: " + why);
                        RequestFaultStop();
                      },
                      std::chrono::milliseconds(250));
    const std::function<std::string()> by_signal = session_.stop_reason;
    session_.stop_reason = [&watch, by_signal] {
      std::string why = "stopped";
      if (InterruptSignal() != 0 || !watch.Lost(&why)) return by_signal();
      return why;
    };
    SystemFioRunner fio;
    outcome->finished = RunSession(*config_.suite, session_, SerialSessionTarget(), &fio,
                                   &progress_, &doc_, &outcome->failed_cells, &outcome->error);
    session_.stop_reason = by_signal;
  }
  std::string leave_err;
  // What is not given back here, the restore gives back.
  if (!cgroups_.Leave(&leave_err) && report_error_) report_error_("--machine: " + leave_err);
  if (!tracer_.Close(&leave_err) && report_error_) report_error_("--trace-requests: " + leave_err);
  return true;
}

bool RunJob::Restore() { return guard_.Restore(); }

}  // namespace elevbench
