#include "scenarios/fiojobs/fiojobs_records.h"

#include "harness/core/json_fields.h"

namespace elevbench {

nlohmann::json FioJobsRecordToJson(const FioJobsRecord& r) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const JobResult& job : r.jobs) jobs.push_back(JobResultToJson(job));
  nlohmann::json j{
      {"job_file", r.job_file}, {"elapsed_seconds", r.elapsed_seconds}, {"jobs", std::move(jobs)}};
  WriteRecordHeader(r, &j);
  return j;
}

bool FioJobsRecordFromJson(const nlohmann::json& j, FioJobsRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a fio record object";
    return false;
  }
  FioJobsRecord r;
  if (!ReadRecordHeader(j, &r, err) || !GetJsonField(j, "job_file", &r.job_file, err) ||
      !GetJsonField(j, "elapsed_seconds", &r.elapsed_seconds, err) ||
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
