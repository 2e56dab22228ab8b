#pragma once
// `run fio`'s plain record: one per cell, one job file run once under one configuration.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/results/job_result.h"
#include "harness/results/record_header.h"
#include "harness/results/results_document.h"

namespace elevbench {

struct FioJobsRecord : RecordHeader {
  std::string job_file;         ///< the file's name as given on the command line
  double elapsed_seconds = 0;   ///< wall time of fio
  std::vector<JobResult> jobs;  ///< one per job name (numjobs clones merged)
};

/// {header, "job_file", "elapsed_seconds", "jobs": [JobResultToJson…]}.
nlohmann::json FioJobsRecordToJson(const FioJobsRecord& record);
[[nodiscard]] bool FioJobsRecordFromJson(const nlohmann::json& j, FioJobsRecord* record,
                                         std::string* err);
[[nodiscard]] bool FioJobsRecordsFromDocument(const ResultsDocument& doc,
                                              std::vector<FioJobsRecord>* records,
                                              std::string* err);

}  // namespace elevbench
