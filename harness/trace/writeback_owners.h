#pragma once
// Who the flusher's writes were for. A buffered writer (dd, cp, a database's log) dirties pages
// and queues no bio of its own; the flusher, a sync or an fsync writes them back later, as
// another task. The capture records, beside the bios, the page cache's events of the traced
// disk (tracefs writeback_dirty_folio: who dirtied which inode; writeback_single_inode_start …
// writeback_single_inode: which inode a task was writing back), and this attributes each write
// bio queued inside such a bracket to the process that dirtied that inode's pages. Measured
// before building (docs/replay-measurements.md, "The default replayer, and what holds a buffered
// writer back"): every flusher write bio fell inside a bracket, and each inode had one dirtier, on
// ext4 and on ext2 (which has no block-mapping events), so no file system's own events are needed.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// The tracefs events the attribution reads, as "writeback/NAME" for a capture to enable: the
/// dirtying event as this kernel names it (writeback_dirty_folio, writeback_dirty_page before
/// 5.19), then the bracket, then sched_process_exec where the kernel has it (a writer's name
/// when the trace line prints "<...>"), and jbd2_handle_start where it has it (with
/// ext4_mark_inode_dirty where the kernel has that too). Empty when the
/// tracefs mounted at `tracefs` lacks any of the writeback events: the capture then records bios
/// only (a version 1 trace).
std::vector<std::string> WritebackEventsToTrace(const std::string& tracefs);

/// Fills `records[i].owner` for each write bio of `records` (BioRecordsFromTraceText's, from
/// the same `text`, times relative to `start_ns`) that a task queued while writing back an
/// inode of disk major:minor: the pid that dirtied most of that inode's folios during the
/// capture. Sets `dirtiers` to every process that dirtied folios of that disk, most folios
/// first, named as the lines name them or, for "<...>", by the program it exec'd before, each
/// with the time it was held back: the sum of its pauses of 50 ms or more between two
/// dirtyings during which a write of its own pages was queued (dirty throttling, or a file
/// system waiting for writeback, as ext4's delayed-allocation switch does on a small disk; a
/// pause of the writer's own beside the flusher counts too, so it is an upper bound). Lines
/// that are not writeback events of that disk or execs are skipped.
void AttributeWriteback(std::string_view text, uint32_t major, uint32_t minor, uint64_t start_ns,
                        std::vector<BlockTraceRecord>* records,
                        std::vector<BlockTraceDirtier>* dirtiers);

/// The journal handle starts (jbd2_handle_start) on disk major:minor in `text`, times relative
/// to `start_ns`, of each process that has a record in `records`: BlockTraceHeader's
/// journal_handles, by pid, with the first inode each handle changed (ext4_mark_inode_dirty
/// by the same process after it; 0 for none) when the text has any such event. Empty when the
/// text has no handle.
std::vector<BlockTraceJournalHandles> JournalHandleStarts(
    std::string_view text, uint32_t major, uint32_t minor, uint64_t start_ns,
    const std::vector<BlockTraceRecord>& records);

}  // namespace elevbench
