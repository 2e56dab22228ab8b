#pragma once
// How a block trace becomes fio jobs (docs/replay.md): one job per traced process, each reading
// its own iolog v3 (fio 3.33's text replay format: "TIME_US FILE ACTION [OFFSET LENGTH]"), so
// bfq and kyber see the processes the traced system had. Pure: trace in, job texts out, so
// what fio is handed can be golden-tested.
//
// What fio 3.33 does with it, and what this plan does about it:
//   * fio issues a job's first I/O at once (measured: jobs whose first records were 0.5 s and
//     1.3 s into the trace started 0.82 s apart in the wrong order), and `startdelay` starts
//     late by up to fio's 0.1 s poll (76 ms seen). So every job starts with fio and its log
//     opens with a `sync` at 1 µs, which stamps fio's issue clock: the first record then waits
//     out its recorded time. The sync is a FLUSH on a device with a write cache (counted in
//     added_syncs). The lag (replay_lag.h) shows whether the jobs start together.
//   * fio takes a record's delay from the previous record's time, except after a time of 0,
//     so every time written is the recorded one plus 1 µs.
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

#include <cstdint>
#include <string>
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
};

/// How the offsets were mapped (for the cell's record and docs).
struct ReplayMapping {
  std::string mode;         ///< "as recorded", "shifted", "scaled"
  int64_t shift_bytes = 0;  ///< subtracted from every offset (shifted, scaled)
  double scale = 1;         ///< offsets multiplied by this after the shift (scaled)
  uint64_t span_bytes = 0;  ///< the trace's first to last byte
  uint64_t target_bytes = 0;
};

/// One fio job: one traced process.
struct ReplayJob {
  std::string name;  ///< fio job name "p<pid>_<comm>"
  int32_t pid = 0;
  std::string comm;
  std::string ioengine;  ///< "psync" or "libaio"
  uint32_t iodepth = 1;
  uint64_t start_delay_us = 0;  ///< fio startdelay
  std::string iolog;            ///< the iolog v3 text
  uint64_t ops = 0;             ///< records of this process (flushes included)
  uint64_t ios = 0;             ///< fio I/Os they became (contiguous bursts are one, see above)
  uint64_t bytes = 0;           ///< their data bytes
  uint64_t added_syncs = 0;     ///< syncs put before preflush writes (not records of the trace)
  uint64_t fua_writes = 0;      ///< FUA writes replayed as plain writes
  bool writes = false;          ///< has writes or discards
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
  double duration_seconds = 0;  ///< the trace's duration after speed scaling
};

/// Maps the trace's extents onto a target of `target_bytes` (see ReplayFit). False with one line
/// naming both sizes when the span does not fit and `fit` is not kScale, or for an empty trace.
[[nodiscard]] bool MapReplayOffsets(const BlockTrace& trace, uint64_t target_bytes, ReplayFit fit,
                                    ReplayMapping* mapping, std::string* err);

/// Builds the jobs for replaying `trace` onto the block device `device_path` (of `target_bytes`).
/// err as MapReplayOffsets, or for a speed that is not positive.
[[nodiscard]] bool PlanReplay(const BlockTrace& trace, const std::string& device_path,
                              uint64_t target_bytes, const ReplayOptions& options, ReplayPlan* plan,
                              std::string* err);

}  // namespace elevbench
