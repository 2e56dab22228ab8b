#pragma once
// The load-vs-probe engine: background loads (fio streams started together, running until
// stopped or until the first stream ends) and foreground probes (a command run with fork/exec
// and wait4, started once the load is in steady state, stopped at its timeout and then recorded
// as DNF with the work it had done). The engine knows no suite; nickbench and the cat/ls probes
// are built on it (scenarios/).

#include <functional>
#include <string>
#include <vector>

#include "harness/fio/fio_runner.h"
#include "harness/process/subprocess.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// A background load: fio streams in one fio process, one job (thread) per stream.
struct LoadSpec {
  FioGlobalSpec global;
  std::vector<StreamSpec> streams;  ///< numjobs must be 1: one stream, one record
  uint32_t bw_log_interval_ms = 1000;
  /// The load role's cgroups and I/O priority (`run --controls`); empty: the run's own.
  ProcessPlacement placement;
};

/// A foreground probe.
struct ProbeSpec {
  std::vector<std::string> argv;          ///< the command (argv[0] searched in PATH)
  std::string working_directory;          ///< where it runs; empty = inherit
  std::string stdout_path = "/dev/null";  ///< where its output goes (a file to count lines)
  double timeout_seconds = 0;             ///< 0 = none; past it the probe is killed: DNF
  double warmup_seconds = 0;              ///< the load runs at least this long before the probe
  uint64_t warmup_bytes = 0;              ///< ... and has moved at least this many bytes
  /// How often its read bytes are sampled while it runs. Its wall time does not depend on it:
  /// the probe is reaped as soon as it exits, not at the next sample.
  double sample_seconds = 0.05;
  /// Called right before the probe starts (evicts the probe's files from the page cache, so it
  /// reads from the disk beside the load); false fails the run. May be empty.
  std::function<bool(std::string*)> evict;
  /// Called right before the probe is started and right after it is reaped (both paths, the
  /// load still running): a suite reads counters over the probe's own window (the disk's bytes
  /// beside `run command`'s program). May be empty.
  std::function<void()> on_start;
  std::function<void()> on_end;
  /// The probe role's cgroups and I/O priority (`run --controls`); empty: the run's own.
  ProcessPlacement placement;
};

/// What a probe did.
struct ProbeOutcome {
  ProcessResult process;  ///< rusage, wall time, exit status of the probe
  bool dnf = false;       ///< killed at its timeout
  /// Ended by SIGKILL while the OOM-kill count of the run's memory cgroup rose (oom_kills.h):
  /// killed for want of memory (`--machine ram=`), not by its timeout or by someone else.
  bool oom_killed = false;
  uint64_t bytes_read = 0;    ///< its read() bytes (/proc/<pid>/io rchar), last sample
  double warmup_seconds = 0;  ///< how long the load had run when the probe started
};

/// The result of a load with a probe.
struct LoadProbeResult {
  ProbeOutcome probe;
  std::vector<StreamResult> load;  ///< over the load's whole run
};

/// Runs `probe` alone (no load, no warm-up, no eviction) to its end or its timeout (DNF),
/// sampling its read bytes as RunLoadWithProbe does: the foreground half of a load-vs-probe run,
/// for loads that are not fio streams (process_load.h) and for runs without a load. False with
/// err only when the probe could not be started or waited for.
[[nodiscard]] bool RunForegroundProbe(const ProbeSpec& probe, ProbeOutcome* outcome,
                                      std::string* err);

/// Converts fio's jobs into stream records, one per job in order (numjobs=1 streams).
std::vector<StreamResult> StreamResultsFromFio(const FioRunResult& run,
                                               uint32_t bw_log_interval_ms);

/// Runs `load` until its first stream ends (fio's exitall) and returns every stream's record and
/// the run's elapsed time (the longest stream runtime). For nickbench's benches.
[[nodiscard]] bool RunLoadToFirstEnd(FioRunner* fio, const LoadSpec& load,
                                     const std::string& work_dir, const std::string& label,
                                     double timeout_seconds, std::vector<StreamResult>* streams,
                                     double* elapsed_seconds, std::string* err);

/// Starts `load` (its streams time-based, running until stopped), waits for the warm-up, evicts,
/// runs the probe to its end or its timeout (DNF), then stops the load and parses it. The load is
/// stopped on every path, including an interrupt during the probe. False with err when the load
/// or the probe could not be started, or the load failed; a probe that exits non-zero is a true
/// return (its exit status is in the outcome).
[[nodiscard]] bool RunLoadWithProbe(FioRunner* fio, const LoadSpec& load, const ProbeSpec& probe,
                                    const std::string& work_dir, const std::string& label,
                                    LoadProbeResult* result, std::string* err);

/// Starts `load` (its streams time-based), waits for the warm-up (`warmup_seconds` and
/// `warmup_bytes`, as for a probe), runs `foreground` in this thread, then stops the load and
/// parses it into *streams. For a foreground that is not a command (the vi-style saves, done
/// in-process). The load is stopped on every path. *warmup_done gets how long the load had run
/// when foreground started. False with err when the load could not be started, ended during the
/// warm-up or failed, or when foreground returned false (its err comes first).
[[nodiscard]] bool RunLoadAround(FioRunner* fio, const LoadSpec& load, double warmup_seconds,
                                 uint64_t warmup_bytes,
                                 const std::function<bool(std::string*)>& foreground,
                                 const std::string& work_dir, const std::string& label,
                                 std::vector<StreamResult>* streams, double* warmup_done,
                                 std::string* err);

}  // namespace elevbench
