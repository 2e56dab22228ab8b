#pragma once
// The vi-save probe's plain result records (seed 003, lkml 2005; docs/legacy-suites.md
// §8): one record per cell: every save's timing and rusage, their latency histogram, and the
// writer's stream.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/latency_histogram.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"
#include "scenarios/visave/vi_save.h"

namespace elevbench {

/// One save of a cell.
struct VisaveSave {
  double started_seconds = 0;  ///< when it started, after the load's warm-up ended
  SaveTiming timing;
};

/// The saves of one configuration and repetition.
struct VisaveRecord : RecordHeader {
  double interval_seconds = 0;  ///< the pause after each save (the seed's `sleep 1m`)
  uint64_t file_bytes = 0;      ///< the saved file's size (200)
  double warmup_seconds = 0;    ///< how long the writer ran before the first save
  std::vector<VisaveSave> saves;
  LatencyHistogram histogram;      ///< every save's wall time, ns
  std::vector<StreamResult> load;  ///< the writer over its whole run
};

/// The record's JSON object: the struct's field names, "saves" an array of objects with
/// started_seconds and SaveTiming's field names, "histogram" LatencyHistogram::ToJson, "load"
/// StreamResultToJson objects.
nlohmann::json VisaveRecordToJson(const VisaveRecord& record);
/// Reads a record back ("label" may be missing); *record unchanged and err naming the key on
/// failure ("saves[1].fsync_seconds: expected a number").
[[nodiscard]] bool VisaveRecordFromJson(const nlohmann::json& j, VisaveRecord* record,
                                        std::string* err);
/// Every record of a visave results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool VisaveRecordsFromDocument(const ResultsDocument& doc,
                                             std::vector<VisaveRecord>* records, std::string* err);

/// A printed line: one configuration, its saves over all repetitions in order.
struct VisaveRow {
  std::string identifier;
  std::string label;
  uint32_t repetitions = 0;
  std::vector<double> save_seconds;  ///< wall time of every save, repetition by repetition
  double mean_save_seconds = 0;      ///< their arithmetic mean; 0 without saves
  double max_save_seconds = 0;       ///< the longest; 0 without saves
  LatencyHistogram histogram;        ///< merged over the repetitions
  double load_mb_s = 0;              ///< the writer's MiB/s, harmonic mean over repetitions
};

/// Rows by configuration in `order` (identifiers), then any others in order of appearance.
std::vector<VisaveRow> AggregateVisaveRows(const std::vector<VisaveRecord>& records,
                                           const std::vector<std::string>& order);

/// The summary block: per row identifier, label, repetitions, saves, mean_seconds,
/// max_seconds, p50/p90 from the merged histogram (seconds), load_mb_s.
nlohmann::json VisaveSummaryToJson(const std::vector<VisaveRow>& rows);

}  // namespace elevbench
