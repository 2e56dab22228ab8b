#pragma once
// elevbench's block trace file: every bio one device was asked for, as `elevbench capture`
// recorded it from tracefs' block_bio_queue, and as `run replay` replays it. A versioned text
// format of elevbench's own (docs/replay.md §2): a magic line with the version, one
// JSON header line, one line per bio, and an `end COUNT` line, so a truncated file is told from
// a whole one. Text because a trace is read by people too (grep, diff) and compresses well.
//
//   elevbench block trace 2
//   {"device":"loop9","device_bytes":2147483648,"logical_block_bytes":512,...}
//   # time_ns pid comm op flags sector sectors latency_ns owner
//   1520331 4242 tar W S 264192 256 8120443 -
//   2630114 91 kworker/u8:3 W - 1048576 2048 40110234 4250
//   ...
//   end 28125

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace elevbench {

/// The newest version of the format. Version 2 adds who the flusher's writes were for (the
/// records' `owner` column, the header's `dirtiers`); a trace without writeback attribution is
/// written as version 1, so that older readers keep reading it. Both are read.
inline constexpr int kBlockTraceVersion = 2;

/// What a bio asked for. kFlush: a preflush without data (a zero-size "FWS" bio).
enum class BlockTraceOp { kRead, kWrite, kDiscard, kFlush };

/// A bio's request flags as the rwbs string shows them.
enum BlockTraceFlag : uint8_t {
  kTraceSync = 1,      ///< S: REQ_SYNC
  kTraceMeta = 2,      ///< M: REQ_META
  kTraceFua = 4,       ///< F after the op: REQ_FUA
  kTracePreflush = 8,  ///< F before the op: REQ_PREFLUSH (on a write with data)
  kTraceAhead = 16,    ///< A: REQ_RAHEAD (readahead)
};

/// One bio.
struct BlockTraceRecord {
  uint64_t time_ns = 0;  ///< since the start of the capture
  int32_t pid = 0;       ///< the submitting task
  std::string comm;      ///< its name (printable ASCII, no blanks: see EscapeTraceComm)
  BlockTraceOp op = BlockTraceOp::kRead;
  uint8_t flags = 0;     ///< BlockTraceFlag bits
  uint64_t sector = 0;   ///< first 512-byte sector
  uint32_t sectors = 0;  ///< 512-byte sectors; 0 only for kFlush
  /// From queued to its last sector completed, as the traced system saw it; -1 when unknown
  /// (a flush, or a bio still in flight when the capture ended). `run replay` takes the
  /// processes' concurrency from it.
  int64_t latency_ns = -1;
  /// For a write of page-cache pages (writeback by the flusher, a sync or the writer's own
  /// fsync): the process that dirtied them, which may never have queued a bio of its own (a
  /// buffered writer). 0 when the bio wrote no traced process's pages or nobody knows (a
  /// version 1 trace, a journal's or a direct write).
  int32_t owner = 0;
};

/// A process that dirtied page-cache pages of the traced disk's file system during a capture
/// (tracefs writeback_dirty_folio): a buffered writer, whatever its bios.
struct BlockTraceDirtier {
  int32_t pid = 0;
  std::string comm;
  /// Folios it dirtied (events, not bytes: a large folio is one; its bytes are those of the
  /// writes owned by it).
  uint64_t folios = 0;
  uint64_t first_ns = 0;  ///< its first and last dirtying, since the start of the capture
  uint64_t last_ns = 0;
  /// Between them, the time it was held back while its pages were written back (pauses of
  /// 50 ms or more in its dirtying with a write of its pages queued: writeback_owners.h). A
  /// writer held back is a closed loop on the disk: the scheduler under test sets its pace.
  uint64_t held_back_ns = 0;

  bool operator==(const BlockTraceDirtier&) const = default;
};

/// When a process started journal handles on the traced disk's file system during a capture
/// (tracefs jbd2_handle_start): each a change of metadata (an access time, a size, a bitmap)
/// that waits while the buffer it changes is being written, to the journal's log or to its
/// home location. The dependent replayer holds a reader's next I/O after one until the metadata
/// writes in flight at the time have completed (docs/replay.md §3); where the capture knows the
/// buffer a handle changed (ext4: the inode table block of the inode it dirtied), only until
/// the writes of that buffer have.
struct BlockTraceJournalHandles {
  int32_t pid = 0;
  std::vector<uint64_t> times_ns;  ///< since the start of the capture, ascending
  /// Per handle (empty, or as many as times_ns): the inode it dirtied first (tracefs
  /// ext4_mark_inode_dirty), 0 when it dirtied none or the file system has no such event.
  std::vector<uint64_t> inodes;
  /// Per handle (empty, or as many as times_ns): the first sector of its inode's block of the
  /// inode table on the traced disk (debugfs imap at the capture), -1 when not known.
  std::vector<int64_t> buffer_sectors;
  uint32_t block_bytes = 0;  ///< the file system's block: each buffer's length (0: not known)
  bool operator==(const BlockTraceJournalHandles&) const = default;
};

/// The header: what was traced, where and how.
struct BlockTraceHeader {
  /// The file's format version: 2 exactly when writeback_traced (RenderBlockTrace writes the
  /// lowest version that holds the trace; ParseBlockTrace sets the one read).
  int version = 1;
  std::string device;                ///< kernel name of the traced disk ("loop9", "sdb")
  uint64_t device_bytes = 0;         ///< its size
  uint32_t logical_block_bytes = 0;  ///< its logical block size
  std::string kernel;                ///< uname -r of the capturing machine
  std::string scheduler;             ///< the disk's scheduler during the capture
  uint64_t duration_ns = 0;          ///< how long the capture ran
  std::string captured_at;           ///< UTC, ISO 8601
  std::string source;                ///< "device sdb" or "emulated ide-2003, ext4: tar xf …"
  std::vector<std::string> command;  ///< the traced command (capture -- CMD), else empty
  uint64_t lost_events = 0;          ///< events tracefs dropped (a complete trace has 0)
  /// Whether the capture traced the page cache's writeback, so that `owner` and `dirtiers`
  /// say who the writes were for (a version 2 trace); false: nobody knows (version 1).
  bool writeback_traced = false;
  std::vector<BlockTraceDirtier> dirtiers;  ///< the buffered writers, most folios first
  /// Version 2, when the kernel has jbd2_handle_start and the file system a journal: the
  /// handles of each process with bios in the trace, by pid. Absent from the file when empty.
  std::vector<BlockTraceJournalHandles> journal_handles;
};

/// A whole trace, records in time order.
struct BlockTrace {
  BlockTraceHeader header;
  std::vector<BlockTraceRecord> records;
};

/// "R", "W", "D", "F" and back.
const char* BlockTraceOpCode(BlockTraceOp op);
/// The flags as letters in a fixed order ("PSMFA" subset), "-" for none.
std::string BlockTraceFlagLetters(uint8_t flags);

/// The record of a block_bio_queue event's fields: op and flags from its rwbs string
/// (harness/trace/block_events.h). False for an rwbs that is not a read, write, discard or a
/// data-less preflush (nothing to replay).
[[nodiscard]] bool BlockTraceOpFromRwbs(std::string_view rwbs, uint32_t sectors, BlockTraceOp* op,
                                        uint8_t* flags);

/// A comm as the file stores it: printable ASCII, with blanks, '%' and anything else escaped as
/// %XX, so that a record stays a line of blank-separated fields.
std::string EscapeTraceComm(std::string_view comm);

/// Renders the trace in the file format (deterministic).
std::string RenderBlockTrace(const BlockTrace& trace);

/// Parses a trace file's text. False with one line in err (with the line number) for anything
/// but a whole trace of a known version: a foreign file, an unsupported version, a malformed
/// header or record, times going backwards, an extent past the device's end, a missing `end`
/// line (a truncated file) or a count that disagrees. Never throws.
[[nodiscard]] bool ParseBlockTrace(std::string_view text, BlockTrace* out, std::string* err);

/// Reads and parses a trace file; err starts with the path.
[[nodiscard]] bool ReadBlockTraceFile(const std::string& path, BlockTrace* out, std::string* err);

}  // namespace elevbench
