#pragma once
// The OraSim stand-in's plain result records (docs/legacy-suites.md §6). OraSim itself
// was never published; Nick Piggin reported two "bigger is better" numbers per scheduler
// ("DL - 132, 144"). The stand-in is an OLTP-like fio job, and its score is the I/O operations
// per second of all its streams together. One record per run of a cell.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// One run of the OLTP-like job.
struct OrasimRecord : RecordHeader {
  int run = 1;                 ///< which of the suite's runs (1-based): the seed printed two
  double elapsed_seconds = 0;  ///< the job's measured window (longest stream runtime)
  uint64_t read_ops = 0;       ///< random 8 KiB reads of the data file
  uint64_t write_ops = 0;      ///< random synchronous 8 KiB writes of the data file
  uint64_t log_ops = 0;        ///< sequential synchronous writes of the log
  double score_ops_s = 0;      ///< (read_ops + write_ops + log_ops) / elapsed_seconds
  double cpu_seconds = 0;      ///< Σ streams' CPU
  std::vector<StreamResult> streams;
};

/// The record's JSON object: scheduler, identifier, label, repetition, run, elapsed_seconds,
/// read_ops, write_ops, log_ops, score_ops_s, cpu_seconds, streams (StreamResultToJson each).
nlohmann::json OrasimRecordToJson(const OrasimRecord& record);
/// Reads a record back; on failure *record is unchanged and err names the key.
[[nodiscard]] bool OrasimRecordFromJson(const nlohmann::json& j, OrasimRecord* record,
                                        std::string* err);
/// Reads every record of an orasim results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool OrasimRecordsFromDocument(const ResultsDocument& doc,
                                             std::vector<OrasimRecord>* records, std::string* err);

/// A printed row: one configuration's scores, one per run in run order, each the harmonic mean
/// over the repetitions of that run (a rate of operations).
struct OrasimRow {
  std::string identifier;
  std::string label;                  ///< the first non-empty label of the row's records
  std::vector<double> scores;         ///< per run, in run order
  std::vector<uint32_t> repetitions;  ///< records averaged per run
};

/// Rows in `order` (identifiers), then any others in order of first appearance.
std::vector<OrasimRow> AggregateOrasimRows(const std::vector<OrasimRecord>& records,
                                           const std::vector<std::string>& order);
/// The summary block: per row identifier, label, scores, repetitions.
nlohmann::json OrasimSummaryToJson(const std::vector<OrasimRow>& rows);

}  // namespace elevbench
