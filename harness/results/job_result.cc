#include "harness/results/job_result.h"

#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

constexpr JsonField<JobDirectionResult> kJobDirectionFields[] = {
    {"bytes", &JobDirectionResult::bytes},
    {"ios", &JobDirectionResult::ios},
    {"runtime_seconds", &JobDirectionResult::runtime_seconds},
};

// A job's fields before its directions "read", "write", "trim" and after them (the reader's
// order, so the first bad key reported stays the same).
constexpr JsonField<JobResult> kJobFields[] = {
    {"name", &JobResult::name},
    {"clones", &JobResult::clones},
    {"group", &JobResult::group},
};
constexpr JsonField<JobResult> kJobTotalsFields[] = {
    {"sync_ios", &JobResult::sync_ios},
    {"cpu_seconds", &JobResult::cpu_seconds},
};

nlohmann::json DirectionToJson(const JobDirectionResult& d) {
  nlohmann::json j{{"clat", d.clat.ToJson()}};
  WriteJsonFields(kJobDirectionFields, d, &j);
  return j;
}

bool DirectionFromJson(const nlohmann::json& j, const char* key, JobDirectionResult* d,
                       std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) {
    *err = std::string(key) + ": expected an object";
    return false;
  }
  JobDirectionResult r;
  const auto clat = it->find("clat");
  if (!ReadJsonFields(kJobDirectionFields, *it, &r, err)) {
    *err = std::string(key) + "." + *err;
    return false;
  }
  if (clat == it->end() || !LatencyHistogram::FromJson(*clat, &r.clat, err)) {
    *err = std::string(key) + ".clat: " + (clat == it->end() ? std::string("missing") : *err);
    return false;
  }
  *d = r;
  return true;
}

}  // namespace

double JobDirectionResult::MegabytesPerSecond() const {
  return runtime_seconds > 0 ? static_cast<double>(bytes) / (1 << 20) / runtime_seconds : 0;
}

double JobDirectionResult::Iops() const {
  return runtime_seconds > 0 ? static_cast<double>(ios) / runtime_seconds : 0;
}

nlohmann::json JobResultToJson(const JobResult& job) {
  nlohmann::json j{{"read", DirectionToJson(job.read)},
                   {"write", DirectionToJson(job.write)},
                   {"trim", DirectionToJson(job.trim)}};
  WriteJsonFields(kJobFields, job, &j);
  WriteJsonFields(kJobTotalsFields, job, &j);
  return j;
}

bool JobResultFromJson(const nlohmann::json& j, JobResult* job, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  JobResult r;
  if (!ReadJsonFields(kJobFields, j, &r, err) || !DirectionFromJson(j, "read", &r.read, err) ||
      !DirectionFromJson(j, "write", &r.write, err) ||
      !DirectionFromJson(j, "trim", &r.trim, err) ||
      !ReadJsonFields(kJobTotalsFields, j, &r, err)) {
    return false;
  }
  *job = std::move(r);
  return true;
}

bool JobResultsFromJson(const nlohmann::json& j, const char* key, std::vector<JobResult>* jobs,
                        std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array()) {
    *err = std::string(key) + ": expected an array";
    return false;
  }
  std::vector<JobResult> out;
  for (size_t i = 0; i < it->size(); ++i) {
    JobResult job;
    if (!JobResultFromJson((*it)[i], &job, err)) {
      *err = std::string(key) + "[" + std::to_string(i) + "]." + *err;
      return false;
    }
    out.push_back(std::move(job));
  }
  jobs->insert(jobs->end(), out.begin(), out.end());
  return true;
}

}  // namespace elevbench
