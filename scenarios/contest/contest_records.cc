#include "scenarios/contest/contest_records.h"

#include <algorithm>

#include "harness/core/json_fields.h"
#include "scenarios/contest/contest_loads.h"

namespace elevbench {
namespace {

using nlohmann::json;

bool GetBool(const json& j, const char* key, bool* out, std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_boolean()) {
    *err = std::string(key) + (it == j.end() ? ": missing" : ": expected true or false");
    return false;
  }
  *out = it->get<bool>();
  return true;
}

json UsageToJson(const ProcessUsage& u) {
  json j = json::object();
  WriteProcessUsage(u, &j);
  return j;
}

bool UsageFromJson(const json& j, const char* key, ProcessUsage* out, std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || !it->is_object()) {
    *err = std::string(key) + ": expected an object";
    return false;
  }
  if (!ReadProcessUsage(*it, out, err)) {
    *err = std::string(key) + "." + *err;
    return false;
  }
  return true;
}

double Percent(double cpu, double elapsed) { return elapsed > 0 ? 100 * cpu / elapsed : 0; }

double MeanOf(const std::vector<double>& v) {
  if (v.empty()) return 0;
  double sum = 0;
  for (double x : v) sum += x;
  return sum / static_cast<double>(v.size());
}

size_t LoadRank(const std::string& load) {
  const auto& loads = ContestLoads();
  for (size_t i = 0; i < loads.size(); ++i) {
    if (load == loads[i].name) return i;
  }
  return loads.size();
}

}  // namespace

double ContestRecord::CpuPercent() const {
  return Percent(compile.user_seconds + compile.system_seconds, compile.elapsed_seconds);
}

double ContestRecord::LoadCpuPercent() const {
  return Percent(load_usage.user_seconds + load_usage.system_seconds, load_usage.elapsed_seconds);
}

json ContestRecordToJson(const ContestRecord& r) {
  json streams = json::array();
  for (const StreamResult& s : r.streams) streams.push_back(StreamResultToJson(s));
  json j{{"load", r.load},
         {"status", r.status},
         {"exit_code", r.exit_code},
         {"timeout_seconds", r.timeout_seconds},
         {"compile", UsageToJson(r.compile)},
         {"warmup_seconds", r.warmup_seconds},
         {"caches_kept", r.caches_kept},
         {"load_absent", r.load_absent},
         {"load_kind", r.load_kind},
         {"load_usage", UsageToJson(r.load_usage)},
         {"load_work", r.load_work},
         {"load_work_unit", r.load_work_unit},
         {"loads", r.loads},
         {"load_iterations_started", r.load_iterations_started},
         {"load_iterations_completed", r.load_iterations_completed},
         {"load_iterations_failed", r.load_iterations_failed},
         {"load_last_failure", r.load_last_failure},
         {"cpu_percent", r.CpuPercent()},
         {"lcpu_percent", r.LoadCpuPercent()},
         {"streams", std::move(streams)}};
  WriteRecordHeader(r, &j);
  return j;
}

bool ContestRecordFromJson(const json& j, ContestRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a contest record object";
    return false;
  }
  ContestRecord r;
  if (!ReadRecordHeader(j, &r, err) || !GetJsonField(j, "load", &r.load, err) ||
      !GetJsonField(j, "status", &r.status, err) ||
      !GetJsonField(j, "exit_code", &r.exit_code, err) ||
      !GetJsonField(j, "timeout_seconds", &r.timeout_seconds, err) ||
      !UsageFromJson(j, "compile", &r.compile, err) ||
      !GetJsonField(j, "warmup_seconds", &r.warmup_seconds, err) ||
      !GetBool(j, "caches_kept", &r.caches_kept, err) ||
      !GetBool(j, "load_absent", &r.load_absent, err) ||
      !GetJsonField(j, "load_kind", &r.load_kind, err) ||
      !UsageFromJson(j, "load_usage", &r.load_usage, err) ||
      !GetJsonField(j, "load_work", &r.load_work, err) ||
      !GetJsonField(j, "load_work_unit", &r.load_work_unit, err) ||
      !GetJsonField(j, "loads", &r.loads, err) ||
      !GetJsonField(j, "load_iterations_started", &r.load_iterations_started, err) ||
      !GetJsonField(j, "load_iterations_completed", &r.load_iterations_completed, err) ||
      !GetJsonField(j, "load_iterations_failed", &r.load_iterations_failed, err) ||
      !GetJsonField(j, "load_last_failure", &r.load_last_failure, err)) {
    return false;
  }
  if (FindContestLoad(r.load) == nullptr) {
    *err = "load: unknown load '" + r.load + "'";
    return false;
  }
  if (r.status != "ok" && r.status != "dnf" && r.status != "failed") {
    *err = "status: expected ok, dnf or failed, not '" + r.status + "'";
    return false;
  }
  if (!StreamResultsFromJson(j, "streams", &r.streams, err)) return false;
  *out = std::move(r);
  return true;
}

bool ContestRecordsFromDocument(const ResultsDocument& doc, std::vector<ContestRecord>* out,
                                std::string* err) {
  return ReadDocumentRecords(doc, ContestRecordFromJson, out, err);
}

std::vector<ContestRow> AggregateContestRows(const std::vector<ContestRecord>& records,
                                             const std::vector<std::string>& order) {
  const std::vector<std::string> ids = ConfigurationOrder(order, records);
  std::vector<std::string> loads;
  for (const ContestRecord& r : records) {
    if (std::find(loads.begin(), loads.end(), r.load) == loads.end()) loads.push_back(r.load);
  }
  std::stable_sort(loads.begin(), loads.end(), [](const std::string& a, const std::string& b) {
    return LoadRank(a) < LoadRank(b);
  });

  std::vector<ContestRow> rows;
  for (const std::string& load : loads) {
    for (const std::string& id : ids) {
      ContestRow row;
      row.load = load;
      row.identifier = id;
      std::vector<double> time, cpu, work, lcpu;
      bool all_absent = true;
      for (const ContestRecord& r : records) {
        if (r.load != load || r.identifier != id) continue;
        ++row.repetitions;
        if (row.label.empty()) row.label = r.label;
        row.timeout_seconds = std::max(row.timeout_seconds, r.timeout_seconds);
        all_absent = all_absent && r.load_absent;
        if (r.status == "dnf") {
          ++row.dnf;
        } else if (r.status == "failed") {
          ++row.failed;
          row.failed_exit_code = r.exit_code;
        } else {
          time.push_back(r.compile.elapsed_seconds);
          cpu.push_back(r.CpuPercent());
          work.push_back(r.loads);
          lcpu.push_back(r.LoadCpuPercent());
        }
      }
      if (row.repetitions == 0) continue;
      row.load_absent = all_absent;
      row.runs = static_cast<uint32_t>(time.size());
      row.time_seconds = MeanOf(time);
      row.cpu_percent = MeanOf(cpu);
      row.loads = MeanOf(work);
      row.lcpu_percent = MeanOf(lcpu);
      rows.push_back(std::move(row));
    }
  }
  // Ratio against the same configuration's no_load, from the unrounded means.
  for (ContestRow& row : rows) {
    for (const ContestRow& base : rows) {
      if (base.load == "no_load" && base.identifier == row.identifier && base.runs > 0 &&
          base.time_seconds > 0 && row.runs > 0) {
        row.ratio = row.time_seconds / base.time_seconds;
      }
    }
  }
  return rows;
}

json ContestSummaryToJson(const std::vector<ContestRow>& rows) {
  json out = json::array();
  for (const ContestRow& r : rows) {
    out.push_back({{"load", r.load},
                   {"identifier", r.identifier},
                   {"label", r.label},
                   {"runs", r.runs},
                   {"repetitions", r.repetitions},
                   {"dnf", r.dnf},
                   {"failed", r.failed},
                   {"time_seconds", r.time_seconds},
                   {"cpu_percent", r.cpu_percent},
                   {"loads", r.loads},
                   {"lcpu_percent", r.lcpu_percent},
                   {"ratio", r.ratio < 0 ? json(nullptr) : json(r.ratio)},
                   {"load_absent", r.load_absent},
                   {"timeout_seconds", r.timeout_seconds},
                   {"failed_exit_code", r.failed_exit_code}});
  }
  return out;
}

}  // namespace elevbench
