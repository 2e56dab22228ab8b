#pragma once
// How a block trace becomes fio jobs (docs/replay.md): one job per traced process, each reading
// its own iolog, so bfq and kyber see the processes the traced system had. Pure: trace in, job
// texts out, so what fio is handed can be golden-tested. Each job also carries the same I/Os as
// the dependent replayer's steps (ReplayStep, `--replayer dependent`), timed by what they waited
// for in the capture (replay_ios.h) rather than by the clock.
//
// What fio 3.33 does with it, and what this plan does about it:
//   * Time. fio's iolog v3 ("TIME_US FILE ACTION …") is timed relative to the job's previous
//     issue: an I/O that could not be issued on time (its job waited for a completion) makes
//     every later one late by as much, and the lag never catches up (measured on the sqlite
//     sample under mq-deadline and bfq: lag p99 163 and 227 ms). fio's iolog v2 has `wait MS`,
//     which holds the job until MS milliseconds after fio's genesis, one clock fio sets before
//     it forks its jobs: absolute time, shared by every job. So the logs are v2, each I/O
//     preceded by a wait for the millisecond it was recorded in (the resolution fio offers),
//     and a late I/O costs only itself. Every job starts with fio (startdelay polls, 0.1 s late).
//   * A data-less flush is the iolog action `sync` (fsync of the block device: a FLUSH); a
//     write with a preflush is a `sync` then the write. fio cannot issue FUA: a FUA write is a
//     plain write (counted).
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

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// Where the trace's offsets go on the target.
enum class ReplayFit {
  kAuto,   ///< as recorded if the span fits, else shifted to start at 0, else refused
  kScale,  ///< as kAuto, but a span larger than the target is scaled onto it
};

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

/// How the offsets were mapped (for the cell's record and docs).
struct ReplayMapping {
  std::string mode;         ///< "as recorded", "shifted", "scaled"
  int64_t shift_bytes = 0;  ///< subtracted from every offset (shifted, scaled)
  double scale = 1;         ///< offsets multiplied by this after the shift (scaled)
  uint64_t span_bytes = 0;  ///< the trace's first to last byte
  uint64_t target_bytes = 0;
};

/// One I/O as the dependent replayer issues it (`run replay --replayer dependent`, docs/replay.md
/// §3): the same I/Os as the job's iolog (plug-merged, at the same offsets, preflush writes as a
/// flush then the write), each timed by its dependency (replay_ios.h) instead of a wait.
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

/// A process the capture saw dirty pages and be held back while they were written back
/// (BlockTraceDirtier::held_back_ns > 0, a version 2 trace): a closed loop on the disk, whose
/// pace the scheduler under test sets (docs/replay.md §3, "Buffered writers"). It is replayed by
/// writing through the target's page cache (a buffered pwrite to the block device, no
/// O_DIRECT) as fast as the kernel lets it, so that dirty throttling, the flusher and the
/// scheduler decide its pace as they did for real; the trace's writes of its pages (the
/// flusher's, a sync's: `owner`) are not replayed as bios of their own.
struct ReplayBufferedWriter {
  uint64_t start_us = 0;  ///< its first dirtying, after --speed
  /// Bytes to write: those of the trace's writes of its pages. With until_readers_end it
  /// writes on past them (sequentially after its last extent) until the readers have ended.
  uint64_t bytes = 0;
  /// It was still dirtying when the trace's last read was queued (its last dirtying at most
  /// kReplayWriterOpenEndNs before it, or after it: a writer killed beside the readers goes on
  /// until its write returns from the kernel's wait, 4.8 and 13.6 s after the last read in the
  /// captures of docs/replay.md §4): its demand outlasted the readers, so its volume was set by
  /// the scheduler, not by itself. It writes until every job with reads has ended. A writer
  /// that stopped long before the last read (its own work done) writes its volume.
  bool until_readers_end = false;
  /// Where: the target's extents of the trace's writes of its pages, in the order they were
  /// written back, contiguous ones merged: {offset, bytes}.
  std::vector<std::pair<uint64_t, uint64_t>> extents;
  bool operator==(const ReplayBufferedWriter&) const = default;
};

/// A buffered writer whose last dirtying came at most this long before the trace's last read
/// was queued, or after it, is taken to have written until the readers ended.
inline constexpr uint64_t kReplayWriterOpenEndNs = 1000000000;

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
  /// for it. In the captures of docs/replay.md §4 the flusher's one bitmap read came 11 s after
  /// cat's last read, and the writer went on that long.
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
  /// With a buffered writer in the plan: the steps that are a journal's log writes, the writes
  /// without a preflush or FUA of a process that also writes with one (jbd2), in order. While
  /// one is in flight the buffered writers dirty nothing: the real writer's every write updates
  /// its inode (mtime, size), and the update waits while a commit writes that inode's block to
  /// the log (jbd2's shadow buffer). So the real writer's writeback drains and mq-deadline
  /// dispatches the log write; a writer that went on dirtying would keep the write queue full
  /// below the journal's sectors, and the log write (and a reader the capture saw wait for it)
  /// would wait for the sorted sweep to reach it: 2.5 s against the real 0.6 s in
  /// docs/replay.md §4 ("The writer's own journal waits"). The commit block itself is not one:
  /// the writer's inode block is free once its log write completed.
  std::vector<uint32_t> journal_log_steps;
  /// With the trace's journal handle starts (BlockTraceHeader::journal_handles), for a process
  /// with reads (not a writer's writeback): the first step of each I/O before which it started a
  /// handle (since its previous I/O was queued), ascending. Such a step waits for the metadata
  /// writes (metadata_write_steps, of any job) in flight when it became ready, not for those
  /// issued after (MetadataWritesInFlight): the change waits for the buffer it changes while
  /// the buffer is written, to the journal's log or to its home location. A reader's
  /// access-time update under mq-deadline waited 29.4 s in all behind the flusher's writes of the
  /// inode table queued behind a writer's data, 0.07 s under none (docs/replay.md §4).
  std::vector<uint32_t> journal_wait_steps;
  /// With journal_wait_steps in the plan: this job's writes of metadata (flag M), ascending.
  std::vector<uint32_t> metadata_write_steps;
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

/// fio's iolog action for a bio of `op`: "read", "write", "trim" or "sync" (a flush).
const char* IologAction(BlockTraceOp op);

/// The span of bios in the kernel's view, from the first queued to the last completed
/// (time_ns + latency_ns; an untimed bio ends where it was queued): of a capture, of one of its
/// processes, of a replay or one of its jobs as the kernel traced them.
struct KernelSpan {
  uint64_t first_ns = UINT64_MAX;
  uint64_t last_ns = 0;
  void Add(const BlockTraceRecord& r) {
    first_ns = std::min(first_ns, r.time_ns);
    last_ns =
        std::max(last_ns, r.time_ns + static_cast<uint64_t>(std::max<int64_t>(r.latency_ns, 0)));
  }
  /// Seconds; 0 for no bios (or bios that took no time).
  double Seconds() const {
    return last_ns > first_ns ? static_cast<double>(last_ns - first_ns) / 1e9 : 0;
  }
};

/// KernelSpan over every one of `records`, seconds; 0 for none.
double KernelSpanSeconds(const std::vector<BlockTraceRecord>& records);

/// Maps the trace's extents onto a target of `target_bytes` (see ReplayFit). False with one line
/// naming both sizes when the span does not fit and `fit` is not kScale, or for an empty trace.
[[nodiscard]] bool MapReplayOffsets(const BlockTrace& trace, uint64_t target_bytes, ReplayFit fit,
                                    ReplayMapping* mapping, std::string* err);

/// Builds the jobs for replaying `trace` onto the block device `device_path` (of `target_bytes`).
/// err as MapReplayOffsets, or for a speed that is not positive.
[[nodiscard]] bool PlanReplay(const BlockTrace& trace, const std::string& device_path,
                              uint64_t target_bytes, const ReplayOptions& options, ReplayPlan* plan,
                              std::string* err);

/// Whether a traced request is a journal's commit write: a write with a preflush or FUA (jbd2's
/// commit block). A process that makes one is a journal to the replay: never a buffered writer
/// (HeldBackWriters), its other writes are the log writes a buffered writer pauses for
/// (ReplayJob::journal_log_steps), and FileSystemWaitsCaution counts them. Decided here once,
/// so that a file system whose log is written otherwise (xfs: from kworkers) is taught in one
/// place.
bool IsJournalCommit(BlockTraceOp op, uint8_t flags);

/// The pids of `trace` that made a journal's commit write (IsJournalCommit).
std::set<int32_t> JournalPids(const BlockTrace& trace);

/// The held-back dirtiers of a version 2 trace that own writes in it, by pid: the processes the
/// dependent replayer replays as buffered writers (ReplayBufferedWriter). Empty for version 1.
/// A journal (a process that writes with a preflush or FUA: jbd2) is never one: the metadata
/// buffers it dirties at each commit are the file system's, written back by the flusher between
/// its commits, and its pauses are the commit interval, not throttling. Under the emulated disk's
/// writeback limits a capture of a reader beside dd found jbd2 "held back" 5.1 s (docs/replay.md
/// §4), and a buffered writer of its 12 KiB of metadata would have written until the readers
/// ended.
std::map<int32_t, const BlockTraceDirtier*> HeldBackWriters(const BlockTrace& trace);

/// Whether `trace` has a process the dependent replayer replays as a buffered writer (a
/// held-back dirtier of a version 2 trace that owns writes in it).
bool HasBufferedWriters(const BlockTrace& trace);

}  // namespace elevbench
