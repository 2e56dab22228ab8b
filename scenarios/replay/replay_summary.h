#pragma once
// A replay run's results aggregated for its table (reporters/replay_text.cc renders them): each
// configuration's repetitions combined, each traced process's bios per direction merged over
// the repetitions, and how exactly the cells replayed the trace. The suite aggregates so that
// the reporter only formats (docs/architecture.md, "Suites aggregate, reporters render").

#include <cstdint>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "scenarios/replay/replay_records.h"

namespace elevbench {

/// One configuration, its repetitions combined.
struct ReplayConfigurationSummary {
  std::string identifier;
  double seconds = 0;        ///< mean replay time
  double mb_s = 0;           ///< mean rate
  LatencyHistogram reads;    ///< every read of every repetition
  LatencyHistogram writes;   ///< every write of every repetition
  double lag_p99_ms = 0;     ///< the worst repetition's lag p99
  bool lag_measured = true;  ///< every repetition measured its lag
  bool kept_time = true;     ///< every repetition kept time
  /// The readers' I/Os after a journal handle (the most of any repetition) and the mean over
  /// the repetitions of how long they were held (ReplayRecord::journal_wait_seconds).
  uint64_t journal_wait_ios = 0;
  double journal_wait_seconds = 0;
};

/// One traced process's direction in one configuration, repetitions merged.
struct ReplayProcessSummary {
  std::string job;  ///< "p<pid>_<comm>"
  std::string configuration;
  std::string direction;  ///< "read" or "write"
  std::string engine;
  /// How it was replayed: "recorded times", "dependencies", "buffered" (a buffered writer of
  /// its volume), "buffered, to end" (one that wrote until the readers ended); "-" unknown.
  std::string replayed_as;
  LatencyHistogram latency;  ///< the kernel's, or fio's where the cell's lag was not measured
  double fio_p99_ms = 0;     ///< the replayer's own clat p99 (the worst repetition), beside it
  /// The mean over the configuration's cells of the process's span, first bio queued to last
  /// completed (ReplayProcess::replay_span_seconds); -1 when no cell's bios were traced.
  double span_seconds = -1;
};

/// One buffered writer in one configuration (ReplayProcess::replayed_as "buffered_writer").
struct ReplayWriterSummary {
  std::string job;
  std::string configuration;
  bool until_readers_end = false;
  uint64_t trace_bytes = 0;  ///< the trace's writes of its pages
  double written_bytes = 0;  ///< what it wrote through the page cache, mean of the cells
  double seconds = 0;        ///< its first write to the end of its fdatasync, mean of the cells
};

/// One cell's replayed bios against the trace's, and the kinds of those not seen at the device.
struct ReplayShortfall {
  uint64_t replayed_ops = 0;
  uint64_t trace_ops = 0;
  bool traced = false;  ///< the replay's bios were traced (lag_measured): the kinds are known
  uint64_t reads = 0, writes = 0, discards = 0, flushes = 0;  ///< the trace's bios not seen
};

/// What the replay's table says.
struct ReplaySummary {
  std::vector<ReplayConfigurationSummary> configurations;  ///< in `identifier_order`
  std::vector<ReplayProcessSummary> processes;             ///< by job name, stable
  std::vector<ReplayWriterSummary> writers;                ///< by job name, stable
  size_t exact_cells = 0;       ///< cells that replayed every bio and every byte of the trace
  size_t every_byte_cells = 0;  ///< cells that replayed every byte (their bios or not)
  /// The cell that replayed the fewest of the trace's bios (the first such), for the line that
  /// says what did not match.
  ReplayShortfall fewest_bios;
  /// Buffered writers' pages of the trace (in every cell the same): bios and bytes, replayed
  /// as those writers' writes through the page cache; 0 when none.
  uint64_t buffered_ops = 0, buffered_bytes = 0;
  /// The latest first I/O of any job against its schedule, ms; -1 when no cell measured it.
  double latest_first_lag_ms = -1;
};

/// Aggregates `records` for the table, configurations in `identifier_order` (those without a
/// record left out).
ReplaySummary SummarizeReplay(const std::vector<ReplayRecord>& records,
                              const std::vector<std::string>& identifier_order);

}  // namespace elevbench
