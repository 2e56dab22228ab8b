#include "harness/fio/fio_output.h"

#include <charconv>
#include <cstdio>
#include <exception>
#include <nlohmann/json.hpp>
#include <sstream>

namespace elevbench {
namespace {

using nlohmann::json;

// A non-negative JSON integer (nlohmann parses those as unsigned; built ones may be signed).
bool AsU64(const json& v, uint64_t* out) {
  if (v.is_number_unsigned()) {
    *out = v.get<uint64_t>();
    return true;
  }
  if (v.is_number_integer() && v.get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(v.get<int64_t>());
    return true;
  }
  return false;
}

// Field readers: each names the full path ("jobs[1].read.io_bytes") in its one-line error.
const json* Find(const json& obj, const char* key, const std::string& path, std::string* err) {
  const auto it = obj.find(key);
  if (it == obj.end()) {
    *err = path + "." + key + ": missing";
    return nullptr;
  }
  return &*it;
}

bool ReadU64(const json& obj, const char* key, const std::string& path, uint64_t* out,
             std::string* err) {
  const json* v = Find(obj, key, path, err);
  if (v == nullptr) return false;
  if (AsU64(*v, out)) return true;
  *err = path + "." + key + ": expected a non-negative integer";
  return false;
}

bool ReadDouble(const json& obj, const char* key, const std::string& path, double* out,
                std::string* err) {
  const json* v = Find(obj, key, path, err);
  if (v == nullptr) return false;
  if (!v->is_number()) {
    *err = path + "." + key + ": expected a number";
    return false;
  }
  *out = v->get<double>();
  return true;
}

bool ReadInt(const json& obj, const char* key, const std::string& path, int* out,
             std::string* err) {
  const json* v = Find(obj, key, path, err);
  if (v == nullptr) return false;
  if (!v->is_number_integer() || v->get<int64_t>() < INT32_MIN || v->get<int64_t>() > INT32_MAX) {
    *err = path + "." + key + ": expected an integer";
    return false;
  }
  *out = static_cast<int>(v->get<int64_t>());
  return true;
}

bool ReadObject(const json& obj, const char* key, const std::string& path, const json** out,
                std::string* err) {
  *out = Find(obj, key, path, err);
  if (*out == nullptr) return false;
  if (!(*out)->is_object()) {
    *err = path + "." + key + ": expected an object";
    return false;
  }
  return true;
}

bool ParseClat(const json& clat, const std::string& path, LatencyHistogram* h, std::string* err) {
  uint64_t min_ns = 0, max_ns = 0, n = 0;
  double mean_ns = 0;
  if (!ReadU64(clat, "min", path, &min_ns, err) || !ReadU64(clat, "max", path, &max_ns, err) ||
      !ReadDouble(clat, "mean", path, &mean_ns, err) || !ReadU64(clat, "N", path, &n, err)) {
    return false;
  }
  const auto bins = clat.find("bins");
  if (bins == clat.end()) {
    if (n == 0) return true;
    *err = path +
           ".bins: missing although N > 0 (needs --output-format=json+ and "
           "clat_percentiles=1)";
    return false;
  }
  if (!bins->is_object()) {
    *err = path + ".bins: expected an object";
    return false;
  }
  if (!h->AddFioBins(*bins, err)) {
    *err = path + "." + *err;
    return false;
  }
  if (!h->SetExactStats(min_ns, max_ns, mean_ns, n, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

bool ParseDirection(const json& job, const char* dir, const std::string& job_path,
                    FioDirectionResult* d, std::string* err) {
  if (!job.contains(dir) && job.contains("mixed")) {
    *err = job_path + ": unified_rw_reporting (\"mixed\") output is not supported";
    return false;
  }
  const json* obj = nullptr;
  if (!ReadObject(job, dir, job_path, &obj, err)) return false;
  const std::string path = job_path + "." + dir;
  const json* clat = nullptr;
  return ReadU64(*obj, "io_bytes", path, &d->io_bytes, err) &&
         ReadU64(*obj, "total_ios", path, &d->total_ios, err) &&
         ReadU64(*obj, "runtime", path, &d->runtime_ms, err) &&
         ReadDouble(*obj, "bw_bytes", path, &d->bw_bytes, err) &&
         ReadObject(*obj, "clat_ns", path, &clat, err) &&
         ParseClat(*clat, path + ".clat_ns", &d->clat, err);
}

// The parts a job may lack (older layouts, hand-made fixtures): trim, sync's count, groupid.
bool ParseOptionalParts(const json& job, const std::string& path, FioJobResult* r,
                        std::string* err) {
  if (job.contains("trim") && !ParseDirection(job, "trim", path, &r->trim, err)) return false;
  if (const auto sync = job.find("sync");
      sync != job.end() && sync->is_object() && sync->contains("total_ios")) {
    if (!ReadU64(*sync, "total_ios", path + ".sync", &r->sync_ios, err)) return false;
    const auto lat = sync->find("lat_ns");
    if (r->sync_ios > 0 && lat != sync->end() && lat->is_object() &&
        !ParseClat(*lat, path + ".sync.lat_ns", &r->sync_lat, err)) {
      return false;
    }
  }
  if (job.contains("groupid")) {
    uint64_t group = 0;
    if (!ReadU64(job, "groupid", path, &group, err)) return false;
    r->group = static_cast<uint32_t>(group);
  }
  return true;
}

bool ParseJob(const json& job, const std::string& path, FioJobResult* r, std::string* err) {
  if (!job.is_object()) {
    *err = path + ": expected an object";
    return false;
  }
  const json* name = Find(job, "jobname", path, err);
  if (name == nullptr) return false;
  if (!name->is_string()) {
    *err = path + ".jobname: expected a string";
    return false;
  }
  r->name = name->get<std::string>();
  return ReadInt(job, "error", path, &r->error, err) &&
         ReadU64(job, "job_runtime", path, &r->job_runtime_ms, err) &&
         ReadDouble(job, "usr_cpu", path, &r->usr_cpu_pct, err) &&
         ReadDouble(job, "sys_cpu", path, &r->sys_cpu_pct, err) &&
         ReadU64(job, "ctx", path, &r->ctx, err) &&
         ParseDirection(job, "read", path, &r->read, err) &&
         ParseDirection(job, "write", path, &r->write, err) &&
         ParseOptionalParts(job, path, r, err);
}

// Parses one JSON value starting at text[pos]; trailing text (late fio messages) is ignored.
bool ParseValueAt(std::string_view text, size_t pos, json* out, std::string* err) {
  try {
    std::istringstream in{std::string(text.substr(pos))};
    in >> *out;  // operator>> does not require the input to end after the value
    return true;
  } catch (const std::exception& e) {
    *err = std::string("fio output is not valid JSON: ") + e.what();
    return false;
  }
}

// Finds and parses the JSON object in fio's output. fio puts warnings first, one per line, and
// starts its object at the beginning of a line; try those positions, then any '{'.
bool ParseDocument(std::string_view text, json* doc, std::string* err) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    *err = "fio output is empty";
    return false;
  }
  std::string first_err;
  for (size_t pos = text.find('{'); pos != std::string_view::npos; pos = text.find('{', pos + 1)) {
    if (pos != 0 && text[pos - 1] != '\n') continue;
    std::string e;
    if (ParseValueAt(text, pos, doc, &e) && doc->is_object()) return true;
    if (first_err.empty()) first_err = e;
  }
  const size_t any = text.find('{');
  if (any == std::string_view::npos) {
    *err = "fio output contains no JSON object";
    return false;
  }
  if (first_err.empty() && ParseValueAt(text, any, doc, &first_err) && doc->is_object()) {
    return true;
  }
  *err = first_err;
  return false;
}

}  // namespace

double FioJobResult::cpu_seconds() const {
  return (usr_cpu_pct + sys_cpu_pct) / 100.0 * static_cast<double>(job_runtime_ms) / 1000.0;
}

bool ParseFioJsonPlus(std::string_view json_text, FioRunResult* out, std::string* err) {
  try {
    json doc;
    if (!ParseDocument(json_text, &doc, err)) return false;
    FioRunResult result;
    if (const auto v = doc.find("fio version"); v != doc.end()) {
      if (!v->is_string()) {
        *err = "\"fio version\": expected a string";
        return false;
      }
      result.fio_version = v->get<std::string>();
    }
    if (const auto v = doc.find("timestamp_ms"); v != doc.end()) {
      if (!v->is_number_integer()) {
        *err = "timestamp_ms: expected an integer";
        return false;
      }
      result.timestamp_ms = v->get<int64_t>();
    }
    const auto jobs = doc.find("jobs");
    if (jobs == doc.end()) {
      *err = "fio output has no \"jobs\" (is this fio JSON output?)";
      return false;
    }
    if (!jobs->is_array()) {
      *err = "jobs: expected an array";
      return false;
    }
    result.jobs.resize(jobs->size());
    for (size_t i = 0; i < jobs->size(); ++i) {
      if (!ParseJob((*jobs)[i], "jobs[" + std::to_string(i) + "]", &result.jobs[i], err)) {
        return false;
      }
    }
    *out = std::move(result);
    return true;
  } catch (const std::exception& e) {
    *err = std::string("fio output: ") + e.what();
    return false;
  }
}

}  // namespace elevbench

namespace elevbench {

// The longest bandwidth series ParseFioBwLog builds, in intervals.
constexpr unsigned long long kMaxBwLogIntervals = 10'000'000;

bool ParseFioBwLog(std::string_view text, uint32_t interval_ms, std::vector<double>* kib_s,
                   std::string* err) {
  std::vector<double> series;
  size_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string line(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    unsigned long long msec = 0;
    double value = 0;
    if (std::sscanf(line.c_str(), "%llu , %lf", &msec, &value) != 2 || value < 0 ||
        interval_ms == 0) {
      *err = "bandwidth log line " + std::to_string(line_no) + ": expected 'msec, KiB/s, ...'";
      return false;
    }
    // A time beyond 10^7 intervals (58 days at 500 ms) is no fio run: refuse it rather than
    // allocate for it (a time of 8e14 ms asked for 8 GB, found by fuzz/fio_bw_log_fuzz).
    if (msec / interval_ms > kMaxBwLogIntervals) {
      *err = "bandwidth log line " + std::to_string(line_no) + ": time " + std::to_string(msec) +
             " ms is beyond " + std::to_string(kMaxBwLogIntervals) + " intervals";
      return false;
    }
    const size_t slot = static_cast<size_t>((msec + interval_ms / 2) / interval_ms);
    const size_t index = slot > 0 ? slot - 1 : 0;
    if (series.size() <= index) series.resize(index + 1, 0.0);
    series[index] += value;
  }
  *kib_s = std::move(series);
  return true;
}

}  // namespace elevbench
