#include "harness/run/kernels_job.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string_view>

#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/core/strings.h"
#include "harness/core/system_info.h"
#include "harness/device/scheduler_config.h"
#include "harness/machine/machine_spec.h"
#include "harness/process/subprocess.h"
#include "harness/run/kernel_checks.h"
#include "harness/run/run_labels.h"

namespace elevbench {
namespace fs = std::filesystem;
namespace {

constexpr uint64_t kMiB = 1ULL << 20;

// The guest's memory without --machine: half the host's, at most 4 GiB (TCG takes host memory
// only as the guest touches it).
uint64_t DefaultGuestMemoryBytes(uint64_t host_bytes) {
  return std::min<uint64_t>(host_bytes / 2, 4096 * kMiB);
}

// kCpuProbeLoop's wall time on the host (the guest's is timed by its init script); 0 when it
// could not run.
double HostCpuProbeSeconds() {
  ProcessOptions options;
  options.timeout_seconds = 60;
  ProcessResult r;
  std::string err;
  if (!RunProcess({"/bin/busybox", "sh", "-c", kCpuProbeLoop}, options, &r, &err) ||
      r.exit_code != 0) {
    return 0;
  }
  return r.usage.elapsed_seconds;
}

// How the progress names a guest's accelerator and clock.
std::string GuestClockName(const GuestRun& run) {
  return run.kvm ? "KVM" : run.instruction_clock ? "TCG on the instruction clock" : "TCG";
}

}  // namespace

KernelsJob::KernelsJob(RunConfig config, std::function<void(const std::string& line)> report_error)
    : config_(std::move(config)),
      report_error_(std::move(report_error)),
      progress_(Progress::ForStderr()) {}

bool KernelsJob::CheckKernelOptions(std::string* err) {
  if (!ParseKernelChoices(config_.kernels, config_.kernel_images, &choices_, err)) return false;
  if (!config_.schedulers.empty() && config_.schedulers != "all" &&
      !ParseSchedulerList(config_.schedulers, &configs_, err)) {
    return Fail(err, "--schedulers: " + *err);
  }
  // Every guest has cgroup v2 with io: the words are checked here, what each kernel offers them
  // below, from its config.
  if (!ParseIoControls(config_.controls, /*io_v2=*/true, &controls_, err)) return false;
  // A build is checked from its files before root and the tools: its config is known before it
  // is copied, so what it lacks is refused before anything is made; so are the host's files a
  // guest cannot reach (the run's own check looks again once the suite's Prepare made a
  // composite's parts) and a package the package lists do not know.
  if (!InspectKernelBuilds(err) || !CheckHostPathsForGuests(config_, err) ||
      !CheckKernelPackagesKnown(choices_, err)) {
    return false;
  }
  if (!config_.directory.empty() || !config_.target.device.empty()) {
    return Fail(err,
                "--kernels runs each kernel in a guest, which sees no host disk or "
                "directory: use --emulated (or --scratch), not --dir or --device");
  }
  if (!ParseGuestLanes(config_.lanes, choices_.size(), &lanes_, err)) return false;
  config_.lanes.clear();  // the run in each guest is serial: the flag is the host's alone
  if (!config_.guest_clock.empty() && config_.guest_clock != "instructions" &&
      config_.guest_clock != "wall") {
    return Fail(err,
                "--guest-clock: expected instructions or wall, not '" + config_.guest_clock + "'");
  }
  if (!config_.label_prefix.empty())
    return Fail(err, "--label-prefix is a guest's, not --kernels'");
  if (!CheckInstructionClockCpus(config_, InstructionClock(), err)) return false;
  if (!RunningAsRoot()) {
    return Fail(err, "--kernels needs root: the guest shares the host's files through virtiofsd");
  }
  return CheckGuestTools(choices_, err);
}

bool KernelsJob::InspectKernelBuilds(std::string* err) {
  builds_.assign(choices_.size(), KernelBuild{});
  for (size_t k = 0; k < choices_.size(); ++k) {
    const KernelChoice& c = choices_[k];
    if (c.image.empty()) continue;
    if (!InspectKernelBuild(c.image, c.modroot, &builds_[k], err)) {
      return Fail(err, c.flag + ": " + *err);
    }
    if (!CheckKernelOffers(c, builds_[k].release, builds_[k].features, GuestFs(), configs_,
                           controls_, err)) {
      return false;
    }
  }
  return true;
}

bool KernelsJob::CacheKernel(size_t k, const std::string& cache, CachedKernel* kernel,
                             std::string* err) {
  const KernelChoice& c = choices_[k];
  if (!c.image.empty()) {
    const KernelBuild& b = builds_[k];
    bool copied = false;
    if (!CacheKernelBuild(cache, b, kernel, &copied, err)) return false;
    if (copied)
      progress_.Note("copied " + b.image + " (" + b.release + ") into " + cache + "/" + b.entry);
    return true;
  }
  std::string why;
  if (FindCachedKernel(cache, c.package, kernel, &why)) return true;
  progress_.Note("fetching " + c.package + " into " + cache + " (apt-get download)");
  return FetchDebianKernel(cache, c.package, kernel, err);
}

bool KernelsJob::ResolveKernels(bool fetch, std::vector<std::string>* notes, std::string* err) {
  const std::string cache = DefaultKernelCacheDir();
  for (size_t i = 0; i < choices_.size(); ++i) {
    CachedKernel k;
    std::string why;
    if (fetch) {
      if (!CacheKernel(i, cache, &k, err)) return false;
    } else if (!choices_[i].image.empty()) {
      k.release = builds_[i].release;
      k.features = builds_[i].features;
    } else if (!FindCachedKernel(cache, choices_[i].package, &k, &why)) {
      notes->push_back(choices_[i].package + " is not in the kernel cache: known to the package " +
                       "lists; its schedulers and controls are checked once it is fetched");
      continue;
    }
    if (!CheckKernelOffers(choices_[i], k.release, k.features, GuestFs(), configs_, controls_,
                           err)) {
      return false;
    }
    labels_.push_back(choices_[i].label.empty() ? KernelRowLabel(k.release) : choices_[i].label);
    kernels_.push_back(std::move(k));
  }
  if (!fetch) return true;  // --check: the labels of the kernels it knows are not all of them
  std::vector<std::string> sorted = labels_;
  std::sort(sorted.begin(), sorted.end());
  const auto dup = std::adjacent_find(sorted.begin(), sorted.end());
  if (dup != sorted.end()) {
    return Fail(err, "--kernels: two kernels are labelled '" + *dup + "' (set one with @LABEL)");
  }
  return true;
}

// Each kernel offers every scheduler named (CheckKernelOffers); the run's own check then takes
// the schedulers all of them offer (with --check, every kernel known without a download).
void KernelsJob::TakeCommonSchedulers() {
  // With no kernel known (--check: none cached yet), those the command line names (each
  // unknown kernel's are checked when it is fetched).
  if (kernels_.empty()) {
    for (const SchedulerConfig& c : configs_) config_.offered_schedulers.push_back(c.scheduler);
    return;
  }
  std::vector<std::string> common = kernels_.front().features.schedulers;
  for (size_t k = 0; k < kernels_.size(); ++k) {
    const std::vector<std::string>& has = kernels_[k].features.schedulers;
    std::vector<std::string> both;
    for (const std::string& s : common) {
      if (std::find(has.begin(), has.end(), s) != has.end()) both.push_back(s);
    }
    common = both;
  }
  config_.offered_schedulers = common;
}

RunFailure KernelsJob::Check(std::vector<std::string>* notes, std::string* err) {
  if (!CheckKernelOptions(err)) return RunFailure::kUsage;
  if (!ResolveKernels(/*fetch=*/false, notes, err)) return RunFailure::kUsage;
  TakeCommonSchedulers();
  RunJob checker(config_, report_error_);
  if (!checker.Check(err)) return RunFailure::kUsage;
  if (!checker.FindFio(err)) return RunFailure::kFailure;
  return RunFailure::kNone;
}

RunFailure KernelsJob::Prepare(std::string* err) {
  if (!CheckKernelOptions(err)) return RunFailure::kUsage;
  std::vector<std::string> no_notes;  // every kernel is fetched: none is unknown
  if (!ResolveKernels(/*fetch=*/true, &no_notes, err)) return RunFailure::kUsage;
  TakeCommonSchedulers();
  // The run's own step 1 on the host, as a guest will make it: options, the suite's Prepare,
  // the target's size, the results path; then the results' work directory.
  RunJob checker(config_, report_error_);
  if (!checker.Check(err)) return RunFailure::kUsage;
  if (!checker.FindFio(err)) return RunFailure::kFailure;
  if (!checker.MakeWorkDir(err)) return RunFailure::kUsage;
  out_path_ = checker.out_path();
  work_dir_ = checker.work_dir();
  disk_bytes_ = checker.checked().target.emulated
                    ? checker.checked().target.emulated_options.size_bytes
                    : checker.checked().target.scratch_bytes;
  machine_bytes_ = checker.checked().machine_spec.memory_bytes;
  machine_cpus_ = checker.checked().machine_spec.cpus;
  host_cpu_probe_seconds_ = HostCpuProbeSeconds();
  start_time_ = NowIso8601();
  InstallInterruptHandlers();
  if (!OpenCommandJournal(&journal_, &progress_,
                          "elevbench run --kernels (pid " + std::to_string(getpid()) + ")", err)) {
    return RunFailure::kFailure;
  }
  ProbeAccelerator();
  doc_.suite = config_.suite_name;
  return RunFailure::kNone;
}

void KernelsJob::ProbeAccelerator() {
  GuestRun probe = GuestRunOf(0);
  probe.work_dir = work_dir_ + "/kvm-probe";
  accelerator_ = ProbeGuestAccelerator(
      probe, "/run/elevbench-guest-" + std::to_string(getpid()) + "-kvm-probe", &journal_);
  progress_.Note("guests under " + std::string(accelerator_.kvm ? "KVM" : "TCG") + ": " +
                 accelerator_.why);
}

GuestRun KernelsJob::GuestRunOf(size_t k) const {
  GuestRun run;
  run.kernel = kernels_[k];
  run.work_dir = work_dir_ + "/kernel-" + labels_[k];
  run.log_path = run.work_dir + "/guest.log";
  std::vector<std::string> argv = {SelfExecutablePath()};
  const std::vector<std::string> args =
      GuestCommandArgs(config_.command_args, run.work_dir + "/results.json", labels_[k]);
  argv.insert(argv.end(), args.begin(), args.end());
  run.argv = std::move(argv);
  std::error_code ec;
  run.working_directory = fs::current_path(ec).string();
  const MachineInfo host = ReadMachineInfo();
  // One lane a guest, each on its share of the host's CPUs (--machine's CPUs where given); on
  // the instruction clock one vCPU, which QEMU runs on one thread.
  run.kvm = accelerator_.kvm;
  run.instruction_clock = !run.kvm && InstructionClock();
  run.cpus = run.instruction_clock ? 1
             : machine_cpus_ > 0   ? machine_cpus_
                                   : std::max(1, host.cpus / lanes_);
  const uint64_t machine =
      machine_bytes_ > 0 ? machine_bytes_ : DefaultGuestMemoryBytes(host.memory_bytes);
  // The machine, the emulated disk's image (tmpfs in the guest) and the kernel's own share.
  run.memory_mib = (machine + disk_bytes_) / kMiB + 512;
  return run;
}

std::unique_ptr<GuestVm> KernelsJob::StartGuest(size_t k, GuestRun* run, std::string* err) {
  *run = GuestRunOf(k);
  // The guest runs the host's binary by its path: one rebuilt during the run is gone there.
  constexpr std::string_view kDeleted = " (deleted)";
  const std::string& self = run->argv.front();
  if (self.size() > kDeleted.size() &&
      self.compare(self.size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0) {
    *err = "elevbench's own binary " + self.substr(0, self.size() - kDeleted.size()) +
           " was replaced during the run (rebuilt?), and a guest runs it by that path: run again";
    return nullptr;
  }
  std::error_code ec;
  fs::create_directories(run->work_dir, ec);
  progress_.BeginCell(k, labels_[k]);
  progress_.Note(GuestPrefix(k) + "booting " + kernels_[k].release + " (" + GuestClockName(*run) +
                 ", " + std::to_string(run->cpus) + " vCPU, " + std::to_string(run->memory_mib) +
                 " MiB)");
  progress_.Note(GuestPrefix(k) + "offers " + KernelOffersWords(kernels_[k].features));
  GuestLimits limits;
  if (config_.timeout_seconds > 0) {
    limits.stall_seconds = std::max(limits.stall_seconds, 2 * config_.timeout_seconds + 300);
  }
  auto vm = std::make_unique<GuestVm>(
      &journal_, "/run/elevbench-guest-" + std::to_string(getpid()) + "-" + std::to_string(k));
  if (!vm->Start(*run, limits, err)) return nullptr;
  return vm;
}

std::string KernelsJob::GuestPrefix(size_t k) const {
  return "kernel " + std::to_string(k + 1) + "/" + std::to_string(kernels_.size()) + " " +
         labels_[k] + ": ";
}

void KernelsJob::CollectGuest(size_t k, const GuestRun& run, const GuestOutcome& g,
                              const std::string& start_error, RunOutcome* outcome) {
  std::string failure =
      start_error.empty() ? g.failure : "the guest could not start: " + start_error;
  ResultsDocument d;
  std::string load_err;
  const bool loaded = LoadResultsFile(run.work_dir + "/results.json", &d, &load_err);
  if (failure.empty() && !loaded) failure = "the guest gave no results: " + load_err;
  if (failure.empty() && g.exit_code != 0 && !d.complete) {
    failure = "the run in the guest ended with exit " + std::to_string(g.exit_code);
  }
  for (const CellRecord& c : d.cells) outcome->failed_cells += c.status == "failed" ? 1 : 0;
  if (!failure.empty()) {
    const std::string why = "guest " + labels_[k] + ": " + failure +
                            (g.console_tail.empty() ? "" : "; console: " + g.console_tail);
    report_error_(why);
    const RunNames names = NameKernelRows(configs_, controls_, labels_[k]);  // as the guest would
    if (!loaded) d = ResultsDocument{};
    d.identifiers = names.identifiers;
    d.labels = names.labels;
    if (!d.complete) {
      const std::string status = g.interrupted ? "interrupted" : "failed";
      for (CellRecord& c : FailedGuestCells(names, RowKernelOf(k), status, why)) {
        d.cells.push_back(std::move(c));
        if (!g.interrupted) ++outcome->failed_cells;
      }
    }
  }
  if (doc_.context.empty() && loaded) doc_.context = d.context;
  guests_[k] = {{"label", labels_[k]},
                {"package", kernels_[k].package},
                {"source", kernels_[k].source},
                {"release", kernels_[k].release},
                {"accelerator", run.kvm ? "kvm" : "tcg"},
                {"accelerator_why", accelerator_.why},
                {"clock", run.kvm                 ? "host"
                          : run.instruction_clock ? "instructions"
                                                  : "wall"},
                {"vcpus", run.cpus},
                {"memory_mib", run.memory_mib},
                {"guest", g.facts},
                {"cpu_probe_seconds", g.cpu_probe_seconds},
                {"host_cpu_probe_seconds", host_cpu_probe_seconds_},
                {"wall_seconds", g.wall_seconds},
                {"exit_code", g.exit_code},
                {"failure", failure}};
  guest_docs_[k] = std::move(d);
  if (g.interrupted) outcome->error = "interrupted in the guest of " + labels_[k];
  progress_.EndCell();
}

void KernelsJob::SaveMerged() {
  std::vector<ResultsDocument> done;
  std::vector<RowKernel> done_kernels;
  nlohmann::json guests = nlohmann::json::array();
  for (size_t k = 0; k < kernels_.size(); ++k) {
    if (!guest_docs_[k]) continue;
    done.push_back(*guest_docs_[k]);
    done_kernels.push_back(RowKernelOf(k));
    guests.push_back(guests_[k]);
  }
  MergeKernelDocuments(done, done_kernels, &doc_);
  doc_.context["kernels"] = guests;
  // The run is the host's: its name, command line and start, not the first guest's (whose
  // hostname is "(none)" and whose command carries --label-prefix); history and trend read them.
  const MachineInfo host = ReadMachineInfo();
  doc_.context["host_kernel"] = host.kernel;
  doc_.context["hostname"] = host.hostname;
  doc_.context["command_line"] = config_.command_line;
  doc_.context["start_time"] = start_time_;
  doc_.complete = doc_.complete && done.size() == kernels_.size();
  if (doc_.context.contains("shard") && doc_.context["shard"].is_object()) {
    // --shard I/N: this shard's cells of every kernel's plan (each guest ran its share).
    nlohmann::json& shard = doc_.context["shard"];
    shard["cells"] = std::count_if(doc_.cells.begin(), doc_.cells.end(),
                                   [](const CellRecord& c) { return !c.started_at.empty(); });
    shard["plan_cells"] = shard.value("plan_cells", uint64_t{0}) * kernels_.size();
  }
  if (config_.suite != nullptr) doc_.summary = config_.suite->Summarize(doc_);
  std::string err;
  if (!SaveResultsFile(out_path_, doc_, &err)) report_error_("cannot save the results: " + err);
}

// One guest in flight: its kernel, what it runs, and the machine.
struct KernelsJob::InFlight {
  size_t k = 0;
  GuestRun run;
  std::unique_ptr<GuestVm> vm;
};

void KernelsJob::RunGuests(RunOutcome* outcome) {
  *outcome = RunOutcome{};
  guest_docs_.assign(kernels_.size(), std::nullopt);
  guests_.assign(kernels_.size(), nlohmann::json());
  progress_.Start(config_.suite_name + " on " + std::to_string(kernels_.size()) + " kernels",
                  kernels_.size());
  std::vector<InFlight> flying;
  size_t next = 0;
  for (;;) {
    while (flying.size() < static_cast<size_t>(lanes_) && next < kernels_.size() &&
           !InterruptRequested() && outcome->error.empty()) {
      InFlight f;
      f.k = next++;
      std::string err;
      f.vm = StartGuest(f.k, &f.run, &err);
      if (f.vm) {
        flying.push_back(std::move(f));
      } else {
        CollectGuest(f.k, f.run, GuestOutcome{}, err, outcome);
        SaveMerged();
      }
    }
    if (flying.empty()) break;
    std::vector<ChildProcess*> qemus;
    for (InFlight& f : flying) qemus.push_back(f.vm->qemu());
    ChildProcess::AwaitAnyExit(qemus, 0.5);
    for (auto it = flying.begin(); it != flying.end();) {
      const std::string prefix = GuestPrefix(it->k);
      if (it->vm->Poll([&](const std::string& line) { progress_.Note(prefix + line); })) {
        ++it;
        continue;
      }
      CollectGuest(it->k, it->run, it->vm->Finish(), "", outcome);
      SaveMerged();
      it = flying.erase(it);
    }
  }
  progress_.Finish(/*stopped=*/InterruptRequested());
  size_t done = 0;
  for (const auto& d : guest_docs_) done += d ? 1 : 0;
  outcome->finished = done == kernels_.size() && outcome->error.empty() && !InterruptRequested();
  if (!outcome->finished && outcome->error.empty()) outcome->error = "interrupted";
}

}  // namespace elevbench
