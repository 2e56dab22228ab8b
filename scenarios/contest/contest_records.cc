#include "scenarios/contest/contest_records.h"

#include <algorithm>

#include "harness/core/json_field_table.h"
#include "scenarios/contest/contest_loads.h"

namespace elevbench {
namespace {

using nlohmann::json;

// A record's plain fields in the reader's order, split where a ProcessUsage object ("compile",
// "load_usage") is read between them; beside the header's fields, those two objects, the
// derived "cpu_percent" and "lcpu_percent" (written for readers only) and "streams".
constexpr JsonField<ContestRecord> kContestCompileFields[] = {
    {"load", &ContestRecord::load},
    {"status", &ContestRecord::status},
    {"exit_code", &ContestRecord::exit_code},
    {"timeout_seconds", &ContestRecord::timeout_seconds},
};
constexpr JsonField<ContestRecord> kContestLoadFields[] = {
    {"warmup_seconds", &ContestRecord::warmup_seconds},
    {"caches_kept", &ContestRecord::caches_kept},
    {"load_absent", &ContestRecord::load_absent},
    {"load_kind", &ContestRecord::load_kind},
};
constexpr JsonField<ContestRecord> kContestLoadWorkFields[] = {
    {"load_work", &ContestRecord::load_work},
    {"load_work_unit", &ContestRecord::load_work_unit},
    {"loads", &ContestRecord::loads},
    {"load_iterations_started", &ContestRecord::load_iterations_started},
    {"load_iterations_completed", &ContestRecord::load_iterations_completed},
    {"load_iterations_failed", &ContestRecord::load_iterations_failed},
    {"load_last_failure", &ContestRecord::load_last_failure},
};

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
  json j{{"compile", UsageToJson(r.compile)},
         {"load_usage", UsageToJson(r.load_usage)},
         {"cpu_percent", r.CpuPercent()},
         {"lcpu_percent", r.LoadCpuPercent()},
         {"streams", std::move(streams)}};
  WriteJsonFields(kContestCompileFields, r, &j);
  WriteJsonFields(kContestLoadFields, r, &j);
  WriteJsonFields(kContestLoadWorkFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool ContestRecordFromJson(const json& j, ContestRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a contest record object";
    return false;
  }
  ContestRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kContestCompileFields, j, &r, err) ||
      !UsageFromJson(j, "compile", &r.compile, err) ||
      !ReadJsonFields(kContestLoadFields, j, &r, err) ||
      !UsageFromJson(j, "load_usage", &r.load_usage, err) ||
      !ReadJsonFields(kContestLoadWorkFields, j, &r, err)) {
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
