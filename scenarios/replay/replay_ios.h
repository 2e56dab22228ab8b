#pragma once
// A traced process's bios as the replayers issue them, shared by fio's plan (replay_plan.h) and
// the dependent replayer's (replay_engine.h): contiguous bios the submitter's plug merged become
// one I/O, and each I/O is timed either at its recorded moment or after the completion that
// woke it in the capture, its own predecessor's or another process's (docs/replay.md §3,
// "--replayer dependent"). Pure.

#include <cstdint>
#include <vector>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// Bios of one process closer than this were in flight together: no process waits for a
/// completion that fast on a disk.
inline constexpr uint64_t kReplayBurstGapNs = 200000;
/// The largest I/O made of plug-merged bios: 1 MiB, what one bio holds (256 pages); fio and the
/// dependent replayer allocate their buffers for the largest I/O.
inline constexpr uint64_t kReplayPlugMergeBytes = 1ULL << 20;

/// One I/O a replayer issues: a bio of the trace, or contiguous ones the submitter's plug merged.
struct ReplayIo {
  uint64_t time_ns = 0;  ///< its first bio queued (the trace's clock)
  /// Its last bio completed (queued + latency), the trace's clock; -1 when a bio of it has no
  /// recorded latency.
  int64_t done_ns = -1;
  BlockTraceOp op = BlockTraceOp::kRead;
  uint8_t flags = 0;
  uint64_t sector = 0;
  uint64_t sectors = 0;
  uint64_t records = 1;  ///< bios of the trace it stands for
};

/// One process's records (in trace order) as I/Os: a bio continues the I/O before it when it has
/// the same operation, starts where that ends, came less than kReplayBurstGapNs after the bio
/// before it, has no flush or FUA of its own, and the I/O stays within kReplayPlugMergeBytes.
std::vector<ReplayIo> PlugMergedIos(const std::vector<const BlockTraceRecord*>& records);

/// How soon after a completion a bio queued is taken to have been woken by it (the dependent
/// replayer's cross-process dependencies; docs/replay.md §3 has the numbers). In the samples in
/// traces/ on ide-2003, 65 of 93 and 134 of 206 I/Os were queued within 1 ms after the latest
/// completion, while only 13–14 % of each span lies within 1 ms after one: 4.5–5 times chance,
/// most of them 0.1–0.5 ms after it (a wake-up and a system call). ide-2003's reads take 5 ms or
/// more; its cached writes can complete in 0.2 ms, so a wider window would catch more chance.
inline constexpr uint64_t kReplayWakeWindowNs = 1000000;

/// Where an I/O is: the process (in the caller's order) and the I/O within it.
struct ReplayIoRef {
  uint32_t process = 0;
  uint32_t io = 0;
  bool operator==(const ReplayIoRef&) const = default;
};

/// How the dependent replayer times an I/O.
struct ReplayDependency {
  /// In the capture it was queued at or after its predecessor (the process's I/O before it)
  /// completed: a synchronous process that waited for it. It is issued think_ns after the
  /// predecessor completes in the replay. So is an I/O after a data-less flush of its process,
  /// with think 0: the trace records no flush's completion, but a process's flush is
  /// blkdev_issue_flush (fsync, syncfs, jbd2), which waits for it. Otherwise (the first I/O,
  /// one issued while its predecessor was in flight — writeback, readahead — or one whose
  /// predecessor's completion was not recorded) it is due at its recorded time.
  bool after_previous = false;
  uint64_t think_ns = 0;  ///< queued − the completion it waited for
  /// Set by InferDependencies: it was queued within the wake window after the latest completion
  /// before it, `of` (another process's I/O, or an earlier one of its own than its
  /// predecessor), and is issued think_ns after that completes in the replay.
  bool after_completion = false;
  ReplayIoRef of;
};

/// The dependency of ios[i] (i < ios.size()) on its own predecessor only.
ReplayDependency DependencyOf(const std::vector<ReplayIo>& ios, size_t i);

/// Every I/O's dependency, processes[p][i] → result[p][i], across processes: an I/O queued at
/// most `window_ns` after the latest completion of any I/O before it (any process's, its own
/// predecessor included) waits for that completion, think = the gap; its predecessor's
/// completion is after_previous as DependencyOf says; else DependencyOf's answer, which is
/// also the answer after a flush of its own (it waits for the flush, whatever completed). Where
/// that leaves an I/O on the clock (its predecessor was in flight or its completion unknown),
/// it waits for the latest completion of its own process before it, think = the gap (its own
/// pipeline: a reader's readahead two windows ahead); only an I/O with no completion of its
/// own before it stays on the clock. Only an
/// I/O with a recorded latency > 0 is waited for, and it was queued before its completion, which is
/// not after the waiter's queueing: every dependency points to an I/O queued strictly earlier in
/// the capture, so the graph (with each process's order) has no cycle.
std::vector<std::vector<ReplayDependency>> InferDependencies(
    const std::vector<std::vector<ReplayIo>>& processes, uint64_t window_ns);

}  // namespace elevbench
