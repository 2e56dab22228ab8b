#pragma once
// One traced process's I/Os as fio's iolog (`run replay --replayer fio`, docs/replay.md): the
// text a fio job reads with read_iolog. Pure, one part of the replay plan (replay_plan.h).
//
// What fio 3.33 does with it, and what the log does about it:
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
//   * fio 3.33 refuses a log with neither data nor waits (error 22, "failed initializing
//     iolog"), and --no-stall drops the waits as it reads them: a process that only flushed
//     keeps one wait (IologWriter::KeepOneWait) and runs without replay_no_stall.

#include <cstdint>
#include <string>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// fio's iolog action for a bio of `op`: "read", "write", "trim" or "sync" (a flush).
const char* IologAction(BlockTraceOp op);

/// Writes one job's iolog v2 text for the block device it replays onto.
class IologWriter {
 public:
  /// Starts the log: its header, then the device added and opened.
  explicit IologWriter(std::string device);
  /// Holds the job until the replay's `at_us` (after fio's lead-in, in whole milliseconds: the
  /// millisecond the I/O was recorded in), unless an earlier line already waits as long.
  void WaitUntil(uint64_t at_us);
  /// The one wait a log of flushes only keeps under --no-stall (see the header).
  void KeepOneWait();
  /// An I/O: `op` of `bytes` at `offset` (a flush: "sync 0 0").
  void Io(BlockTraceOp op, uint64_t offset, uint64_t bytes);
  /// The whole text, the device closed at its end.
  std::string Close();

 private:
  void WaitMs(uint64_t ms);
  std::string device_;
  std::string text_;
  uint64_t last_wait_ms_ = 0;
};

}  // namespace elevbench
