#pragma once
// `elevbench run SUITE … --kernels K1,K2,…` (docs/kernels.md): the suite's whole plan once per
// kernel, each in a QEMU guest booted from that kernel, and the guests' results merged into one
// document whose rows are kernel × configuration. The guest runs the same binary with the same
// words (kernel_rows.h's GuestCommandArgs), so no suite knows it is in a guest; the host only
// checks, boots, follows, merges and saves.
//
// The host's part of the run: the run's own checks (RunJob's step 1, on the schedulers every
// kernel offers), the kernels' and the tools', then the journal (step 3), then one guest after
// another (guest_vm.h: each journaled, each with its deadlines); the merged document is saved
// after every guest, so a run stopped between two guests keeps the first's rows.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"
#include "harness/guest/guest_accelerator.h"
#include "harness/guest/guest_vm.h"
#include "harness/guest/kernel_build.h"
#include "harness/guest/kernel_cache.h"
#include "harness/results/results_document.h"
#include "harness/run/kernel_checks.h"
#include "harness/run/kernel_rows.h"
#include "harness/run/run_config.h"
#include "harness/run/run_job.h"
#include "harness/run/run_job_steps.h"
#include "harness/run/run_journal.h"

namespace elevbench {

/// One run over several kernels. Call Prepare, then RunGuests; destroying the job undoes what
/// was made (the journal's guard is its last member to go).
class KernelsJob {
 public:
  KernelsJob(RunConfig config, std::function<void(const std::string& line)> report_error);
  KernelsJob(const KernelsJob&) = delete;
  KernelsJob& operator=(const KernelsJob&) = delete;

  /// The checks (a usage error, nothing made: the words of --kernels, root, the target, the
  /// tools, each kernel's schedulers, the run's own step 1), the kernels fetched into the cache
  /// when they are not there yet (saying so), the results' work directory, the journal. kNone,
  /// or the failure's kind with err its one line.
  RunFailure Prepare(std::string* err);

  /// `run --check`: Prepare's checks with nothing fetched, copied or made. Each kernel's offers
  /// are checked where the kernel is known without a download (a build's files, a cached
  /// package); a package not in the cache is checked against the package lists only, and
  /// *notes says its schedulers were not. Then the run's own step 1 on the host and fio. kNone,
  /// or the failure's kind with err its one line.
  RunFailure Check(std::vector<std::string>* notes, std::string* err);

  /// Every kernel's guest, `--lanes` of them at once (one by default); the merged results
  /// saved after each ends. A guest that failed
  /// gives its configurations failed cells with the reason and the console's last lines, and
  /// the run goes on with the next kernel; an interrupt stops it after the guest it stopped.
  void RunGuests(RunOutcome* outcome);

  /// 8. Undoes the journal now (the destructor would too).
  bool Restore() { return guard_.Restore(); }

  const ResultsDocument& doc() const { return doc_; }
  const std::string& out_path() const { return out_path_; }

 private:
  struct InFlight;
  bool CheckKernelOptions(std::string* err);
  // Each build of --kernels image:… / --kernel-image checked from its files (nothing made),
  // and what it offers (CheckKernelOffers) against --schedulers.
  bool InspectKernelBuilds(std::string* err);
  // Choice k in the cache: a Debian package fetched, a build copied, when not there yet.
  bool CacheKernel(size_t k, const std::string& cache, CachedKernel* kernel, std::string* err);
  /// Whether TCG guests run on QEMU's instruction clock (--guest-clock, instructions by default).
  bool InstructionClock() const { return config_.guest_clock != "wall"; }
  // Each kernel of the choices checked against what it offers, its row label taken: fetched (or
  // copied) into the cache when `fetch`; else (--check) only those known without a download (a
  // build's files, a cached package), each other one a note in *notes. Two kernels of one
  // label are refused when `fetch`.
  bool ResolveKernels(bool fetch, std::vector<std::string>* notes, std::string* err);
  void TakeCommonSchedulers();
  // Chooses KVM or TCG for every guest of the run (guest_accelerator.h).
  void ProbeAccelerator();
  GuestRun GuestRunOf(size_t k) const;
  // Kernel k as its rows' "kernel" field: its row label, release and source.
  RowKernel RowKernelOf(size_t k) const {
    return {labels_[k], kernels_[k].release, kernels_[k].source};
  }
  std::string GuestPrefix(size_t k) const;
  // The filesystem the run in each guest makes on its emulated or scratch disk; empty when it
  // makes none (a --dir, --device or raw target is the guest run's own refusal).
  std::string GuestFs() const {
    return config_.target.emulated.empty() && config_.target.scratch.empty() ? ""
                                                                             : config_.target.fs;
  }
  // Boots kernel k's guest; null (err: why) when it could not start.
  std::unique_ptr<GuestVm> StartGuest(size_t k, GuestRun* run, std::string* err);
  // Kernel k's results (or its failed cells), and what its guest was, once it ended.
  void CollectGuest(size_t k, const GuestRun& run, const GuestOutcome& g,
                    const std::string& start_error, RunOutcome* outcome);
  // The ended guests' documents merged in kernel order, saved.
  void SaveMerged();

  RunConfig config_;
  std::function<void(const std::string& line)> report_error_;
  std::vector<KernelChoice> choices_;
  std::vector<KernelBuild> builds_;  // by choice: a build's checked files; empty for a package
  std::vector<CachedKernel> kernels_;
  std::vector<std::string> labels_;  // each kernel's row prefix
  std::vector<SchedulerConfig> configs_;
  std::vector<IoControl> controls_;    // --controls, parsed as a guest has them (cgroup v2)
  double host_cpu_probe_seconds_ = 0;  // kCpuProbeLoop on the host
  GuestAccelerator accelerator_;       // KVM or TCG, probed once a run
  std::string start_time_;             // the host run's start, UTC
  uint64_t disk_bytes_ = 0;
  uint64_t machine_bytes_ = 0;
  int machine_cpus_ = 0;
  std::string out_path_;
  std::string work_dir_;
  int lanes_ = 1;                                           // guests at once (--lanes)
  std::vector<std::optional<ResultsDocument>> guest_docs_;  // by kernel, once its guest ended
  std::vector<nlohmann::json> guests_;                      // by kernel: its guest's facts
  ResultsDocument doc_;
  Progress progress_;
  RestoreJournal journal_;
  JournalGuard guard_{&journal_, report_error_};
};

}  // namespace elevbench
