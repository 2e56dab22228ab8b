#pragma once
// How late a replay issued each I/O against its schedule (docs/replay.md, "Keeping time"). The
// replayed bios are read from a private tracefs instance on the target (block_bio_queue, as
// `capture` records them) and matched to the plan's schedule by job (each fio job is one process:
// its pid is the job most of its bios' offsets belong to), operation and offset, in order.
// Time 0 of the replay is unknown to the harness (fio forks its jobs), so the reference is the
// earliest I/O: lag = (issued − scheduled) − min over all I/Os of (issued − scheduled),
// which is ≥ 0.
// A scheduled I/O that reached the device at its offset counts as replayed: the kernel's view,
// which `run replay` reports as replayed_ops/bytes (fio 3.33 undercounts, replay_plan.h).
// The logs' waits are absolute (replay_plan.h): an I/O issued late because its job waited for a
// completion makes only itself late, not every I/O after it.

#include <array>
#include <cstdint>
#include <map>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_plan.h"

namespace elevbench {

/// A replay's lag, milliseconds.
struct ReplayLag {
  uint64_t matched = 0;  ///< replayed bios matched to a scheduled one
  /// The bytes of the matched I/Os the kernel saw bios for: each I/O's matching bio and the
  /// bios of its job that start inside its extent after it (the pieces it was cut into), their
  /// union clipped to the planned extent (a short I/O counts what it was)
  uint64_t matched_bytes = 0;
  uint64_t matched_records = 0;  ///< the trace's bios they stand for
  uint64_t unmatched = 0;        ///< replayed bios that matched none (split remainders, say)
  /// The trace's bios whose I/O no replayed bio matched, by BlockTraceOp (read, write, discard,
  /// flush): what a report names when a cell did not replay every bio.
  std::array<uint64_t, 4> missed_records{};
  double mean_ms = 0;
  double p99_ms = 0;
  double max_ms = 0;
  /// Per job (ReplayScheduled::job): the lag of its first I/O, whether the jobs started
  /// together; -1 for a job none of whose I/Os was seen.
  std::vector<double> first_ms;
  /// Which job each replaying pid is (fio forks one process per job): from the bios matched.
  std::map<int32_t, uint32_t> job_of_pid;
};

/// The p99 lag above which a replay does not keep time: 25 ms, about one full-stroke seek plus
/// a rotation of the 2003 disk; later than that and the replay is no longer the recorded
/// workload's timing.
inline constexpr double kReplayLagBoundMs = 25;

/// Matches `replayed` (records of the target's bios during the replay, times in ns on any
/// clock, offsets in sectors of the target) to `scheduled` and measures the lag.
ReplayLag MeasureReplayLag(const std::vector<ReplayScheduled>& scheduled,
                           const std::vector<BlockTraceRecord>& replayed);

/// A replay's traced bios split by who queued them (ReplayJob::buffered): the replayer's own,
/// which the lag matches to the schedule, and the writeback of its buffered writers' pages,
/// queued by the flusher (a `kworker/…` task) or by the writer's own thread (its fdatasync;
/// the thread is named after its job, at most 15 characters), which match no scheduled I/O.
struct ReplayBiosByQueuer {
  std::vector<BlockTraceRecord> replayer;
  std::vector<BlockTraceRecord> writeback;
  /// Per writeback bio, the index in ReplayPlan::jobs of the buffered writer whose pages it
  /// wrote: the one whose extents hold its first byte, else the plan's only writer; -1 unknown.
  std::vector<int32_t> writer_job;
};

/// Splits `replayed` for `plan`; without buffered writers every bio is the replayer's.
ReplayBiosByQueuer SplitReplayBios(const ReplayPlan& plan,
                                   const std::vector<BlockTraceRecord>& replayed);

}  // namespace elevbench
