#pragma once
// A traced process's bios as the replayers issue them, shared by fio's plan (replay_plan.h) and
// the dependent replayer's (replay_engine.h): contiguous bios the submitter's plug merged become
// one I/O, and each I/O is timed either at its recorded moment or after its predecessor's
// completion (docs/replay.md §3, "Dependent replay"). Pure.

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

/// How the dependent replayer times an I/O.
struct ReplayDependency {
  /// In the capture it was queued at or after its predecessor (the process's I/O before it)
  /// completed: a synchronous process that waited for it. It is issued think_ns after the
  /// predecessor completes in the replay. Otherwise (the first I/O, one issued while its
  /// predecessor was in flight — writeback, readahead — or one whose predecessor's completion
  /// was not recorded) it is due at its recorded time.
  bool after_previous = false;
  uint64_t think_ns = 0;  ///< queued − the predecessor's completion, when after_previous
};

/// The dependency of ios[i] (i < ios.size()).
ReplayDependency DependencyOf(const std::vector<ReplayIo>& ios, size_t i);

}  // namespace elevbench
