#include "harness/run/run_lanes.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/core/stuck_io.h"
#include "harness/device/bdi_limits.h"
#include "harness/device/filesystem_reset.h"
#include "harness/fio/fio_runner.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "harness/run/lanes.h"
#include "harness/run/run_plan.h"
#include "harness/run/session_hooks.h"
#include "harness/run/target.h"
#include "harness/run/target_watch.h"

namespace elevbench {

struct RunLanes::Lane {
  const EmulatedStack* stack = nullptr;  // lane 0: the run target's
  EmulatedStack own_stack;
  DeviceControl* control = nullptr;  // lane 0: the run's
  std::unique_ptr<DeviceControl> own_control;
  std::string bdi;
  std::string cpus;
  MachineCgroups session_cgroups;
  MachineCgroups disk_cgroups;
  RequestTracer tracer;
  bool traced = false;
  DaemonLiveness liveness;  // asked by the parent's target watch only
  pid_t worker = 0;
  int exit_code = -1;
};

namespace {

// The CPUs of lane `k` of `per_lane` each, from the list allowed here ("0-1").
bool LaneCpus(const std::string& allowed, int k, int per_lane, std::string* cpus,
              std::string* err) {
  std::vector<int> list;
  if (!ParseCpuList(allowed, &list)) return Fail(err, "cannot read the CPU list '" + allowed + "'");
  const size_t from = static_cast<size_t>(k) * static_cast<size_t>(per_lane);
  if (from + static_cast<size_t>(per_lane) > list.size()) {
    return Fail(err, "lane " + std::to_string(k) + " needs CPUs beyond the " +
                         std::to_string(list.size()) + " allowed here (" + allowed + ")");
  }
  cpus->clear();
  for (size_t i = from; i < from + static_cast<size_t>(per_lane); ++i) {
    *cpus += (cpus->empty() ? "" : ",") + std::to_string(list[i]);
  }
  return true;
}

// One line on stderr, "elevbench: <message>", as the CLI prints its errors; safe from the
// target watch's thread (one fprintf).
void SayOnStderr(const std::string& message) {
  std::fprintf(stderr, "elevbench: %s\n", message.c_str());
}

int ExitCodeOf(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1;
}

// A session's folder name under the run's work folder: "lane1", or "alone" for the cells that
// take no lanes (they run after the lanes, on lane 0's disk).
std::string SessionName(int k, bool alone) { return alone ? "alone" : "lane" + std::to_string(k); }

}  // namespace

RunLanes::RunLanes() = default;
RunLanes::~RunLanes() { CloseTracers(); }

bool RunLanes::CreateDisks(int count, const std::string& asked, const EmulatedOptions& options,
                           const EmulatedStack& first, RestoreJournal* journal, Progress* progress,
                           std::string* err) {
  asked_ = asked;
  fs_ = options.fs;
  for (int k = 0; k < count; ++k) {
    auto lane = std::make_unique<Lane>();
    if (k == 0) {
      lane->stack = &first;
    } else {
      progress->Note("elevbench: building lane " + std::to_string(k) + "'s emulated " +
                     options.profile_name + " disk");
      if (!CreateEmulatedStack(options, journal, &lane->own_stack, err)) {
        *err = "lane " + std::to_string(k) + "'s emulated disk: " + *err;
        return false;
      }
      lane->stack = &lane->own_stack;
    }
    lanes_.push_back(std::move(lane));
  }
  return true;
}

bool RunLanes::SetUpDevices(const Sysfs& sysfs, RestoreJournal* journal, DeviceControl* first,
                            const std::vector<std::pair<std::string, std::string>>& pinned,
                            std::string* err) {
  const LaneWriteback limits = EmulatedWritebackLimits(count());
  lane_dirty_bytes_ = limits.lane_dirty_bytes;
  lane_background_bytes_ = limits.lane_background_bytes;
  for (const auto& [path, value] : limits.vm) vm_[path] = value;
  if (!ApplyVmSettings(sysfs, journal, limits.vm, err)) {
    *err = "vm writeback settings: " + *err;
    return false;
  }
  for (size_t k = 0; k < lanes_.size(); ++k) {
    Lane& lane = *lanes_[k];
    if (k == 0) {
      lane.control = first;
    } else {
      lane.own_control =
          std::make_unique<DeviceControl>(sysfs, journal, std::vector{lane.stack->loop_name});
      lane.control = lane.own_control.get();
      if (!pinned.empty() && !lane.control->PinQueueAttrs(pinned, err)) {
        *err = "lane " + std::to_string(k) + ": " + *err;
        return false;
      }
    }
    // Journal the disk's scheduler now: the lane's child switches it, and only the parent may
    // write the journal.
    if (!lane.control->JournalDisks(err)) return false;
    if (!BdiPathOfDisk(sysfs, lane.stack->loop_name, &lane.bdi, err) ||
        !ApplyBdiLimits(sysfs, journal, lane.bdi, limits.ratio_fine, err)) {
      *err = "lane " + std::to_string(k) + "'s writeback limit: " + *err;
      return false;
    }
  }
  return true;
}

bool RunLanes::CreateCgroups(const MachineSpec& machine, const CgroupLayout& layout,
                             int cpus_per_lane, RestoreJournal* journal, std::string* err) {
  cpus_per_lane_ = cpus_per_lane;
  lane_memory_bytes_ = machine.memory_bytes;
  std::string allowed;
  const Sysfs sysfs;
  const std::string parent = layout.cpuset_parent;
  if (!sysfs.Read(
          parent + (layout.version == 2 ? "/cpuset.cpus.effective" : "/cpuset.effective_cpus"),
          &allowed, err) &&
      !sysfs.Read(parent + "/cpuset.cpus", &allowed, err)) {
    return false;
  }
  for (size_t k = 0; k < lanes_.size(); ++k) {
    Lane& lane = *lanes_[k];
    if (!LaneCpus(allowed, static_cast<int>(k), cpus_per_lane, &lane.cpus, err)) return false;
    const std::string name = "elevbench-lane-" + std::to_string(getpid()) + "-" + std::to_string(k);
    MachineSpec session = machine;
    session.cpus = cpus_per_lane;
    session.cpu_list = lane.cpus;
    MachineSpec disk;
    disk.cpus = cpus_per_lane;
    disk.cpu_list = lane.cpus;
    if (!lane.session_cgroups.Create(session, layout, name, journal, err) ||
        !lane.disk_cgroups.Create(disk, layout, name + "-disk", journal, err) ||
        !lane.disk_cgroups.Enter(lane.stack->daemon_pid, err)) {
      *err = "lane " + std::to_string(k) + "'s cgroups: " + *err;
      return false;
    }
  }
  return true;
}

bool RunLanes::OpenTracers(TraceMode mode, const std::string& work_dir, RestoreJournal* journal,
                           std::string* err) {
  if (mode == TraceMode::kOff) return true;
  for (size_t k = 0; k < lanes_.size(); ++k) {
    Lane& lane = *lanes_[k];
    RequestTracerOptions options;
    options.mode = mode;
    options.disk = lane.stack->loop_name;
    options.work_dir = work_dir;
    options.lane = static_cast<int>(k);
    std::string dev;
    if (!Sysfs{}.Read("/sys/block/" + options.disk + "/dev", &dev, err) ||
        std::sscanf(dev.c_str(), "%u:%u", &options.major, &options.minor) != 2) {
      return Fail(err, "--trace-requests: cannot read the device number of " + options.disk);
    }
    if (!lane.tracer.Open(journal, options, err)) return false;
    lane.traced = true;
  }
  return true;
}

void RunLanes::CloseTracers() {
  for (auto& lane : lanes_) {
    std::string ignored;
    if (lane->traced) (void)lane->tracer.Close(&ignored);
    lane->traced = false;
  }
}

namespace {

// What lane `lane`'s session may touch: its disk, its control, its counters, its cache drop and
// its tracer.
SessionTarget LaneTarget(const EmulatedStack* stack, DeviceControl* control, bool switching,
                         bool drop_caches, RequestTracer* tracer) {
  SessionTarget st;
  st.directory = stack->mountpoint;
  if (switching) {
    st.control = control;
  } else {
    st.snapshot = [control] { return control->Snapshot(); };
  }
  st.disk_counters = EmulatedDiskCounters(stack);
  if (drop_caches) {
    st.drop_caches = [stack](std::string* err) {
      return RemountToDropCaches(stack->loop_device, stack->mountpoint, err);
    };
  }
  st.tracer = tracer;
  st.failure_cause = DiskFailureCause;
  // The lane's own view of its disk, so that the cell it was running is recorded as failed
  // with the cause; the parent's watch (WaitForLanes) is what stops the run.
  auto liveness = std::make_shared<DaemonLiveness>();
  st.lost = [stack, liveness](std::string* why) {
    return EmulatedStackLost(*stack, liveness.get(), why);
  };
  return st;
}

// The child of lane `k`: into its cgroups, then the session on its share of the plan, into its
// own results file. Never returns: it must not unwind the parent's state (the journal guard).
[[noreturn]] void RunLaneChild(pid_t parent, int k, MachineCgroups* cgroups, Suite& suite,
                               const SessionConfig& config, const SessionTarget& target,
                               ResultsDocument doc) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(1);  // the run died before the line above
  std::string err;
  int code = 0;
  Progress progress(stderr, false);
  if (!cgroups->Enter(getpid(), &err)) {
    SayOnStderr("lane " + std::to_string(k) + ": " + err);
    code = 1;
  } else {
    SystemFioRunner fio;
    size_t failed = 0;
    if (!RunSession(suite, config, target, &fio, &progress, &doc, &failed, &err)) {
      if (!InterruptRequested()) SayOnStderr("lane " + std::to_string(k) + ": " + err);
      code = InterruptRequested() ? 130 : 1;
    }
  }
  std::fflush(nullptr);
  _exit(code);
}

// The sessions' files as they are now, merged into *doc, summarized and saved at the run's
// path. A session that has written nothing yet adds nothing.
bool MergeLaneFiles(const Suite& suite, const SessionConfig& config,
                    const std::vector<std::string>& files, ResultsDocument* doc, std::string* err) {
  std::vector<ResultsDocument> docs(files.size());
  for (size_t k = 0; k < files.size(); ++k) {
    std::string e;
    if (!LoadResultsFile(files[k], &docs[k], &e)) docs[k] = ResultsDocument{};
  }
  if (!MergeLaneDocuments(docs, doc, err)) return false;
  doc->summary = suite.Summarize(*doc);
  return SaveResultsFile(config.out_path, *doc, err);
}

}  // namespace

bool RunLanes::RunSessions(Suite& suite, const SessionConfig& config, bool switching,
                           bool drop_caches, Progress* progress, ResultsDocument* doc,
                           size_t* failed, std::string* err) {
  *failed = 0;
  doc->identifiers = config.identifiers;
  doc->labels = config.labels;
  doc->parameters = suite.Parameters();
  doc->complete = false;
  const std::vector<SuiteVariant> variants = suite.Variants();
  std::vector<bool> takes_lanes(variants.size());
  for (size_t v = 0; v < variants.size(); ++v) {
    takes_lanes[v] = suite.VariantTakesLanes(variants[v], cpus_per_lane_);
  }
  const LaneDeal deal = DealPlanToLanes(
      BuildRunPlan(config.identifiers.size(), variants.size(), config.repetitions, config.seed),
      lanes_.size(), takes_lanes);
  if (!deal.alone.empty() && doc->context.contains("lanes")) {
    doc->context["lanes"]["alone_cells"] = deal.alone.size();
  }
  if (!SaveResultsFile(config.out_path, *doc, err)) return false;
  files_.clear();
  progress->Note("elevbench: " + std::to_string(lanes_.size()) + " lanes at once");
  if (!RunRound(suite, config, switching, drop_caches, deal.lanes, false, doc, err)) return false;
  if (!deal.alone.empty()) {
    progress->Note("elevbench: " + std::to_string(deal.alone.size()) +
                   " cells that take no lanes, alone on lane 0's disk");
    // Alone, lane 0 is the serial run: its disk's daemon off the lane's CPUs, as there.
    std::string e;
    if (!lanes_[0]->disk_cgroups.Leave(&e)) return Fail(err, "lane 0's disk daemon: " + e);
    if (!RunRound(suite, config, switching, drop_caches, {deal.alone}, true, doc, err)) {
      return false;
    }
  }
  for (const CellRecord& c : doc->cells) *failed += c.status == "failed";
  return true;
}

bool RunLanes::RunRound(Suite& suite, const SessionConfig& config, bool switching, bool drop_caches,
                        const std::vector<std::vector<size_t>>& shares, bool alone,
                        ResultsDocument* doc, std::string* err) {
  std::fflush(nullptr);
  if (!StartLanes(suite, config, switching, drop_caches, shares, alone, *doc, err)) {
    StopLanes();
    return false;
  }
  std::string stopped_why;
  const bool all_exited = WaitForLanes(suite, config, doc, &stopped_why);
  if (!MergeLaneFiles(suite, config, files_, doc, err)) return false;
  if (!stopped_why.empty()) return Fail(err, stopped_why);
  if (!all_exited) return Fail(err, "a lane did not exit after it was stopped");
  if (InterruptRequested()) {
    return Fail(err, "interrupted by signal " + std::to_string(InterruptSignal()));
  }
  for (size_t k = 0; k < lanes_.size(); ++k) {
    if (lanes_[k]->exit_code != 0) {
      return Fail(err, "lane " + std::to_string(k) + " exited with code " +
                           std::to_string(lanes_[k]->exit_code));
    }
  }
  return true;
}

bool RunLanes::StartLanes(Suite& suite, const SessionConfig& config, bool switching,
                          bool drop_caches, const std::vector<std::vector<size_t>>& shares,
                          bool alone, const ResultsDocument& doc, std::string* err) {
  // Each session starts from the run's header: not from the cells an earlier round merged in.
  ResultsDocument header = doc;
  header.cells.clear();
  header.records.clear();
  header.setup = ResultsDocument{}.setup;
  header.summary = ResultsDocument{}.summary;
  for (size_t k = 0; k < lanes_.size(); ++k) {
    Lane& lane = *lanes_[k];
    lane.worker = 0;
    lane.exit_code = 0;  // a lane without a share this round has nothing to run
    if (k >= shares.size()) continue;
    SessionConfig lc = config;
    lc.lane = static_cast<int>(k);
    lc.plan_cells = shares[k];
    // Each session's job files, fio outputs and the suites' own files (nickbench's iolog, the
    // set-up's job) in a folder of its own: the lanes run the same names at the same time.
    lc.work_dir = config.work_dir + "/" + SessionName(static_cast<int>(k), alone);
    lc.out_path = lc.work_dir + ".json";
    if (mkdir(lc.work_dir.c_str(), 0755) != 0 && errno != EEXIST) {
      return Fail(err, "cannot create " + lc.work_dir + ": " + std::strerror(errno));
    }
    SessionTarget target = LaneTarget(lane.stack, lane.control, switching, drop_caches,
                                      lane.traced ? &lane.tracer : nullptr);
    if (config.fresh_fs) {
      target.remake_filesystem = RemakeThenRepin(
          [stack = lane.stack, fs = fs_](std::string* e) {
            return RemakeFilesystem(stack->loop_device, fs, stack->mountpoint, e);
          },
          lane.control);
    }
    files_.push_back(lc.out_path);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) return Fail(err, std::string("cannot start a lane: ") + std::strerror(errno));
    if (pid == 0) {
      RunLaneChild(parent, static_cast<int>(k), &lane.session_cgroups, suite, lc, target, header);
    }
    lane.worker = pid;
    lane.exit_code = -1;
  }
  return true;
}

bool RunLanes::WaitForLanes(const Suite& suite, const SessionConfig& config, ResultsDocument* doc,
                            std::string* stopped_why) {
  // Every lane's disk watched as the serial run watches its target (docs/reliability.md): the
  // first one lost stops the run within a second.
  TargetWatch watch(
      [this](std::string* why) {
        for (size_t k = 0; k < lanes_.size(); ++k) {
          if (EmulatedStackLost(*lanes_[k]->stack, &lanes_[k]->liveness, why)) {
            *why = "lane " + std::to_string(k) + ": " + *why;
            return true;
          }
        }
        return false;
      },
      [](const std::string& why) {
        SayOnStderr("stopping the run: " + why);
        RequestFaultStop();
      },
      std::chrono::milliseconds(250));
  std::optional<std::chrono::steady_clock::time_point> stopped_at;
  size_t ticks = 0;
  const auto running = [this] {
    return std::count_if(lanes_.begin(), lanes_.end(),
                         [](const std::unique_ptr<Lane>& l) { return l->exit_code < 0; });
  };
  while (running() > 0) {
    if (InterruptRequested() && !stopped_at) {
      // A fault stop has no signal of its own: the lanes get SIGTERM, as on a user's.
      StopLanes(InterruptSignal() != 0 ? InterruptSignal() : SIGTERM);
      stopped_at = std::chrono::steady_clock::now();
    }
    if (stopped_at && !ForceLanesAfterStop(*stopped_at)) return false;
    for (auto& lane : lanes_) {
      int status = 0;
      if (lane->exit_code >= 0 || waitpid(lane->worker, &status, WNOHANG) != lane->worker) continue;
      lane->exit_code = ExitCodeOf(status);
    }
    if (running() > 0) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    // Once a second the run's file gets the lanes' finished cells, so that a SIGKILL of the
    // run keeps them there too (and not only in the lanes' own files).
    if (++ticks % 10 == 0) {
      std::string ignored;
      (void)MergeLaneFiles(suite, config, files_, doc, &ignored);
    }
  }
  if (FaultStopRequested()) (void)watch.Lost(stopped_why);
  return true;
}

void RunLanes::StopLanes(int signal) {
  for (auto& lane : lanes_) {
    if (lane->worker > 0 && lane->exit_code < 0) kill(lane->worker, signal);
  }
}

bool RunLanes::ForceLanesAfterStop(std::chrono::steady_clock::time_point stopped_at) {
  // A lane stops after its current cell's children, which ChildProcess already bounds (SIGKILL,
  // stuck I/O broken, abandoned); these deadlines are for a lane that still does not exit.
  constexpr double kKillAfterSeconds = 60, kAbandonAfterSeconds = 90;
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped_at).count();
  if (waited > kKillAfterSeconds && !lanes_killed_) {
    SayOnStderr("lanes still running " + std::to_string(static_cast<int>(kKillAfterSeconds)) +
                " s after the stop: killing them");
    BreakStuckIo("lanes that do not stop", waited);
    StopLanes(SIGKILL);
    lanes_killed_ = true;
  }
  return waited <= kAbandonAfterSeconds;
}

nlohmann::json RunLanes::Describe() const {
  nlohmann::json lanes = nlohmann::json::array();
  for (size_t k = 0; k < lanes_.size(); ++k) {
    const Lane& lane = *lanes_[k];
    nlohmann::json cgroups = lane.session_cgroups.paths();
    for (const std::string& p : lane.disk_cgroups.paths()) cgroups.push_back(p);
    lanes.push_back({{"lane", k},
                     {"loop_device", lane.stack->loop_device},
                     {"mountpoint", lane.stack->mountpoint},
                     {"daemon_pid", lane.stack->daemon_pid},
                     {"cpus", lane.cpus},
                     {"bdi", lane.bdi},
                     {"cgroups", cgroups}});
  }
  // The machine each lane is, as a serial run would ask for it (docs/lanes.md: like with like).
  std::string serial = "--machine cpus=" + std::to_string(cpus_per_lane_);
  if (lane_memory_bytes_ > 0) serial += ",ram=" + std::to_string(lane_memory_bytes_ >> 20) + "M";
  return {{"count", lanes_.size()},
          {"asked", asked_},
          {"cpus_per_lane", cpus_per_lane_},
          {"serial_equivalent", serial},
          {"lane_dirty_bytes", lane_dirty_bytes_},
          {"lane_background_bytes", lane_background_bytes_},
          {"vm", vm_},
          {"lanes", lanes}};
}

}  // namespace elevbench
