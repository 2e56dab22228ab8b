#include "scenarios/replay/replay_records.h"

#include "harness/core/json_fields.h"

namespace elevbench {

using nlohmann::json;

namespace {

json ProcessToJson(const ReplayProcess& p) {
  return {{"pid", p.pid},
          {"comm", p.comm},
          {"ioengine", p.ioengine},
          {"trace_ops", p.trace_ops},
          {"first_lag_ms", p.first_lag_ms},
          {"trace_read_p50_ms", p.trace_read_p50_ms},
          {"kernel_read_q2c", p.kernel_read.ToJson()},
          {"kernel_write_q2c", p.kernel_write.ToJson()},
          {"job", JobResultToJson(p.job)}};
}

bool ProcessFromJson(const json& j, ReplayProcess* p, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  const auto job = j.find("job");
  if (!GetJsonField(j, "pid", &p->pid, err) || !GetJsonField(j, "comm", &p->comm, err) ||
      !GetJsonField(j, "ioengine", &p->ioengine, err) ||
      !GetJsonField(j, "trace_ops", &p->trace_ops, err) ||
      !GetJsonField(j, "first_lag_ms", &p->first_lag_ms, err) ||
      !GetOptionalJsonField(j, "trace_read_p50_ms", &p->trace_read_p50_ms, err)) {
    return false;
  }
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
  if (!GetJsonField(*lag, "matched", &r->lag_matched, err) ||
      !GetJsonField(*lag, "unmatched", &r->lag_unmatched, err) ||
      !GetJsonField(*lag, "mean_ms", &r->lag_mean_ms, err) ||
      !GetJsonField(*lag, "p99_ms", &r->lag_p99_ms, err) ||
      !GetJsonField(*lag, "max_ms", &r->lag_max_ms, err) ||
      !GetJsonField(*lag, "keeps_time", &r->keeps_time, err)) {
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
  return replay_seconds > 0 ? static_cast<double>(replayed_bytes) / 1e6 / replay_seconds : 0;
}

json ReplayRecordToJson(const ReplayRecord& r) {
  json processes = json::array();
  for (const ReplayProcess& p : r.processes) processes.push_back(ProcessToJson(p));
  json lag = nullptr;
  if (r.lag_measured) {
    lag = {{"matched", r.lag_matched}, {"unmatched", r.lag_unmatched},
           {"mean_ms", r.lag_mean_ms}, {"p99_ms", r.lag_p99_ms},
           {"max_ms", r.lag_max_ms},   {"keeps_time", r.keeps_time}};
  }
  json j{{"trace_ops", r.trace_ops},
         {"trace_bytes", r.trace_bytes},
         {"replayed_ops", r.replayed_ops},
         {"replayed_bytes", r.replayed_bytes},
         {"fio_ops", r.fio_ops},
         {"fio_bytes", r.fio_bytes},
         {"added_syncs", r.added_syncs},
         {"fua_writes", r.fua_writes},
         {"trace_seconds", r.trace_seconds},
         {"trace_span_seconds", r.trace_span_seconds},
         {"replay_seconds", r.replay_seconds},
         {"fio_seconds", r.fio_seconds},
         {"mapping", r.mapping},
         {"lag", lag},
         {"processes", std::move(processes)}};
  WriteRecordHeader(r, &j);
  return j;
}

bool ReplayRecordFromJson(const json& j, ReplayRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a replay record object";
    return false;
  }
  ReplayRecord r;
  if (!ReadRecordHeader(j, &r, err) || !GetJsonField(j, "trace_ops", &r.trace_ops, err) ||
      !GetJsonField(j, "trace_bytes", &r.trace_bytes, err) ||
      !GetJsonField(j, "replayed_ops", &r.replayed_ops, err) ||
      !GetJsonField(j, "replayed_bytes", &r.replayed_bytes, err) ||
      !GetJsonField(j, "fio_ops", &r.fio_ops, err) ||
      !GetJsonField(j, "fio_bytes", &r.fio_bytes, err) ||
      !GetJsonField(j, "added_syncs", &r.added_syncs, err) ||
      !GetJsonField(j, "fua_writes", &r.fua_writes, err) ||
      !GetJsonField(j, "trace_seconds", &r.trace_seconds, err) ||
      !GetOptionalJsonField(j, "trace_span_seconds", &r.trace_span_seconds, err) ||
      !GetJsonField(j, "replay_seconds", &r.replay_seconds, err) ||
      !GetOptionalJsonField(j, "fio_seconds", &r.fio_seconds, err) ||
      !GetJsonField(j, "mapping", &r.mapping, err) || !ReadLag(j, &r, err)) {
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
