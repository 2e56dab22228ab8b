#include "harness/results/job_result.h"

#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

nlohmann::json DirectionToJson(const JobDirectionResult& d) {
  return {{"bytes", d.bytes},
          {"ios", d.ios},
          {"runtime_seconds", d.runtime_seconds},
          {"clat", d.clat.ToJson()}};
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
  if (!GetJsonField(*it, "bytes", &r.bytes, err) || !GetJsonField(*it, "ios", &r.ios, err) ||
      !GetJsonField(*it, "runtime_seconds", &r.runtime_seconds, err)) {
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
  return runtime_seconds > 0 ? static_cast<double>(bytes) / 1e6 / runtime_seconds : 0;
}

double JobDirectionResult::Iops() const {
  return runtime_seconds > 0 ? static_cast<double>(ios) / runtime_seconds : 0;
}

nlohmann::json JobResultToJson(const JobResult& job) {
  return {{"name", job.name},
          {"clones", job.clones},
          {"group", job.group},
          {"read", DirectionToJson(job.read)},
          {"write", DirectionToJson(job.write)},
          {"trim", DirectionToJson(job.trim)},
          {"sync_ios", job.sync_ios},
          {"cpu_seconds", job.cpu_seconds}};
}

bool JobResultFromJson(const nlohmann::json& j, JobResult* job, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  JobResult r;
  if (!GetJsonField(j, "name", &r.name, err) || !GetJsonField(j, "clones", &r.clones, err) ||
      !GetJsonField(j, "group", &r.group, err) || !DirectionFromJson(j, "read", &r.read, err) ||
      !DirectionFromJson(j, "write", &r.write, err) ||
      !DirectionFromJson(j, "trim", &r.trim, err) ||
      !GetJsonField(j, "sync_ios", &r.sync_ios, err) ||
      !GetJsonField(j, "cpu_seconds", &r.cpu_seconds, err)) {
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
