#pragma once
// `run replay`'s plain record: one per cell, the replay of the whole trace under one
// configuration. docs/replay.md defines every field.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/job_result.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"

namespace elevbench {

/// One traced process as replayed: its fio job.
struct ReplayProcess {
  int32_t pid = 0;
  std::string comm;
  std::string ioengine;  ///< psync (a process that waits) or libaio (writeback), see replay_plan.h
  /// How it was replayed (docs/replay.md §3): "recorded_times" (every I/O due at its recorded
  /// time: fio's iolog, or the engine where none waited for a completion), "dependencies" (the
  /// engine, some I/Os after the completion they waited for) or "buffered_writer" (written
  /// through the page cache, ReplayBufferedWriter); empty in files written before it.
  std::string replayed_as;
  /// A buffered writer that wrote until the readers ended (ReplayBufferedWriter).
  bool until_readers_end = false;
  uint64_t trace_ops = 0;
  uint64_t trace_bytes =
      0;  ///< its bios' data bytes in the trace (a buffered writer's: its pages')
  double first_lag_ms = -1;  ///< lag of its first I/O (-1: not measured)
  /// Its reads' median latency in the trace, ms (ReplayJob::trace_read_p50_ms; -1: none).
  double trace_read_p50_ms = -1;
  /// Its bios' span in the trace and in this replay, first queued to last completed as the
  /// kernel traced them, s (ReplayJob::trace_span_seconds): how long the process's I/O took
  /// under this scheduler, beside the rest of the trace replayed with it. -1: not known (the
  /// replay's bios were not traced; files written before these fields).
  double trace_span_seconds = -1;
  double replay_span_seconds = -1;
  /// Queue-to-completion latency of its bios as the kernel traced them (bio_timing.h):
  /// immune to fio 3.33 reaping completions late during replay waits (replay_plan.h). Empty
  /// when not traced.
  LatencyHistogram kernel_read, kernel_write;
  JobResult job;  ///< fio's own account (clat per I/O)
};

/// One cell.
struct ReplayRecord : RecordHeader {
  uint64_t trace_ops = 0;    ///< the trace's bios (flushes included)
  uint64_t trace_bytes = 0;  ///< their data bytes
  /// Records that reached the device at their offsets (the kernel's view, replay_lag.h); fio's
  /// counts when the lag was not measured.
  uint64_t replayed_ops = 0;
  uint64_t replayed_bytes = 0;
  /// fio's count: reads + writes + trims + fsyncs − added_syncs (plug-merged bios are one I/O)
  uint64_t fio_ops = 0;
  uint64_t fio_bytes = 0;    ///< fio's bytes (short by its last in-flight I/Os, replay_plan.h)
  uint64_t added_syncs = 0;  ///< flushes put before preflush writes (not in replayed_ops)
  /// The trace's bios (and bytes) of buffered writers' pages, replayed as those writers' writes
  /// through the page cache (ReplayPlan::buffered_ops), not as bios: the account counts them
  /// beside replayed_ops. 0 in files written before them.
  uint64_t buffered_ops = 0;
  uint64_t buffered_bytes = 0;
  /// A journal's log writes, during each of which the buffered writers dirtied nothing
  /// (ReplayJob::journal_log_steps). 0 without a buffered writer, and in files before it.
  uint64_t journal_log_writes = 0;
  /// The readers' I/Os after a journal handle (ReplayJob::journal_wait_steps), and how long they
  /// were held in all while metadata writes were in flight (ReplayEngineResult). 0 without
  /// journal handles in the trace, with --replayer fio, and in files before them.
  uint64_t journal_wait_ios = 0;
  double journal_wait_seconds = 0;
  uint64_t fua_writes = 0;   ///< FUA writes replayed as plain writes
  double trace_seconds = 0;  ///< the trace's duration after --speed
  /// The trace's first bio queued to its last completed, after --speed (ReplayPlan); 0 in
  /// results written before it was recorded.
  double trace_span_seconds = 0;
  /// From the first replayed bio queued to the last one completed, as the kernel traced them
  /// (comparable with trace_seconds); fio's wall time when the lag was not measured.
  double replay_seconds = 0;
  /// Wall time of fio, its start-up and the replay's lead-in included (replay_plan.cc).
  double fio_seconds = 0;
  bool lag_measured = false;  ///< false without root or tracefs (lag_* then 0)
  /// Why the replay's bios were not traced (one line); empty when they were, and in files
  /// written before this field.
  std::string lag_problem;
  uint64_t lag_matched = 0;
  uint64_t lag_unmatched = 0;
  /// The trace's bios of each kind whose I/O no replayed bio matched (ReplayLag::missed_records;
  /// 0 when the lag was not measured, and in files written before these fields).
  uint64_t missed_reads = 0, missed_writes = 0, missed_discards = 0, missed_flushes = 0;
  double lag_mean_ms = 0, lag_p99_ms = 0, lag_max_ms = 0;
  bool keeps_time = false;  ///< lag_p99_ms within the bound (replay_lag.h)
  std::string mapping;      ///< "as recorded", "shifted", "scaled"
  std::vector<ReplayProcess> processes;

  /// Every process's reads (or writes) merged: the cell's latency of that direction, from the
  /// kernel's trace when the cell was traced (lag_measured), else fio's clat.
  LatencyHistogram ReadLatency() const;
  LatencyHistogram WriteLatency() const;
  /// replayed_bytes / replay_seconds in MiB/s (2^20 bytes a second, as every `_mb_s`).
  double MegabytesPerSecond() const;
};

nlohmann::json ReplayRecordToJson(const ReplayRecord& record);
[[nodiscard]] bool ReplayRecordFromJson(const nlohmann::json& j, ReplayRecord* record,
                                        std::string* err);
[[nodiscard]] bool ReplayRecordsFromDocument(const ResultsDocument& doc,
                                             std::vector<ReplayRecord>* records, std::string* err);

}  // namespace elevbench
