#include "scenarios/replay/replay_records.h"

#include "harness/core/json_field_table.h"

namespace elevbench {

using nlohmann::json;

namespace {

// The plain fields of a process and of a cell, each named once (json_field_table.h).
constexpr JsonField<ReplayProcess> kProcessFields[] = {
    {"pid", &ReplayProcess::pid},
    {"comm", &ReplayProcess::comm},
    {"ioengine", &ReplayProcess::ioengine},
    {"replayed_as", &ReplayProcess::replayed_as, FieldPresence::kOptional},
    {"until_readers_end", &ReplayProcess::until_readers_end, FieldPresence::kOptional},
    {"trace_ops", &ReplayProcess::trace_ops},
    {"trace_bytes", &ReplayProcess::trace_bytes, FieldPresence::kOptional},
    {"first_lag_ms", &ReplayProcess::first_lag_ms},
    {"trace_read_p50_ms", &ReplayProcess::trace_read_p50_ms, FieldPresence::kNullable},
    {"trace_span_seconds", &ReplayProcess::trace_span_seconds, FieldPresence::kNullable},
    {"replay_span_seconds", &ReplayProcess::replay_span_seconds, FieldPresence::kNullable}};

constexpr JsonField<ReplayRecord> kLagFields[] = {
    {"matched", &ReplayRecord::lag_matched},
    {"unmatched", &ReplayRecord::lag_unmatched},
    {"mean_ms", &ReplayRecord::lag_mean_ms},
    {"p99_ms", &ReplayRecord::lag_p99_ms},
    {"max_ms", &ReplayRecord::lag_max_ms},
    {"keeps_time", &ReplayRecord::keeps_time},
    {"missed_reads", &ReplayRecord::missed_reads, FieldPresence::kOptional},
    {"missed_writes", &ReplayRecord::missed_writes, FieldPresence::kOptional},
    {"missed_discards", &ReplayRecord::missed_discards, FieldPresence::kOptional},
    {"missed_flushes", &ReplayRecord::missed_flushes, FieldPresence::kOptional}};

constexpr JsonField<ReplayRecord> kRecordFields[] = {
    {"trace_ops", &ReplayRecord::trace_ops},
    {"trace_bytes", &ReplayRecord::trace_bytes},
    {"replayed_ops", &ReplayRecord::replayed_ops},
    {"replayed_bytes", &ReplayRecord::replayed_bytes},
    {"fio_ops", &ReplayRecord::fio_ops},
    {"fio_bytes", &ReplayRecord::fio_bytes},
    {"added_syncs", &ReplayRecord::added_syncs},
    {"fua_writes", &ReplayRecord::fua_writes},
    {"buffered_ops", &ReplayRecord::buffered_ops, FieldPresence::kOptional},
    {"buffered_bytes", &ReplayRecord::buffered_bytes, FieldPresence::kOptional},
    {"journal_log_writes", &ReplayRecord::journal_log_writes, FieldPresence::kOptional},
    {"journal_wait_ios", &ReplayRecord::journal_wait_ios, FieldPresence::kOptional},
    {"journal_wait_seconds", &ReplayRecord::journal_wait_seconds, FieldPresence::kOptional},
    {"trace_seconds", &ReplayRecord::trace_seconds},
    {"trace_span_seconds", &ReplayRecord::trace_span_seconds, FieldPresence::kNullable},
    {"replay_seconds", &ReplayRecord::replay_seconds},
    {"fio_seconds", &ReplayRecord::fio_seconds, FieldPresence::kNullable},
    {"mapping", &ReplayRecord::mapping},
    {"lag_problem", &ReplayRecord::lag_problem, FieldPresence::kOptional}};

json ProcessToJson(const ReplayProcess& p) {
  json j{{"kernel_read_q2c", p.kernel_read.ToJson()},
         {"kernel_write_q2c", p.kernel_write.ToJson()},
         {"job", JobResultToJson(p.job)}};
  WriteJsonFields(kProcessFields, p, &j);
  return j;
}

bool ProcessFromJson(const json& j, ReplayProcess* p, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  const auto job = j.find("job");
  if (!ReadJsonFields(kProcessFields, j, p, err)) return false;
  for (const auto& [key, h] :
       {std::pair<const char*, LatencyHistogram*>{"kernel_read_q2c", &p->kernel_read},
        {"kernel_write_q2c", &p->kernel_write}}) {
    const auto it = j.find(key);
    if (it == j.end() || !LatencyHistogram::FromJson(*it, h, err)) {
      *err = std::string(key) + ": " + (it == j.end() ? std::string("missing") : *err);
      return false;
    }
  }
  if (job == j.end() || !JobResultFromJson(*job, &p->job, err)) {
    *err = "job: " + (job == j.end() ? std::string("missing") : *err);
    return false;
  }
  return true;
}

bool ReadLag(const json& j, ReplayRecord* r, std::string* err) {
  const auto lag = j.find("lag");
  if (lag == j.end() || !(lag->is_object() || lag->is_null())) {
    *err = "lag: expected an object or null";
    return false;
  }
  r->lag_measured = lag->is_object();
  if (!r->lag_measured) return true;
  if (!ReadJsonFields(kLagFields, *lag, r, err)) {
    *err = "lag." + *err;
    return false;
  }
  return true;
}

LatencyHistogram Merged(const std::vector<ReplayProcess>& processes, bool reads, bool kernel) {
  LatencyHistogram all;
  for (const ReplayProcess& p : processes) {
    if (kernel) {
      all.Merge(reads ? p.kernel_read : p.kernel_write);
    } else {
      all.Merge(reads ? p.job.read.clat : p.job.write.clat);
    }
  }
  return all;
}

}  // namespace

LatencyHistogram ReplayRecord::ReadLatency() const { return Merged(processes, true, lag_measured); }
LatencyHistogram ReplayRecord::WriteLatency() const {
  return Merged(processes, false, lag_measured);
}

double ReplayRecord::MegabytesPerSecond() const {
  return replay_seconds > 0 ? static_cast<double>(replayed_bytes) / (1 << 20) / replay_seconds : 0;
}

json ReplayRecordToJson(const ReplayRecord& r) {
  json processes = json::array();
  for (const ReplayProcess& p : r.processes) processes.push_back(ProcessToJson(p));
  json lag = nullptr;
  if (r.lag_measured) WriteJsonFields(kLagFields, r, &lag);
  json j{{"lag", lag}, {"processes", std::move(processes)}};
  WriteJsonFields(kRecordFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool ReplayRecordFromJson(const json& j, ReplayRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a replay record object";
    return false;
  }
  ReplayRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kRecordFields, j, &r, err) ||
      !ReadLag(j, &r, err)) {
    return false;
  }
  const auto processes = j.find("processes");
  if (processes == j.end() || !processes->is_array()) {
    *err = "processes: expected an array";
    return false;
  }
  for (size_t i = 0; i < processes->size(); ++i) {
    ReplayProcess p;
    if (!ProcessFromJson((*processes)[i], &p, err)) {
      *err = "processes[" + std::to_string(i) + "]." + *err;
      return false;
    }
    r.processes.push_back(std::move(p));
  }
  *out = std::move(r);
  return true;
}

bool ReplayRecordsFromDocument(const ResultsDocument& doc, std::vector<ReplayRecord>* out,
                               std::string* err) {
  return ReadDocumentRecords(doc, ReplayRecordFromJson, out, err);
}

}  // namespace elevbench
