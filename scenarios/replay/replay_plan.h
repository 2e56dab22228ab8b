#pragma once
// How a block trace becomes a replay (docs/replay.md): one job per traced process, so bfq and
// kyber see the processes the traced system had, each with its I/Os both as fio's iolog
// (replay_iolog.h) and as the dependent replayer's steps (replay_steps.h), and the marks of the
// dependent replayer's wait rules (replay_wait_rules.h). Pure: trace in, jobs out, so what the
// replayers are handed can be golden-tested. Its parts: where offsets go (replay_offsets.h),
// which part each process plays (replay_roles.h), the iolog, the steps, the rules' marks.
//
// What the plan itself decides:
//   * Every replayed write is an O_DIRECT write, which the kernel marks sync (REQ_SYNC |
//     REQ_IDLE); the flusher's async writeback cannot be submitted as async from user space.
//   * Depth: a process replays at the most bios it had in flight at once (from the latencies
//     the capture recorded; else its largest burst of bios less than 200 µs apart), at most 64,
//     with libaio; a process that had one at a time (it waited for each) with psync at depth 1.
//   * Contiguous bios of one process less than 200 µs apart (a flusher's pages, a readahead
//     window) are one I/O of up to 1 MiB, as the plug the submitter held merged them before
//     the scheduler saw them; fio submits each I/O on its own, so without this the scheduler
//     (and `none` most) would face many small requests the traced system never had.
//   * With libaio, fio 3.33 leaves the last depth − 1 completions of a replayed log out of its
//     byte count (measured: depth 1, 8, 32 drop 0, 7, 31 of 1,426 4-KiB writes); the kernel's
//     view (the lag's trace of the target) is the count of record, see replay_lag.h.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_iolog.h"
#include "scenarios/replay/replay_offsets.h"
#include "scenarios/replay/replay_roles.h"
#include "scenarios/replay/replay_span.h"
#include "scenarios/replay/replay_steps.h"

namespace elevbench {

/// How to replay.
struct ReplayOptions {
  double speed = 1;       ///< time scale: 2 = twice as fast
  bool no_stall = false;  ///< as fast as possible, in order (fio's replay_no_stall)
  ReplayFit fit = ReplayFit::kAuto;
  /// Replay each held-back buffered writer of a version 2 trace as a buffered writer
  /// (ReplayBufferedWriter), not as the flusher's bios at their times. Only the dependent
  /// replayer can: fio's iolog has no page cache.
  bool buffered_writers = false;
};

/// One fio job: one traced process.
struct ReplayJob {
  std::string name;  ///< fio job name "p<pid>_<comm>"
  int32_t pid = 0;
  std::string comm;
  std::string ioengine;  ///< "psync" or "libaio"
  uint32_t iodepth = 1;
  std::string iolog;         ///< the iolog v2 text, with absolute waits
  uint64_t ops = 0;          ///< records of this process (flushes included)
  uint64_t ios = 0;          ///< fio I/Os they became (contiguous bursts are one, see above)
  uint64_t bytes = 0;        ///< their data bytes
  uint64_t added_syncs = 0;  ///< syncs put before preflush writes (not records of the trace)
  uint64_t fua_writes = 0;   ///< FUA writes replayed as plain writes
  bool writes = false;       ///< has writes or discards
  /// Its records are all flushes (a journal thread's, a syncfs caller's). fio 3.33 refuses a
  /// log without data or waits, so under --no-stall such a job keeps one wait and runs
  /// without replay_no_stall.
  bool flush_only = false;
  /// It wrote pages of a buffered writer replayed as one (the flusher that wrote them back): its
  /// reads, if any, are that writeback's (ext4's block allocator reading a bitmap), not a
  /// reader's beside the writer, so a writer that writes until the readers end does not wait
  /// for it. In the captures of docs/replay-measurements.md the flusher's one bitmap read came 11 s
  /// after cat's last read, and the writer went on that long.
  bool writer_writeback = false;
  /// The median latency of the process's reads in the trace (queued to completed, as the
  /// traced kernel saw them), ms; -1 when it had no timed read. The fidelity's yardstick.
  double trace_read_p50_ms = -1;
  /// Its bios' span in the trace, from the first queued to the last completed (the kernel's
  /// view, as ReplayPlan::trace_span_seconds is the whole trace's), s after --speed: what a
  /// replay of this process alone is held against (ReplayProcess::replay_span_seconds).
  double trace_span_seconds = 0;
  /// The same I/Os for the dependent replayer (ios of them, plus a flush per added sync).
  std::vector<ReplayStep> steps;
  /// The marks of wait rule "journal_log" (replay_rule_journal_log.h), with a buffered writer
  /// in the plan: the steps that are a journal's log writes (the writes without a preflush or
  /// FUA of a process that also writes with one: jbd2), ascending. While one is in flight the
  /// buffered writers dirty nothing.
  std::vector<uint32_t> journal_log_steps;
  /// The marks of wait rule "metadata_after_handle" (replay_rule_metadata.h), for a reader that
  /// started journal handles: the first step of each I/O before which it started one,
  /// ascending. Such a step waits for the metadata writes (metadata_write_steps, of any job) in
  /// flight when it became ready.
  std::vector<uint32_t> journal_wait_steps;
  /// Per journal_wait_steps entry: the target's extents {offset, bytes} of the buffers the
  /// handles before it changed (BlockTraceJournalHandles::buffer_sectors), so that it waits for
  /// the writes of those and the journal's log writes only; empty when a buffer is not known
  /// (it then waits for every metadata write in flight).
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> journal_wait_buffers;
  /// With journal_wait_steps in the plan: this job's writes of metadata (flag M), ascending.
  std::vector<uint32_t> metadata_write_steps;
  /// The job is a journal's (it writes commit blocks): its metadata writes are log writes,
  /// which may carry any changed buffer's copy (jbd2's shadow buffer).
  bool journal = false;
  uint64_t dependent_ios = 0;  ///< ios timed after a completion (their predecessor's or another)
  uint64_t woken_ios = 0;      ///< of those, ios timed after another I/O's than the predecessor's
  /// Set for a process replayed as a buffered writer (ReplayOptions::buffered_writers): its
  /// steps and iolog are then empty, ops and bytes are the trace's writes of its pages.
  std::optional<ReplayBufferedWriter> buffered;
};

/// The scheduled issue time of one data bio or flush on the target, for the lag.
struct ReplayScheduled {
  uint64_t time_us = 0;  ///< since the replay's start (after speed scaling)
  BlockTraceOp op = BlockTraceOp::kRead;
  uint64_t offset = 0;   ///< on the target, bytes
  uint64_t bytes = 0;    ///< its length (0 for a flush)
  uint32_t job = 0;      ///< index of its job in ReplayPlan::jobs
  uint64_t records = 1;  ///< bios of the trace this I/O stands for (plug-merged ones; 0 for a
                         ///< sync elevbench added)
};

/// The whole plan.
struct ReplayPlan {
  ReplayMapping mapping;
  std::vector<ReplayJob> jobs;             ///< by first record time
  std::vector<ReplayScheduled> scheduled;  ///< every I/O fio issues, in time order
  uint64_t trace_ops = 0;
  uint64_t trace_bytes = 0;
  /// Of those, the bios (and bytes) that wrote a buffered writer's pages, replayed as its
  /// writes through the page cache rather than as bios (ReplayJob::buffered).
  uint64_t buffered_ops = 0;
  uint64_t buffered_bytes = 0;
  double duration_seconds = 0;  ///< the trace's duration after speed scaling
  /// From the trace's first bio queued to its last completed (the traced kernel's view, as a
  /// replay's replay_seconds is), after speed scaling; 0 for a trace without timed bios.
  double trace_span_seconds = 0;
};

/// Builds the jobs for replaying `trace` onto the block device `device_path` (of `target_bytes`).
/// err as MapReplayOffsets, or for a speed that is not positive.
[[nodiscard]] bool PlanReplay(const BlockTrace& trace, const std::string& device_path,
                              uint64_t target_bytes, const ReplayOptions& options, ReplayPlan* plan,
                              std::string* err);

}  // namespace elevbench
