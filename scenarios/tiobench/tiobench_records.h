#pragma once
// tiobench's plain result records and their JSON form: one record per measured phase of a cell,
// the table rows aggregated over repetitions, and tiobench.pl's parameters.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "scenarios/tiobench/tiobench.h"

namespace elevbench {

/// One measured phase of one cell.
struct TioRecord : RecordHeader {
  TioPhaseMeasurement measurement;
  TioRowMetrics metrics;
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

/// The record's JSON object: the header (record_header.h), then the phase's measurement.
nlohmann::json TioRecordToJson(const TioRecord& record);

/// Reads a record back; err names the missing or malformed field.
[[nodiscard]] bool TioRecordFromJson(const nlohmann::json& j, TioRecord* record, std::string* err);

/// Reads every record of a tiobench results document; err names the record.
[[nodiscard]] bool TioRecordsFromDocument(const ResultsDocument& doc, std::vector<TioRecord>* out,
                                          std::string* err);

/// tiobench.pl's parameters as written in the results file.
nlohmann::json TiobenchParamsToJson(const TiobenchParams& params);
[[nodiscard]] bool TiobenchParamsFromJson(const nlohmann::json& j, TiobenchParams* params,
                                          std::string* err);

/// Aggregates the records into table rows: for each phase in report order, identifiers in
/// `order` (then any others in order of first appearance), then thread counts ascending.
std::vector<TioTableRow> AggregateTioRows(const std::vector<TioRecord>& records,
                                          const std::vector<std::string>& order);

/// The "summary" block of a tiobench results file: the aggregated rows.
nlohmann::json TioSummaryToJson(const std::vector<TioTableRow>& rows);

}  // namespace elevbench
