#pragma once
// Parses the text lines that tracefs prints for the block layer's events (trace_pipe of a
// private instance), for the trace markers elevbench writes into it, and for the messages of
// the global `blk` tracer (bfq's log). Pure: a line in, a plain event out, so the parser can be
// tested on recorded fixtures and fuzzed (fuzz/trace_events_fuzz.cc). docs/request-tracing.md
// shows the formats.
//
//   dd-13868 [001] d..1.   832.775706: block_rq_insert: 7,0 RS 4096 () 0 + 8 be,0,4 [dd]
//   <...>-22 [000] ..s..   832.775844: block_rq_complete: 7,0 RS () 0 + 8 be,0,4 [0]
//   bash-6433 [001] ...1. 36733.740709: tracing_mark_write: elevbench phase seq_read
//   dd-6601 [000] d..1. 36818.888175:   7,0   1,0  m   N bfq6601S allocated
//   dd-2586 [001] d..1. 16116.848746: writeback_dirty_folio: bdi 7:9: ino=12 index=6324

#include <cstdint>
#include <string>
#include <string_view>

namespace elevbench {

/// What a line is. kIgnored: a comment, an empty line, or an event the tracer does not use.
enum class TraceEventKind {
  kIgnored,
  kBioQueue,          ///< block_bio_queue: a bio as the submitter asked for it (Q)
  kBioBackmerge,      ///< block_bio_backmerge: a bio appended to a queued request (M)
  kBioFrontmerge,     ///< block_bio_frontmerge: a bio put before a queued request (F)
  kRqInsert,          ///< block_rq_insert: a request into the scheduler (I)
  kRqIssue,           ///< block_rq_issue: a request to the driver (D)
  kRqMerge,           ///< block_rq_merge: a queued request merged into another
  kRqRequeue,         ///< block_rq_requeue: a request back from the driver to the scheduler
  kRqComplete,        ///< block_rq_complete: (part of) a request done (C)
  kMarker,            ///< tracing_mark_write: elevbench's own marker ("elevbench phase NAME")
  kSchedulerEvent,    ///< an event of the scheduler's own (kyber_latency, kyber_adjust, ...)
  kSchedulerMessage,  ///< a `blk` tracer message line ("m N bfq6601S allocated")
  /// writeback_dirty_folio (writeback_dirty_page before 5.19): the running task dirtied a
  /// page-cache folio of inode `ino` on the disk dev_major:dev_minor (the bdi's name)
  kWritebackDirty,
  /// writeback_single_inode_start: the running task starts writing back inode `ino`'s pages
  kWritebackInodeStart,
  /// writeback_single_inode: it is done with them; the bios it queued in between wrote them
  kWritebackInodeDone,
  /// sched_process_exec: the running task became `text` (the program's file name, as its comm
  /// reads: the base name, at most 15 bytes), which names a task the line prints as "<...>"
  kProcessExec,
  /// jbd2_handle_start: the running task started a journal handle (a change of metadata: an
  /// inode's times, size, a bitmap) on the file system of disk dev_major:dev_minor
  kJournalHandleStart,
  /// ext4_mark_inode_dirty: the running task changed inode `ino` of the ext4 file system on
  /// disk dev_major:dev_minor (inside a handle: the buffer of the inode table it changes)
  kInodeDirty
};

/// The operation of a request or bio, from its rwbs string ("RS", "WFS", "FWS", "RA", "N").
enum class TraceOp { kRead, kWrite, kDiscard, kOther };

/// One parsed line. Fields that the line's kind does not have stay zero or empty.
struct TraceEvent {
  TraceEventKind kind = TraceEventKind::kIgnored;
  uint64_t time_ns = 0;  ///< the line's timestamp (seconds.micros) in nanoseconds
  int32_t pid = 0;       ///< the task that was running when the event fired
  std::string task;      ///< that task's comm as the line prints it (may be "<...>")
  uint32_t dev_major = 0;
  uint32_t dev_minor = 0;
  std::string rwbs;  ///< "RS", "WFS", ...
  TraceOp op = TraceOp::kOther;
  bool flush = false;  ///< a preflush (leading F) or a flush request (FF, no data)
  uint64_t sector = 0;
  uint32_t sectors = 0;  ///< nr_sector: 512-byte sectors (0 for a flush)
  std::string comm;      ///< the bracketed comm (bio/insert/issue) of the submitter
  std::string name;      ///< the event's name ("kyber_latency") or nothing
  std::string text;      ///< the marker's or message's text after its fixed fields
  uint64_t ino = 0;      ///< a writeback event's or ext4_mark_inode_dirty's inode number
};

/// Parses one line (without or with its trailing newline). Returns true with *out filled for
/// every kind, kIgnored included; false with one line in err when the line looks like an event
/// line but its fields do not parse (a truncated line, a format this kernel changed). Never
/// throws; any input is safe.
[[nodiscard]] bool ParseTraceLine(std::string_view line, TraceEvent* out, std::string* err);

/// The operation and flush flag of an rwbs string (kernel's blk_fill_rwbs: an optional leading
/// F for a preflush, then R, W, D, N or FF for a flush request, then F, A, S, M flags).
void ClassifyRwbs(std::string_view rwbs, TraceOp* op, bool* flush);

/// "read", "write", "discard", "other".
const char* TraceOpName(TraceOp op);

/// The text elevbench writes into trace_marker to start a phase, and its parser.
inline constexpr std::string_view kPhaseMarkerPrefix = "elevbench phase ";

}  // namespace elevbench
