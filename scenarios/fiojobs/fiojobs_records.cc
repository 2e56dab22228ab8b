#include "scenarios/fiojobs/fiojobs_records.h"

#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

// Beside the header's fields and "jobs" in the same object.
constexpr JsonField<FioJobsRecord> kFioJobsFields[] = {
    {"job_file", &FioJobsRecord::job_file},
    {"elapsed_seconds", &FioJobsRecord::elapsed_seconds},
};

}  // namespace

nlohmann::json FioJobsRecordToJson(const FioJobsRecord& r) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const JobResult& job : r.jobs) jobs.push_back(JobResultToJson(job));
  nlohmann::json j{{"jobs", std::move(jobs)}};
  WriteJsonFields(kFioJobsFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool FioJobsRecordFromJson(const nlohmann::json& j, FioJobsRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a fio record object";
    return false;
  }
  FioJobsRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kFioJobsFields, j, &r, err) ||
      !JobResultsFromJson(j, "jobs", &r.jobs, err)) {
    return false;
  }
  *out = std::move(r);
  return true;
}

bool FioJobsRecordsFromDocument(const ResultsDocument& doc, std::vector<FioJobsRecord>* out,
                                std::string* err) {
  return ReadDocumentRecords(doc, FioJobsRecordFromJson, out, err);
}

}  // namespace elevbench
