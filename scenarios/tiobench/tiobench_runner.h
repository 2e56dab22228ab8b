#pragma once
// Executes tiobench for one thread count through fio: numruns × (write, random write, read,
// random read), pooling the runs into one measurement per phase.

#include <functional>
#include <string>
#include <vector>

#include "harness/fio/fio_output.h"
#include "harness/fio/fio_runner.h"
#include "scenarios/tiobench/tiobench.h"

namespace elevbench {

/// Callbacks the orchestrator supplies; all optional.
struct TioCellHooks {
  /// Runs fio; null = the real fio (SystemFioRunner).
  FioRunner* fio = nullptr;
  /// Called before each phase with a short description ("seq_write run 1/1").
  std::function<void(const std::string&)> on_phase;
  /// Directory for fio's job and output files (kept for audit); defaults to params.directory.
  std::string fio_work_dir;
  /// Prefix of those files' names, so the cells of one run do not overwrite each other's.
  std::string fio_label_prefix;
  /// Per-phase fio timeout in seconds (0 = none).
  double phase_timeout_seconds = 0;
  /// Evicts one file from the page cache before a read phase; null = EvictFileFromPageCache.
  /// Called once per thread's file (TioFilePath), in thread order, before that phase's fio run.
  std::function<bool(const std::string& path, std::string* err)> evict_file;
};

/// Runs every phase of tiobench at `threads` threads in params.directory. The per-thread files
/// are removed before the first write phase and after the last phase (also on failure).
[[nodiscard]] bool RunTioCell(const TiobenchParams& params, uint32_t threads,
                              const TioCellHooks& hooks,
                              std::vector<TioPhaseMeasurement>* measurements, std::string* err);

/// Turns one phase's fio result into a measurement: bytes and calls summed over threads, wall
/// time = the slowest thread's runtime for that direction (fio includes the end_fsync in it),
/// CPU = Σ threads' user+system seconds, latency = merged per-call completion histograms.
/// With `serial` (tiobench --nofrag's write phase) the threads ran one after another, so the wall
/// time is the sum of their runtimes instead of the slowest one.
[[nodiscard]] bool MeasurementFromFio(TioPhase phase, uint32_t threads, const FioRunResult& run,
                                      bool serial, TioPhaseMeasurement* m, std::string* err);

/// Adds `run` into `pooled` (tiobench.pl's numruns: sums of amount, time and CPU).
void PoolTioMeasurement(const TioPhaseMeasurement& run, TioPhaseMeasurement* pooled);

}  // namespace elevbench
