#pragma once
// The request tracer's account of one cell (`--trace-requests summary|full`), the typed record of
// CellRecord::request_trace: made by the tracer (harness/trace/), written into the results file,
// read back and used by the reports (harness/stats/, reporters/) as fields, never by key. The
// JSON is the `request_trace` object of docs/request-tracing.md.
//
// Lenient on reading, for files older than a member: an absent or null number reads as 0, an
// absent histogram or map as empty, absent "read"/"write" as directions without requests. A
// member of the wrong type is an error naming it. Members the record does not know are
// ignored (and not written back).

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/compact_histogram.h"
#include "harness/core/trace_mode.h"

namespace elevbench {

/// One direction's requests (reads or writes) of a cell, a process or a phase. A direction
/// without requests has requests 0 and empty histograms. The histograms are compact (a trace
/// holds up to 168 of them; compact_histogram.h).
struct TraceDirection {
  uint64_t requests = 0;       ///< completed requests
  uint64_t bytes = 0;          ///< their bytes
  uint64_t direct_issues = 0;  ///< issued without an insert (none's direct issue): I2D = 0
  uint64_t unmatched = 0;      ///< completions whose queue or issue the trace did not see
  CompactHistogram q2c;        ///< queued to completed, ns
  CompactHistogram i2d;        ///< inserted into the scheduler to dispatched to the driver, ns
  CompactHistogram d2c;        ///< dispatched to completed (in the device), ns
  uint64_t dispatches = 0;
  /// Mean length of a dispatch run: requests the scheduler dispatched one after another from
  /// the same process before it turned to another one.
  double mean_dispatch_run = 0;
  std::map<uint64_t, uint64_t> dispatch_run_lengths;  ///< run length → how many runs
  double seek_share = 0;  ///< fraction of dispatches that did not start where the last one ended
  double mean_seek_sectors = 0;    ///< over the seeks
  CompactHistogram seek_distance;  ///< the histogram's values are sectors, not ns
  uint64_t merges = 0;             ///< bio back/front merges and request merges
  uint64_t requeues = 0;
  double mean_request_kib = 0;
};

/// Both directions of one account (the whole cell, a process or a phase).
struct TraceDirections {
  TraceDirection read;
  TraceDirection write;
  /// "read" or "write": the direction with more requests (read on a tie), the one whose
  /// dispatch runs and seeks describe the account.
  const char* Busier() const { return write.requests > read.requests ? "write" : "read"; }
  const TraceDirection& Of(const std::string& direction) const {
    return direction == "write" ? write : read;
  }
};

/// One process's account ({"pid", "comm", "read", "write"}).
struct TraceProcess {
  int32_t pid = 0;
  std::string comm;
  TraceDirections account;
};

/// Requests waiting in the scheduler over the cell ({"mean", "max", "series"}).
struct TraceQueued {
  double mean = 0;  ///< time-weighted over the trace
  uint64_t max = 0;
  std::vector<std::pair<double, uint64_t>> series;  ///< (s from the first event, max in 100 ms)
};

/// A cell's request trace. Two kinds of members: the tracer's status of the cell (mode,
/// complete, problem, the raw files) and the analysis of its events (the rest), written only
/// when `summarised`: a cell whose tracing never began has the status alone.
struct RequestTraceRecord {
  TraceMode mode = TraceMode::kOff;  ///< summary or full; kOff: not written (analysis alone)
  /// False when events were dropped, did not parse, or the tracer had a problem; absent in the
  /// analysis alone. Readers take an absent one as true (Complete()).
  std::optional<bool> complete;
  std::string problem;                 ///< why the trace is incomplete; "" = not written
  std::string raw_events;              ///< the kept (compressed) events file; "" = not written
  std::string raw_scheduler_messages;  ///< `full`'s scheduler log file; "" = not written

  /// Whether the analysis below is part of the record (false: "not traced: …", status only).
  bool summarised = true;
  uint64_t events = 0;                  ///< block events of the device, markers and messages read
  uint64_t dropped_events = 0;          ///< lost by the kernel
  uint64_t parse_errors = 0;            ///< lines that did not parse
  std::string first_parse_error;        ///< written when parse_errors > 0
  uint64_t flushes = 0;                 ///< flush requests (no data), not in the directions
  double duration_s = 0;                ///< first to last event
  TraceDirections total;                ///< the whole cell ("read", "write")
  std::vector<TraceProcess> processes;  ///< the busiest first
  uint64_t other_processes = 0;         ///< processes left out of `processes`
  /// The cell's phases by name (tiobench's "seq_write" …); empty (not written) without phases.
  std::map<std::string, TraceDirections> phases;
  std::optional<TraceQueued> queued;                   ///< absent only in files that left it out
  std::map<std::string, uint64_t> scheduler_messages;  ///< kind → count (`full`)
  /// bfq queue ("6601S", the pid and its sync/async letter) → kind → count (`full`).
  std::map<std::string, std::map<std::string, uint64_t>> scheduler_queues;
  std::map<std::string, uint64_t> scheduler_events;  ///< kyber_* event → count
  /// Seconds from the cell's first scheduler message (the global tracer's clock is not the
  /// instance's, so not from its first event) to the first of each decision that changes a
  /// cell's course (queue_merge, merge_scheduled, queue_split, idle_armed).
  std::map<std::string, double> scheduler_first_s;

  bool Complete() const { return complete.value_or(true); }
};

/// The `request_trace` object of docs/request-tracing.md. Status members are written when set
/// (mode not kOff, complete given, strings not empty); the analysis when `summarised`, every
/// member of it but first_parse_error (when parse_errors > 0), phases and the scheduler maps
/// (when not empty). RequestTraceRecordFromJson reads it back to a record of the same JSON.
nlohmann::json RequestTraceRecordToJson(const RequestTraceRecord& trace);

/// Reads a request_trace object leniently (the file comment). err is one line naming the member
/// from "request_trace" on ("request_trace.read: q2c: histogram: …", "request_trace: expected
/// an object"); *out is unchanged on failure. Never throws.
[[nodiscard]] bool RequestTraceRecordFromJson(const nlohmann::json& j, RequestTraceRecord* out,
                                              std::string* err);

}  // namespace elevbench
