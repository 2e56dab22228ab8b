#pragma once
// What one fio stream of a load did: the plain record shared by nickbench, the probes' loads and
// every later load-vs-probe suite (fairness between streams is computed from these).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {

/// One stream (one fio job) of a load.
struct StreamResult {
  std::string name;            ///< the stream's name ("reader", "writer1")
  std::string direction;       ///< "read", "write" or "readwrite"
  uint64_t bytes_read = 0;     ///< bytes the stream read (fio's read io_bytes)
  uint64_t bytes_written = 0;  ///< bytes the stream wrote (fio's write io_bytes)
  double runtime_seconds = 0;  ///< fio's job runtime (the stream's own measured window)
  double cpu_seconds = 0;      ///< user + system CPU of the stream's thread
  /// Per-call completion latency of every read() and write() of the stream.
  LatencyHistogram latency;
  /// Throughput over time from fio's bandwidth log: KiB/s per interval, in order.
  std::vector<double> throughput_kib_s;
  uint32_t throughput_interval_ms = 0;  ///< width of one interval; 0 when no log was kept

  /// All bytes the stream moved, read + written.
  uint64_t bytes() const { return bytes_read + bytes_written; }
};

/// Fairness of a multi-stream run (docs/legacy-suites.md §3 and Jain et al. 1984).
/// When no stream moved a byte both indices are undefined (0/0) and are reported as 0, as for
/// no streams at all: jain_index 0 never occurs otherwise (it is
/// at least 1/n), so it marks "nothing moved" unambiguously.
struct Fairness {
  double min_max_ratio = 0;  ///< min bytes / max bytes over the streams, in [0, 1]
  double jain_index = 0;     ///< (Σx)² / (n·Σx²) over the streams' bytes, in [1/n, 1]; 0 above
  uint64_t min_bytes = 0;    ///< fewest bytes() of one stream
  uint64_t max_bytes = 0;    ///< most bytes() of one stream
};

/// Fairness over the streams' bytes() (read + written); all zero for no streams and for streams
/// that all moved nothing. One stream that moved bytes is fair: 1 and 1.
Fairness FairnessOf(const std::vector<StreamResult>& streams);

/// A load's throughput over its own window: every stream's bytes() in MiB over the longest
/// stream's runtime (the streams run side by side); false (and *mb_per_second unchanged) for no
/// streams or no runtime. The probes', contest's and morton's loads are measured this way.
[[nodiscard]] bool StreamsMbPerSecond(const std::vector<StreamResult>& streams,
                                      double* mb_per_second);

/// JSON form (docs/output-format.md): name, direction, bytes_read, bytes_written,
/// runtime_seconds, cpu_seconds, latency_histogram (LatencyHistogram::ToJson),
/// throughput_kib_s (array), throughput_interval_ms.
nlohmann::json StreamResultToJson(const StreamResult& stream);
/// Reads StreamResultToJson's form back exactly. The throughput keys are optional (absent: no
/// log). On failure *stream is unchanged and err names the key ("bytes_read: expected a
/// non-negative integer").
[[nodiscard]] bool StreamResultFromJson(const nlohmann::json& j, StreamResult* stream,
                                        std::string* err);
/// Reads the array j[key] of StreamResultToJson objects into *streams (appended in order). err
/// "<key>: expected an array" or "<key>[i].<field>: ..." naming the bad stream; on failure
/// *streams is unchanged. Every suite's record reader reads its streams with this.
[[nodiscard]] bool StreamResultsFromJson(const nlohmann::json& j, const char* key,
                                         std::vector<StreamResult>* streams, std::string* err);
/// {"min_max_ratio", "jain_index", "min_bytes", "max_bytes"}.
nlohmann::json FairnessToJson(const Fairness& fairness);
/// Reads FairnessToJson's form back; *fairness unchanged on failure, err names the key.
[[nodiscard]] bool FairnessFromJson(const nlohmann::json& j, Fairness* fairness, std::string* err);

}  // namespace elevbench
