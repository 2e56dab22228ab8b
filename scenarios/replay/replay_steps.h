#pragma once
// One traced process's I/Os as the dependent replayer's steps (`run replay --replayer
// dependent`, docs/replay.md §3): the same I/Os as the job's iolog (plug-merged, at the same
// offsets, preflush writes as a flush then the write), each timed by its dependency
// (replay_ios.h) instead of a wait. Pure, one part of the replay plan (replay_plan.h).

#include <cstdint>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_ios.h"

namespace elevbench {

/// One I/O as the dependent replayer issues it.
struct ReplayStep {
  BlockTraceOp op = BlockTraceOp::kRead;  ///< kFlush: a flush of the device (fsync)
  uint64_t offset = 0;                    ///< on the target, bytes (0 for a flush)
  uint64_t bytes = 0;                     ///< 0 for a flush
  /// Issued `us` after the job's previous step completed in the replay; else due `us` after the
  /// replay's start (the recorded time after --speed). Under --no-stall every `us` is 0.
  bool after_previous = false;
  uint64_t us = 0;
  /// When ≥ 0 (and not after_previous): issued `us` after step `after_step` of job
  /// `after_job` (this one's or another's, in ReplayPlan::jobs) completed in the replay, the
  /// completion that woke it in the capture (InferDependencies); that step was queued earlier
  /// in the capture, so no wait is circular. Always after the job's previous step was issued.
  int32_t after_job = -1;
  uint32_t after_step = 0;
  bool operator==(const ReplayStep&) const = default;
};

/// How the replay's clock runs: --speed (2 = twice as fast) and --no-stall (every I/O at once,
/// in order).
struct ReplayClock {
  double speed = 1;
  bool no_stall = false;
  /// The trace's `time_ns` after --speed, µs.
  uint64_t Us(uint64_t time_ns) const;
};

/// A process's steps, and how many of its I/Os were timed after a completion.
struct ReplayJobSteps {
  std::vector<ReplayStep> steps;
  uint64_t dependent_ios = 0;  ///< ios timed after a completion (their predecessor's or another)
  uint64_t woken_ios = 0;      ///< of those, ios timed after another I/O's than the predecessor's
};

/// The index of each I/O's last step in its job (a preflush write is two steps: the flush, then
/// the write), what a step waiting for that I/O's completion names.
std::vector<uint32_t> LastSteps(const std::vector<ReplayIo>& ios);

/// Appends the steps of `io`, timed by `dep`, at `offset` on the target: a preflush write is a
/// flush, then the write once the flush completed (what REQ_PREFLUSH means). last_steps[p] is
/// LastSteps of process p's I/Os.
void AppendSteps(const ReplayIo& io, const ReplayDependency& dep,
                 const std::vector<std::vector<uint32_t>>& last_steps, uint64_t offset,
                 const ReplayClock& clock, ReplayJobSteps* out);

}  // namespace elevbench
