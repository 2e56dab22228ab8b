#pragma once
// contest's plain result records (docs/legacy-suites.md §2.3): one record per cell, the
// compile's rusage and the load's work and rusage, and the rows of the printed table: per load
// and configuration Time, CPU%, Loads, LCPU% and Ratio over the runs.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/process_usage.h"
#include "harness/process/subprocess.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"
#include "harness/results/stream_result.h"

namespace elevbench {

/// One cell: the compile beside one load.
struct ContestRecord : RecordHeader {
  std::string load;    ///< "io_load"
  std::string status;  ///< "ok", "dnf" (compile stopped at its timeout), "failed" (make != 0)
  int exit_code = 0;   ///< make's
  double timeout_seconds = 0;
  ProcessUsage compile;       ///< make and its children
  double warmup_seconds = 0;  ///< how long the load ran before the compile started
  bool caches_kept = false;   ///< cacherun: the caches were not dropped before the cell
  bool load_absent = false;   ///< io_other without --other-dir: no load ran
  std::string load_kind;      ///< "none", "fio" or "command"
  ProcessUsage load_usage;    ///< the load's own elapsed time and CPU (fio: its threads')
  double load_work = 0;       ///< raw work in load_work_unit ("MiB written")
  std::string load_work_unit;
  double loads = 0;                      ///< the Loads column: load_work / the load's divisor
  uint64_t load_iterations_started = 0;  ///< command loads
  uint64_t load_iterations_completed = 0;
  uint64_t load_iterations_failed = 0;
  std::string load_last_failure;      ///< the last failed iteration's exit and stderr line
  std::vector<StreamResult> streams;  ///< fio loads: every stream, histograms included

  /// CPU% = 100 · (user + system) / elapsed of make and children; 0 for no elapsed time.
  double CpuPercent() const;
  /// LCPU% = 100 · (load user + system) / the load's own elapsed time; 0 without a load.
  double LoadCpuPercent() const;
};

/// The record's JSON: the struct's names as keys; "compile" and "load_usage" objects with
/// ProcessUsage's names; "streams" an array of StreamResultToJson objects.
nlohmann::json ContestRecordToJson(const ContestRecord& record);
/// Reads a record back; "label" may be missing. Refuses an unknown load and a status other
/// than ok/dnf/failed. On failure *record is unchanged and err names the key.
[[nodiscard]] bool ContestRecordFromJson(const nlohmann::json& j, ContestRecord* record,
                                         std::string* err);
/// Every record of a contest results document; err is prefixed with "records[i]: ".
[[nodiscard]] bool ContestRecordsFromDocument(const ResultsDocument& doc,
                                              std::vector<ContestRecord>* records,
                                              std::string* err);

/// A printed row: one load × configuration over its runs.
struct ContestRow {
  std::string load;
  std::string identifier;
  std::string label;
  uint32_t runs = 0;         ///< finished ("ok") repetitions: contest's [runs]
  uint32_t repetitions = 0;  ///< all records of the row
  uint32_t dnf = 0;
  uint32_t failed = 0;
  double time_seconds = 0;  ///< mean compile elapsed over the runs, unrounded
  double cpu_percent = 0;   ///< mean CPU% over the runs
  double loads = 0;         ///< mean Loads over the runs
  double lcpu_percent = 0;  ///< mean LCPU% over the runs
  /// Time / the same identifier's no_load Time (both unrounded means); < 0 when there is no
  /// finished no_load of that identifier.
  double ratio = -1;
  bool load_absent = false;  ///< every record of the row ran without its load (io_other)
  double timeout_seconds = 0;
  int failed_exit_code = 0;
};

/// Rows by load (ContestLoads() order), then configuration in `order` (identifiers), then any
/// others in order of first appearance.
std::vector<ContestRow> AggregateContestRows(const std::vector<ContestRecord>& records,
                                             const std::vector<std::string>& order);

/// The summary block of a contest results file: per row every ContestRow field.
nlohmann::json ContestSummaryToJson(const std::vector<ContestRow>& rows);

}  // namespace elevbench
