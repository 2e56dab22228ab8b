#pragma once
// A replayer: one way of issuing a replay plan's I/Os on the target, behind the replay suite
// (`run replay --replayer fio|dependent`, docs/replay.md §3). fio's replays each process's iolog
// at its recorded times (open loop); the dependent one (elevbench's io_uring engine,
// replay_engine.h) times each I/O by the completion it waited for in the capture, applies the
// wait rules (replay_wait_rules.h) and replays held-back writers through the page cache. The
// suite asks the replayer, never which one it is.

#include <memory>
#include <string>
#include <vector>

#include "harness/results/job_result.h"
#include "harness/run/suite.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rule.h"

namespace elevbench {

/// What a replayer did in one cell.
struct ReplayRun {
  std::vector<JobResult> jobs;  ///< per job, fio's shape, by the plan's job names
  /// How long the readers' steps after a journal handle were held (the "metadata_after_handle"
  /// rule's seconds; 0 for fio, which has no rules).
  double journal_wait_seconds = 0;
  std::vector<ReplayWaitCount> waits;  ///< each wait rule's counter (none for fio)
};

/// How the target is used: whether the trace writes, and --no-stall.
struct ReplayTargetUse {
  bool writes = false;
  bool no_stall = false;
};

/// One way of issuing a plan's I/Os.
class Replayer {
 public:
  virtual ~Replayer() = default;
  /// Its --replayer word: "fio" or "dependent".
  virtual const char* Name() const = 0;
  /// Whether it replays a held-back writer as a buffered writer (ReplayOptions::
  /// buffered_writers): only one with the page cache in its path can.
  virtual bool ReplaysBufferedWriters() const = 0;
  /// Writes what it reads to env.work_dir (fio's iologs, the engine's input), at a cell's
  /// set-up, for `plan` onto env.device. False with one line when a file cannot be written.
  virtual bool Prepare(const ReplayPlan& plan, const CellEnvironment& env, ReplayTargetUse use,
                       std::string* err) = 0;
  /// Issues the prepared plan's I/Os, bounded by the cell's timeout. False with one line.
  virtual bool Run(const ReplayPlan& plan, const CellEnvironment& env, ReplayRun* run,
                   std::string* err) = 0;
  /// The record's ioengine of `job` ("io_uring", "libaio", "psync", "buffered").
  virtual std::string IoEngineOf(const ReplayJob& job) const = 0;
  /// How `job` was replayed: "buffered_writer", "dependencies" or "recorded_times".
  virtual std::string ReplayedAsOf(const ReplayJob& job) const = 0;
};

/// fio's iolog replayer.
std::unique_ptr<Replayer> MakeFioReplayer();
/// The dependent replayer (elevbench's engine as a child process).
std::unique_ptr<Replayer> MakeDependentReplayer();
/// The replayer of --replayer's word ("fio"; anything else: dependent, the default).
std::unique_ptr<Replayer> MakeReplayer(const std::string& name);

}  // namespace elevbench
