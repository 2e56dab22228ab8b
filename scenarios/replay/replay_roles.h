#pragma once
// Which part each traced process plays in a replay (docs/replay.md §3): a journal (it writes
// commit blocks), a buffered writer the capture saw held back by dirty throttling (replayed as a
// writer through the page cache), a flusher of such a writer's pages, or a reader. Decided here
// once from the trace, so that a file system whose journal or writeback looks otherwise is taught
// in one place. Pure, one part of the replay plan (replay_plan.h).

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_offsets.h"
#include "scenarios/replay/replay_span.h"
#include "scenarios/replay/replay_steps.h"

namespace elevbench {

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
  /// captures of docs/replay-measurements.md): its demand outlasted the readers, so its volume was
  /// set by the scheduler, not by itself. It writes until every job with reads has ended. A writer
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
/// writeback limits a capture of a reader beside dd found jbd2 "held back" 5.1 s
/// (docs/replay-measurements.md), and a buffered writer of its 12 KiB of metadata would have
/// written until the readers ended.
std::map<int32_t, const BlockTraceDirtier*> HeldBackWriters(const BlockTrace& trace);

/// Whether `trace` has a process the dependent replayer replays as a buffered writer (a
/// held-back dirtier of a version 2 trace that owns writes in it).
bool HasBufferedWriters(const BlockTrace& trace);

/// When the trace's last read was queued, other than by the processes in `writeback` (the
/// flushers of a buffered writer's pages: ReplayJob::writer_writeback); -1 without reads.
int64_t LastReadNs(const BlockTrace& trace, const std::set<int32_t>& writeback);

/// Buffered writer `d` from the trace's writes of its pages (`owned`, in time order) mapped by
/// `m`, the trace's last read at `last_read_ns` (LastReadNs); *span gets the kernel's span of
/// its pages' writes from its first dirtying.
ReplayBufferedWriter BufferedWriterOf(const BlockTraceDirtier& d,
                                      const std::vector<const BlockTraceRecord*>& owned,
                                      const ReplayMapping& m, const ReplayClock& clock,
                                      int64_t last_read_ns, KernelSpan* span);

}  // namespace elevbench
