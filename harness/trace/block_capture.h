#pragma once
// `elevbench capture`'s recorder: every bio one disk is asked for, when it was done and whose
// pages a write wrote (block_bio_queue, block_rq_complete and writeback events in a private
// tracefs instance, the request tracer's machinery of tracefs.h), streamed into a raw file while
// it runs and turned into an elevbench block trace (block_trace_file.h) at the end. Read-only on
// the disk: it is never switched, written or even opened; only tracefs changes, journaled.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/trace/block_trace_file.h"
#include "harness/trace/tracefs.h"

namespace elevbench {

/// The bios of device major:minor among the lines of a raw trace (trace_pipe text), with their
/// times made relative to `start_ns` (CLOCK_MONOTONIC, the instance's `mono` clock) and clamped
/// at 0. Lines that are not such bios are skipped; `unreadable` counts event lines that did not
/// parse. Each record's latency is the completion of its last sector (bio_timing.h), -1 when
/// the text has none. Records keep the text's order, which trace_pipe keeps in time order.
void BioRecordsFromTraceText(std::string_view text, uint32_t major, uint32_t minor,
                             uint64_t start_ns, std::vector<BlockTraceRecord>* records,
                             uint64_t* unreadable);

/// Nanoseconds of CLOCK_MONOTONIC, the clock of the trace's timestamps.
uint64_t MonotonicNanoseconds();

/// One capture of one disk.
class BlockCapture {
 public:
  BlockCapture() = default;
  ~BlockCapture();  ///< stops and removes the instance if Stop was not called (never throws)
  BlockCapture(const BlockCapture&) = delete;
  BlockCapture& operator=(const BlockCapture&) = delete;

  /// Journals `raw_path` (undo: unlink), mounts tracefs if needed and makes the instance (both
  /// journaled), starts the thread that streams its trace_pipe into `raw_path`, then switches
  /// tracing on; the capture's time 0 is
  /// taken just before. err is one line.
  /// `events` are the tracefs events recorded (block_bio_queue is the trace's; a replay adds
  /// the request events to time each bio, harness/trace/request_analysis.h). The page cache's
  /// writeback events of the disk are added where the kernel has them, so that Stop can say
  /// whose pages each write wrote (harness/trace/writeback_owners.h).
  [[nodiscard]] bool Start(RestoreJournal* journal, uint32_t major, uint32_t minor,
                           const std::string& raw_path, std::string* err,
                           const std::vector<std::string>& events = {"block/block_bio_queue",
                                                                     "block/block_rq_complete"});
  /// Switches tracing off, drains the pipe, counts lost events, removes the instance and parses
  /// the raw file into `trace->records`, `header.duration_ns` and `header.lost_events`. A lost
  /// event is not an error (the header says how many); a failed read of the pipe is.
  [[nodiscard]] bool Stop(BlockTrace* trace, std::string* err);
  /// Whether the instance still exists (someone may remove it under a capture).
  bool InstanceExists() const { return instance_.Exists(); }

 private:
  TracefsInstance instance_;
  TracePipeReader reader_;
  std::string raw_path_;
  uint32_t major_ = 0, minor_ = 0;
  uint64_t start_ns_ = 0;
  bool running_ = false;
  bool writeback_traced_ = false;
};

}  // namespace elevbench
