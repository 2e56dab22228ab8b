#pragma once
// What a block trace holds, for `elevbench trace show` and for the replay's records: how long,
// which processes asked for what, the sizes, where on the disk, how sequential, the busiest
// second. Pure numbers; reporters/block_trace_text.h renders them.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// One traced process.
struct TraceProcessSummary {
  int32_t pid = 0;
  std::string comm;
  uint64_t ops = 0;  ///< its bios (flushes included)
  uint64_t bytes = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t discards = 0;
  uint64_t flushes = 0;  ///< data-less flushes: ops = reads + writes + discards + flushes
};

/// A buffered writer of a version 2 trace: a process whose dirtied pages others wrote back.
struct TraceBufferedWriter {
  BlockTraceDirtier dirtier;  ///< pid, comm, folios dirtied, first and last dirtying
  uint64_t writes = 0;        ///< write bios of its pages, whoever queued them
  uint64_t bytes = 0;
};

/// One direction (reads, writes, discards).
struct TraceDirectionSummary {
  uint64_t ops = 0;
  uint64_t bytes = 0;
  /// Bios starting where the previous bio of the same process and direction ended.
  uint64_t sequential_ops = 0;
};

/// The whole trace.
struct BlockTraceSummary {
  double duration_seconds = 0;
  uint64_t records = 0;
  TraceDirectionSummary reads, writes, discards;
  uint64_t flushes = 0;     ///< data-less preflushes
  uint64_t preflushes = 0;  ///< writes with a preflush before their data
  uint64_t fua = 0;         ///< writes with FUA
  uint64_t sync_ops = 0;    ///< bios marked sync
  /// Bios by size: bytes rounded up to a power of two -> count.
  std::map<uint64_t, uint64_t> sizes;
  uint64_t first_sector = 0;  ///< lowest sector touched
  uint64_t end_sector = 0;    ///< one past the highest sector touched
  /// The one-second window (from the trace's start) with the most bytes.
  uint32_t busiest_second = 0;
  uint64_t busiest_second_ops = 0;
  uint64_t busiest_second_bytes = 0;
  std::vector<TraceProcessSummary> processes;  ///< busiest (most bios) first
  /// The trace's dirtiers (header.dirtiers, most folios first) with the writes of their pages;
  /// empty for a version 1 trace, which does not know.
  std::vector<TraceBufferedWriter> buffered_writers;
  /// The traced system's latencies (bios with a recorded latency), reads and writes.
  LatencyHistogram read_latency, write_latency;
  /// Share of data bios (reads + writes + discards) that are sequential, 0..1.
  double SequentialShare() const;
  /// Bytes from the first sector touched to the end of the last.
  uint64_t SpanBytes() const { return (end_sector - first_sector) * 512; }
};

/// Summarizes `trace`.
BlockTraceSummary SummarizeBlockTrace(const BlockTrace& trace);

}  // namespace elevbench
