#pragma once
// `run … --lanes N` (docs/lanes.md): the lanes of a run, each an emulated disk of the run's
// profile with its own image, daemon, loop device and filesystem, its own cpuset (its daemon in
// a cpuset of the same CPUs), with --machine its own memory cgroup, and its own writeback limit
// (harness/device/bdi_limits.h). Lane 0's disk is the run's target; the others are built beside
// it. The session runs once per lane in a child process (fork, no exec: the suite's parsed
// options come along), each on its share of the plan (DealPlanToLanes), and the lanes' documents
// are merged into the run's (MergeLaneDocuments). Everything is journaled by the parent before
// the children start, so the children never write the journal, and the parent's JournalGuard
// undoes every lane on every exit path.

#include <signal.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/bdi_limits.h"
#include "harness/device/device_control.h"
#include "harness/device/restore_journal.h"
#include "harness/disk/emulated_stack.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/results/results_document.h"
#include "harness/run/emulated_writeback.h"
#include "harness/run/run_session.h"
#include "harness/trace/request_tracer.h"

namespace elevbench {

/// The lanes of one run. Not copyable; destroyed before the journal is restored.
class RunLanes {
 public:
  RunLanes();
  ~RunLanes();
  RunLanes(const RunLanes&) = delete;
  RunLanes& operator=(const RunLanes&) = delete;

  /// Step 4: lanes 1..count-1's disks, built like `first` (lane 0's, the run's target) from
  /// `options`. `asked` is the --lanes text ("2", "auto"), for the context.
  [[nodiscard]] bool CreateDisks(int count, const std::string& asked,
                                 const EmulatedOptions& options, const EmulatedStack& first,
                                 RestoreJournal* journal, Progress* progress, std::string* err);

  /// Step 5: every lane's device control (lane 0's is `first`), the pinned queue attributes on
  /// the other lanes' disks, and the writeback limits: the global ones raised to hold every
  /// lane's and each disk's own (journaled; in place of EmulatedVmSettings).
  [[nodiscard]] bool SetUpDevices(const Sysfs& sysfs, RestoreJournal* journal, DeviceControl* first,
                                  const std::vector<std::pair<std::string, std::string>>& pinned,
                                  std::string* err);

  /// Step 5b: each lane's cgroups: a cpuset of `cpus_per_lane` CPUs of its own (lane k the k-th
  /// group of the CPUs allowed here) for its session, with the RAM of `machine` when it limits
  /// RAM, and a cpuset of the same CPUs for its disk's daemon (moved in now).
  [[nodiscard]] bool CreateCgroups(const MachineSpec& machine, const CgroupLayout& layout,
                                   int cpus_per_lane, RestoreJournal* journal, std::string* err);

  /// Step 5c: one tracer per lane (--trace-requests summary), each on its lane's disk.
  [[nodiscard]] bool OpenTracers(TraceMode mode, const std::string& work_dir,
                                 RestoreJournal* journal, std::string* err);

  /// Step 7: runs `config`'s plan dealt out to the lanes, one child process per lane, and merges
  /// their documents into `doc` (saved at config.out_path). The cells of variants that take no
  /// lanes (Suite::VariantTakesLanes) then run alone on lane 0's disk, its daemon unpinned as a
  /// serial run's: a second round, one child. `switching`: the lanes switch their disks'
  /// schedulers. Returns whether every lane finished; *failed counts failed cells. An
  /// interrupt of this process is passed on to the lanes, which stop after their current cell.
  [[nodiscard]] bool RunSessions(Suite& suite, const SessionConfig& config, bool switching,
                                 bool drop_caches, Progress* progress, ResultsDocument* doc,
                                 size_t* failed, std::string* err);

  /// Gives the tracers' instances back (the journal would otherwise). Idempotent.
  void CloseTracers();

  /// The results context's "lanes" block: count, what was asked, the CPUs of a lane and the
  /// serial run's `--machine` that is the same machine, the writeback limits, and per lane its
  /// loop device, CPUs, cgroups and backing device info.
  nlohmann::json Describe() const;

  int count() const { return static_cast<int>(lanes_.size()); }

 private:
  struct Lane;
  /// One round: a child per lane with a share (lane k runs shares[k]; `alone`: the cells that
  /// take no lanes, lane 0 only), waited for under the watch; their files merged into *doc.
  [[nodiscard]] bool RunRound(Suite& suite, const SessionConfig& config, bool switching,
                              bool drop_caches, const std::vector<std::vector<size_t>>& shares,
                              bool alone, ResultsDocument* doc, std::string* err);
  /// Forks one child per lane with a share, each running it into a results file of its own
  /// (added to files_); err when one cannot start.
  [[nodiscard]] bool StartLanes(Suite& suite, const SessionConfig& config, bool switching,
                                bool drop_caches, const std::vector<std::vector<size_t>>& shares,
                                bool alone, const ResultsDocument& doc, std::string* err);
  /// Waits for every lane under a watch of their disks, passing a stop on to them and merging
  /// their files into *doc once a second. A disk lost stops the run: *stopped_why says which
  /// and why. False when a lane did not exit within the deadlines after a stop.
  bool WaitForLanes(const Suite& suite, const SessionConfig& config, ResultsDocument* doc,
                    std::string* stopped_why);
  /// Sends `signal` to every lane still running.
  void StopLanes(int signal = SIGTERM);
  /// After a stop: SIGKILL (stuck I/O broken first) to lanes still running after 60 s; false
  /// once 90 s have passed, so that the run stops waiting for them.
  bool ForceLanesAfterStop(std::chrono::steady_clock::time_point stopped_at);
  bool lanes_killed_ = false;
  int cpus_per_lane_ = 0;
  uint64_t lane_memory_bytes_ = 0;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::vector<std::string> files_;  // the results files of the sessions started, to merge
  std::string asked_;
  std::string fs_;  // the lanes' filesystem, for --fresh-fs
  uint64_t lane_dirty_bytes_ = 0;
  uint64_t lane_background_bytes_ = 0;
  nlohmann::json vm_ = nlohmann::json::object();
};

}  // namespace elevbench
