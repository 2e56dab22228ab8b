#pragma once
// The repeated-command load: a background load that is a command run again and again until it
// is stopped (contest's list_load `ls -lRa`, ctar/xtar_load's tar, dbench_load;
// docs/legacy-suites.md §2.2). It complements the fio loads of load_probe.h: where a load is a
// program rather than a stream of I/O, this runs it, counts the iterations it completed and
// keeps its resource use (wait4 rusage of every iteration) and its own elapsed time, so a suite
// can report the load's CPU share over its own run (contest's LCPU%).
//
// Each iteration is a ChildProcess (subprocess.h): its own process group, registered with the
// interrupt forwarding, PR_SET_PDEATHSIG. A supervisor thread starts the next iteration as soon
// as one ends; Stop sends SIGTERM to the running iteration's group (SIGKILL after the grace) and
// reaps it, so nothing of the load outlives Stop. An interrupt (interrupt.h) ends the load too.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "harness/engine/load_probe.h"
#include "harness/process/subprocess.h"

namespace elevbench {

/// What to run, again and again.
struct RepeatedCommandSpec {
  std::vector<std::string> argv;          ///< the command (argv[0] searched in PATH)
  std::string working_directory;          ///< where it runs; empty = inherit
  std::string stdout_path = "/dev/null";  ///< where its output goes (truncated per iteration)
  /// Exit codes that count as a completed iteration (GNU tar exits 1 when a file changed while
  /// it was read, which a tar of a tree being compiled into is expected to see).
  std::vector<int> success_exit_codes = {0};
  double kill_grace_seconds = 2;  ///< SIGTERM → SIGKILL when stopped
  /// The load role's cgroups and I/O priority (`run --controls`); empty: the run's own.
  ProcessPlacement placement;
};

/// What the load did over its whole run.
struct RepeatedCommandResult {
  uint64_t started = 0;    ///< iterations started, the one cut short by Stop included
  uint64_t completed = 0;  ///< iterations that ended by themselves with a success exit code
  uint64_t failed = 0;     ///< iterations that ended by themselves otherwise
  bool cut_short = false;  ///< an iteration was running when the load was stopped
  /// Resource use summed over every iteration, the one cut short included (wait4: each
  /// iteration and the descendants it waited for); usage.elapsed_seconds is the load's own,
  /// from Start to the reap of the last iteration.
  ProcessUsage usage;
  int last_failure_exit_code = 0;   ///< of the last failed iteration (-1: killed by a signal)
  int last_failure_signal = 0;      ///< its signal, when one ended it
  std::string last_failure_output;  ///< the last line of its stderr
};

/// A running repeated-command load. Not copyable or movable; Start and Stop from one thread.
/// The destructor stops a load that is still running.
class RepeatedCommandLoad {
 public:
  RepeatedCommandLoad() = default;
  ~RepeatedCommandLoad();
  RepeatedCommandLoad(const RepeatedCommandLoad&) = delete;
  RepeatedCommandLoad& operator=(const RepeatedCommandLoad&) = delete;

  /// Starts the first iteration and the supervisor. True once the first iteration is executing;
  /// false with err ("cannot execute X: ...") when it could not be started, with nothing left
  /// running. Refused while a load of this object runs.
  [[nodiscard]] bool Start(const RepeatedCommandSpec& spec, std::string* err);

  /// True while the supervisor runs iterations: false after Stop, after an interrupt, or when
  /// an iteration could not be started.
  bool Running() const { return running_.load(); }

  /// Iterations completed so far.
  uint64_t Completed() const { return completed_.load(); }

  /// Stops the running iteration (SIGTERM to its group, SIGKILL after the grace), waits for the
  /// supervisor and fills *result. False with err when an iteration could not be started or
  /// waited for (*result is still filled with what was done).
  [[nodiscard]] bool Stop(RepeatedCommandResult* result, std::string* err);

 private:
  void Supervise();
  bool RunIteration(ChildProcess* child, bool first);

  RepeatedCommandSpec spec_;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;  // guarded by mutex_
  bool first_started_ = false;   // guarded by mutex_: the first iteration's Start returned
  std::atomic<bool> running_{false};
  std::atomic<uint64_t> completed_{0};
  RepeatedCommandResult result_;  // written by the supervisor, read after join
  std::string error_;             // written by the supervisor, read after join
  double started_at_ = 0;
};

/// A repeated-command load beside a foreground probe: starts `load`, waits probe.warmup_seconds
/// (the load must still run then), calls probe.evict (when set; false fails the run), runs the
/// probe to its end or its timeout (DNF), then stops the load. The load is stopped on every path.
/// probe.warmup_bytes is not used (a command's progress is not counted in bytes). False with err
/// when the load or the probe could not be started, or the load stopped running during the warm-up.
[[nodiscard]] bool RunCommandLoadWithProbe(const RepeatedCommandSpec& load, const ProbeSpec& probe,
                                           RepeatedCommandResult* load_result,
                                           ProbeOutcome* probe_outcome, std::string* err);

}  // namespace elevbench
