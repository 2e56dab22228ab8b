#pragma once
// The capture (`elevbench capture`, docs/replay.md §1) as a library object: every bio of one
// disk recorded into an elevbench block trace (block_trace_file.h) while a workload runs — a
// command, in the root of a target elevbench made or where the user runs it, or a duration on
// a disk of the user's, read-only. CaptureJob (capture_job.h) turns the command line's config
// into a CaptureConfig and makes the target and the journal; the CLI prints. Each step here is
// a function of its own, as the run's are in harness/run/run_session.h.

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/block_device.h"
#include "harness/device/restore_journal.h"
#include "harness/run/target.h"
#include "harness/trace/block_trace_file.h"
#include "harness/trace/block_trace_summary.h"

namespace elevbench {

/// What to capture, checked (CheckCaptureDevice, CheckOutOffTracedDisk) before anything is made.
struct CaptureConfig {
  /// A whole disk of the user's ("sdb"), traced read-only; empty when the capture traces the
  /// target elevbench made for it (RunCapture's `target`).
  std::string device;
  double duration_seconds = 0;       ///< with `device` and no command: how long to trace
  std::vector<std::string> command;  ///< the workload; in the target's root when there is one
  /// `sh -c SETUP`, run in the target's root before the trace starts, then written back and
  /// the caches dropped (RunTarget::DropCaches): the trace holds the workload alone, and the
  /// workload reads what the set-up made from the disk, as `run command --setup` does. Needs a
  /// target elevbench made; empty: none.
  std::string setup;
  std::string out;     ///< the trace file, written atomically
  std::string source;  ///< the header's source ("emulated ide-2003, ext4: tar -xf src.tar")
};

/// What a capture gave.
struct CaptureOutcome {
  BlockTraceSummary summary;        ///< of the trace written
  uint64_t lost_events = 0;         ///< events tracefs dropped (the header's lost_events)
  int command_exit_code = 0;        ///< the command's exit status; 0 without a command
  int command_term_signal = 0;      ///< the signal that ended it, or 0
  std::string command_stderr_tail;  ///< the last line of its stderr, for a failed command
  /// Why the target's writeback could not be drained into the trace (it then misses some of
  /// the flusher's bios); empty when it was, or when there is no target.
  std::string drain_error;
  /// Why the buffers the journal handles changed are not in the trace (debugfs failed); empty
  /// when they are, or when no handle changed an inode. The replay then waits for any metadata
  /// write after a handle.
  std::string buffers_problem;
};

/// "sdb" or "/dev/sdb" → "sdb", when it names a whole disk (/sys/block/NAME/dev exists under
/// `paths`); err says to name the disk, not a partition.
[[nodiscard]] bool CheckCaptureDevice(const std::string& given, const SystemPaths& paths,
                                      std::string* name, std::string* err);

/// Refuses an `out` on the traced `disk` (the disk itself, a partition, a device stacked on
/// them; the file itself when it exists, e.g. a device node): the trace and its raw events
/// beside it would be written to a disk the user asked only to observe, and traced.
[[nodiscard]] bool CheckOutOffTracedDisk(const std::string& out, const std::string& disk,
                                         std::string* err);

/// The header's facts of `disk`, read before the capture (ReadBlockDevice): size, logical
/// block, active scheduler, kernel, time; and its device number, for the events' filter.
[[nodiscard]] bool DescribeTracedDisk(const std::string& disk, const SystemPaths& paths,
                                      BlockTraceHeader* header, uint32_t* major, uint32_t* minor,
                                      std::string* err);

/// The capture: traces the disk (`target`'s first, or config.device when `target` is null)
/// while the workload runs, drains the target's writeback into the trace (a bounded syncfs),
/// stops, and writes config.out. The raw events file `<out>.raw` is journaled and removed.
/// False with err when the capture could not start, was interrupted (then no trace is written)
/// or could not be written; a command that fails still gives its trace (its status in
/// *outcome).
[[nodiscard]] bool RunCapture(const CaptureConfig& config, const RunTarget* target,
                              RestoreJournal* journal, Progress* progress, CaptureOutcome* outcome,
                              std::string* err);

}  // namespace elevbench
