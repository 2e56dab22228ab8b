#pragma once
// What a replay's verdict must warn of (VerdictBlock::cautions): the ways a replay of this trace
// can rank the schedulers otherwise than the real workload would, which the replay itself cannot
// see (docs/replay.md §3, "Buffered writers", and §5; docs/replay-measurements.md). Pure.

#include <string>
#include <vector>

#include "harness/trace/block_trace_file.h"
#include "scenarios/replay/replay_plan.h"

namespace elevbench {

/// One line each: a process that the capture shows was a closed loop on the disk (a held-back
/// buffered writer) replayed at its recorded pace, by fio (without
/// ReplayOptions::buffered_writers); a version 1 trace whose writeback writes (writes without
/// REQ_SYNC) nobody can attribute, so that a writer the scheduler would have sped up or held
/// back is held to the capture's pace; and with buffered writers replayed,
/// FileSystemWaitsCaution. Empty when none applies.
std::vector<std::string> ReplayCautions(const BlockTrace& trace, const ReplayOptions& options);

/// The file-system waits a block replay cannot repeat: a trace with a buffered writer
/// (HeldBackWriters), a reader (another process with reads) and a journal's commits (writes with
/// a preflush or FUA). A reader's wait inside the file system that the capture's scheduler did
/// not cause leaves no bio in the trace: measured in docs/replay-measurements.md ("A reader's waits
/// inside the file system"), where cat's access-time update under mq-deadline waited in jbd2 for an
/// inode table block whose write was queued behind dd's data, and under none (the capture's
/// scheduler) never waited. With the readers' journal handles in the trace
/// (BlockTraceHeader::journal_handles) the replay repeats such waits by a rule coarser than the
/// kernel's (ReplayJob::journal_wait_steps), and the caution says so. Empty when the trace lacks
/// any of the three.
std::string FileSystemWaitsCaution(const BlockTrace& trace);

}  // namespace elevbench
