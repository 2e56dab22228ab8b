#pragma once
// The reports' reading of a cell's `request_trace` (CellRecord::request_trace, written by the
// request tracer): the numbers per direction of the whole cell and of each phase, as plain
// records. Only what the trace measurements, the verdict's evidence and the HTML plots use is
// kept (the per-process accounts, the queue's time series and the raw events' file are not).
// Members the reader does not know are ignored, so the tracer may add to its object freely.

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {

/// One direction's requests (the tracer's DIR object). A direction without requests has
/// requests 0 and empty histograms.
struct TraceDirection {
  uint64_t requests = 0;
  uint64_t bytes = 0;
  LatencyHistogram q2c;  ///< queued to completed, ns
  LatencyHistogram i2d;  ///< inserted into the scheduler to dispatched to the driver: ns
  LatencyHistogram d2c;  ///< dispatched to completed (in the device), ns
  uint64_t dispatches = 0;
  /// Mean length of a dispatch run: requests the scheduler dispatched one after another from
  /// the same stream before it turned to another one.
  double mean_dispatch_run = 0;
  std::map<uint64_t, uint64_t> dispatch_run_lengths;  ///< run length → how many runs
  double seek_share = 0;  ///< fraction of requests that did not start where the last one ended
  double mean_seek_sectors = 0;
  LatencyHistogram seek_distance;  ///< the histogram's values are sectors, not ns
  uint64_t merges = 0;
  uint64_t requeues = 0;
  double mean_request_kib = 0;
};

/// Both directions of one account (the whole cell, or one phase).
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

/// A cell's request trace.
struct RequestTrace {
  std::string mode;  ///< "summary" or "full"
  uint64_t events = 0;
  uint64_t dropped_events = 0;
  bool complete = true;  ///< false when events were dropped
  TraceDirections total;
  /// The cell's phases in the trace's order (tiobench's "seq_write" …); empty without phases.
  std::vector<std::pair<std::string, TraceDirections>> phases;
  double queued_mean = 0;  ///< requests waiting in the scheduler, mean over the cell
  double queued_max = 0;
  bool has_queued = false;  ///< the trace has "queued"
};

/// Reads a request_trace object. Members may be absent (a number is then 0, a histogram empty);
/// one of the wrong type is an error. err names the member ("read.q2c: bins: expected an
/// object"); *out is unchanged on failure. Never throws.
[[nodiscard]] bool RequestTraceFromJson(const nlohmann::json& j, RequestTrace* out,
                                        std::string* err);

/// The account of a table row: the phase named by its section or its row key when the trace has
/// one of that name (tiobench's sections are its phases), else the whole cell's. `*phase` (may
/// be null) gets the phase's name, or "" for the whole cell.
const TraceDirections& TraceAccountOf(const RequestTrace& trace, const std::string& section,
                                      const std::string& row, std::string* phase);

}  // namespace elevbench
