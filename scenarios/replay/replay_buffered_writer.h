#pragma once
// The dependent replayer's buffered writer (replay_plan.h, ReplayBufferedWriter; docs/replay.md
// §3, "Buffered writers"): one engine thread that writes a held-back writer's volume through the
// target's page cache, a buffered pwrite of up to 1 MiB at a time to the block device (its own
// descriptor, without O_DIRECT), as fast as the kernel lets it. Dirty throttling
// (balance_dirty_pages, on the target's bdi and its limits) and the flusher then set its pace,
// and the scheduler under test orders the flusher's writes, as they did for the real writer.
// It ends with fdatasync, so that what it dirtied is on the disk before the cell ends. Before
// each write it waits until every wait rule lets it (replay_wait_rules.h: while a journal's log
// write is in flight, say).
//
// Every wait is bounded: its start by the deadline (slept in steps of at most 50 ms, watching the
// abort flag), each pwrite by the kernel's throttling pauses (at most 200 ms each, killable), and
// the whole by the deadline checked between writes; the parent kills the engine at the cell's
// timeout, as for every other job.

#include <atomic>
#include <cstdint>
#include <string>

#include "harness/results/job_result.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_wait_rules.h"

namespace elevbench {

/// What the writer shares with the rest of the engine.
struct BufferedWriterContext {
  std::string device;       ///< the target block device
  int64_t start_ns = 0;     ///< the replay's start (CLOCK_MONOTONIC); the writer starts after it
  int64_t deadline_ns = 0;  ///< past it the writer stops and fails
  std::atomic<bool>* abort = nullptr;        ///< set when a job failed: stop
  std::atomic<int>* readers_left = nullptr;  ///< jobs with reads not yet ended
  /// The engine's wait rules: before each write the writer waits until every one lets it (the
  /// journal's log writes: the real writer's inode update waited for them). Null: none.
  const ReplayWaitRules* rules = nullptr;
};

/// Returns once every wait rule lets a writer go (at once when none holds it), looking again
/// every kReplayRulePollNs; each rule counts its hold. False with one line (`name`, the rule)
/// when an abort or the deadline came first.
[[nodiscard]] bool WaitForTheRules(const std::string& name, const BufferedWriterContext& ctx,
                                   std::string* err);

/// Writes `writer`'s volume (ReplayBufferedWriter) onto ctx.device and fills `result` (fio's
/// shape: its writes, each pwrite's time as clat, one sync; runtime from its first write to the
/// end of its fdatasync). *last_done_ns is when it ended. False with one line (`name`, the call
/// and errno) when the device cannot be opened, a write fails or the deadline passed.
[[nodiscard]] bool RunBufferedWriter(const std::string& name, const ReplayBufferedWriter& writer,
                                     const BufferedWriterContext& ctx, JobResult* result,
                                     int64_t* last_done_ns, std::string* err);

/// The offset of the next write after `written` bytes of `writer`'s extents, on a device of
/// `device_bytes`: through the extents in order, then (until_readers_end) on past the last one,
/// wrapping to the first extent's start at the device's end. Pure, for tests.
uint64_t BufferedWriteOffset(const ReplayBufferedWriter& writer, uint64_t device_bytes,
                             uint64_t written, uint64_t* contiguous_bytes);

}  // namespace elevbench
