#pragma once
// Plain result records of a run and their JSON form (docs/output-format.md). Rendering lives in
// reporters/; these types carry numbers only.

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "scenarios/tiobench/tiobench.h"

namespace elevbench {

/// Version of the results JSON layout; bump on incompatible changes.
inline constexpr int kResultsSchemaVersion = 1;

/// One measured phase of one cell.
struct TioRecord {
  std::string scheduler;   ///< configuration, e.g. "bfq:low_latency=0"; "" when not switched
  std::string identifier;  ///< table label, e.g. "6.18.44-bfq-ll0"
  uint32_t repetition = 0;
  TioPhaseMeasurement measurement;
  TioRowMetrics metrics;
};

/// One cell of the plan: one scheduler configuration × one thread count × one repetition.
struct CellRecord {
  std::string scheduler;
  std::string identifier;
  uint32_t repetition = 0;
  uint32_t threads = 0;
  std::string status;      ///< "ok", "failed" or "interrupted"
  std::string error;       ///< why it failed; empty when ok
  std::string started_at;  ///< ISO 8601 UTC
  double duration_seconds = 0;
  std::map<std::string, std::string> queue;  ///< every queue/ and queue/iosched/ value
  nlohmann::json disk_counters;              ///< emulated-disk counters over the cell, or null
};

/// A whole run: context, parameters, cells and per-phase records.
struct ResultsDocument {
  std::string suite = "tiobench";
  nlohmann::json context = nlohmann::json::object();
  TiobenchParams params;
  std::vector<std::string> identifiers;  ///< table order of the configurations
  std::vector<CellRecord> cells;
  std::vector<TioRecord> records;
  bool complete = false;  ///< false while running and after an interrupted run
};

/// A table row: the mean (and sample stddev) over repetitions of one identifier × threads × phase.
struct TioTableRow {
  std::string identifier;
  std::string scheduler;
  uint32_t threads = 0;
  TioPhase phase = TioPhase::kSeqRead;
  uint32_t repetitions = 0;
  TioRowMetrics mean;
  TioRowMetrics stddev;
};

/// Aggregates the records into table rows ordered by identifier (doc.identifiers order, then
/// first appearance), then thread count, for each phase.
std::vector<TioTableRow> AggregateTioRows(const ResultsDocument& doc);

/// The JSON form, including a "summary" array of the aggregated rows.
nlohmann::json ResultsToJson(const ResultsDocument& doc);

/// Reads a results JSON back (for `report`); err says what is missing or malformed.
[[nodiscard]] bool ResultsFromJson(const nlohmann::json& j, ResultsDocument* doc, std::string* err);

/// Loads and parses a results file; err is one line naming the file.
[[nodiscard]] bool LoadResultsFile(const std::string& path, ResultsDocument* doc, std::string* err);

/// Writes the document atomically (temp file + rename).
[[nodiscard]] bool SaveResultsFile(const std::string& path, const ResultsDocument& doc,
                                   std::string* err);

}  // namespace elevbench
