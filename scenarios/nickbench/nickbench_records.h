#pragma once
// nickbench's plain result records (docs/legacy-suites.md §3): one record per bench of a
// cell, with every stream's bytes, latency histogram and throughput over time.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// nickbench's benches are numbered 2 to 6, as in the seed (its Bench 1 was never posted).
inline constexpr int kFirstNickbench = 2;
inline constexpr int kLastNickbench = 6;

/// One bench of one cell.
struct NickbenchRecord : RecordHeader {
  int bench = 0;               ///< 2..6
  double elapsed_seconds = 0;  ///< until the first stream finished (the run's end)
  double io_rate_mb_s = 0;     ///< all bytes moved (read + written) / elapsed, MiB/s
  /// The bench's own metric, as the seed defines it: Bench 2 bytes read / bytes written,
  /// Bench 3 reader 1 / reader 2, Bench 4 writer 1 / writer 2, Bench 5 CPU µs per MiB moved
  /// (the seed printed it as "us/B"), Bench 6 min / max bytes of the four readers.
  double metric = 0;
  double cpu_seconds = 0;  ///< Σ streams' CPU (Bench 5's metric is made from it)
  Fairness fairness;       ///< over the streams (Jain's index, min/max)
  std::vector<StreamResult> streams;
};

/// The seed's title line of a bench ("Bench 2 - 2 threads, streaming reader and streaming
/// writer"); empty for a bench the seed did not show.
std::string NickbenchTitle(int bench);
/// The seed's metric name ("Reads per write", "Reads per read", ...), except Bench 5's: "CPU time
/// per MiB", since the seed's "CPU time per byte" was CPU µs per MiB (docs/legacy-suites.md §3).
std::string NickbenchMetricName(int bench);
/// The honest unit of the metric for JSON and docs ("ratio", "cpu_us_per_mib").
std::string NickbenchMetricUnit(int bench);

/// The record's JSON object (docs/output-format.md): scheduler, identifier, label, repetition,
/// bench, elapsed_seconds, io_rate_mb_s, metric, metric_name, metric_unit, cpu_seconds,
/// fairness (FairnessToJson), streams (StreamResultToJson each).
nlohmann::json NickbenchRecordToJson(const NickbenchRecord& record);
/// Reads a record back. "label" may be missing (left empty); metric_name/metric_unit are not
/// read (they follow from the bench). Refuses a bench outside 2..6. On failure *record is
/// unchanged and err names the key ("streams[1].bytes_read: expected a non-negative integer").
[[nodiscard]] bool NickbenchRecordFromJson(const nlohmann::json& j, NickbenchRecord* record,
                                           std::string* err);
/// Reads every record of a nickbench results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool NickbenchRecordsFromDocument(const ResultsDocument& doc,
                                                std::vector<NickbenchRecord>* records,
                                                std::string* err);

/// A printed row: the mean over repetitions of one label × bench.
struct NickbenchRow {
  std::string identifier;
  std::string label;  ///< the first non-empty label of the row's records ("" if none has one)
  int bench = 0;
  uint32_t repetitions = 0;        ///< records averaged
  double io_rate_mb_s = 0;         ///< mean
  double metric = 0;               ///< mean
  double io_rate_mb_s_stddev = 0;  ///< sample stddev (n-1), 0 when n < 2
  double metric_stddev = 0;        ///< sample stddev (n-1), 0 when n < 2
};

/// Rows by bench (ascending), then configuration in `order` (identifiers), then any others in
/// order of first appearance; arithmetic means of io_rate_mb_s and metric over the repetitions
/// of one identifier × bench.
std::vector<NickbenchRow> AggregateNickbenchRows(const std::vector<NickbenchRecord>& records,
                                                 const std::vector<std::string>& order);
/// The summary block of a nickbench results file: per row identifier, label, bench, title,
/// metric_name, metric_unit, repetitions, mean {io_rate_mb_s, metric}, stddev {same}.
nlohmann::json NickbenchSummaryToJson(const std::vector<NickbenchRow>& rows);

}  // namespace elevbench
