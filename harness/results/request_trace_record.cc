#include "harness/results/request_trace_record.h"

#include <algorithm>
#include <charconv>
#include <exception>
#include <iterator>

#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

using nlohmann::json;

constexpr FieldPresence kTraceNullable = FieldPresence::kNullable;

// A direction's numbers; its histograms and run lengths are the code's below.
constexpr JsonField<TraceDirection> kTraceDirectionFields[] = {
    {"requests", &TraceDirection::requests, kTraceNullable},
    {"bytes", &TraceDirection::bytes, kTraceNullable},
    {"direct_issues", &TraceDirection::direct_issues, kTraceNullable},
    {"unmatched", &TraceDirection::unmatched, kTraceNullable},
    {"dispatches", &TraceDirection::dispatches, kTraceNullable},
    {"mean_dispatch_run", &TraceDirection::mean_dispatch_run, kTraceNullable},
    {"seek_share", &TraceDirection::seek_share, kTraceNullable},
    {"mean_seek_sectors", &TraceDirection::mean_seek_sectors, kTraceNullable},
    {"merges", &TraceDirection::merges, kTraceNullable},
    {"requeues", &TraceDirection::requeues, kTraceNullable},
    {"mean_request_kib", &TraceDirection::mean_request_kib, kTraceNullable},
};

// The analysis's numbers, written whenever the record is summarised.
constexpr JsonField<RequestTraceRecord> kTraceSummaryFields[] = {
    {"events", &RequestTraceRecord::events, kTraceNullable},
    {"dropped_events", &RequestTraceRecord::dropped_events, kTraceNullable},
    {"parse_errors", &RequestTraceRecord::parse_errors, kTraceNullable},
    {"flushes", &RequestTraceRecord::flushes, kTraceNullable},
    {"duration_s", &RequestTraceRecord::duration_s, kTraceNullable},
    {"other_processes", &RequestTraceRecord::other_processes, kTraceNullable},
};

// Members written only when set (not empty); read whenever present.
constexpr JsonField<RequestTraceRecord> kTraceStatusFields[] = {
    {"problem", &RequestTraceRecord::problem, kTraceNullable},
    {"raw_events", &RequestTraceRecord::raw_events, kTraceNullable},
    {"raw_scheduler_messages", &RequestTraceRecord::raw_scheduler_messages, kTraceNullable},
    {"first_parse_error", &RequestTraceRecord::first_parse_error, kTraceNullable},
};

// The status members; an object with any other member carries an analysis.
constexpr const char* kTraceStatusMembers[] = {"mode", "complete", "problem", "raw_events",
                                               "raw_scheduler_messages"};

json TraceDirectionToJson(const TraceDirection& d) {
  json runs = json::object();
  for (const auto& [length, count] : d.dispatch_run_lengths) runs[std::to_string(length)] = count;
  json j{{"q2c", d.q2c.ToJson()},
         {"i2d", d.i2d.ToJson()},
         {"d2c", d.d2c.ToJson()},
         {"seek_distance", d.seek_distance.ToJson()},
         {"dispatch_run_lengths", std::move(runs)}};
  WriteJsonFields(kTraceDirectionFields, d, &j);
  return j;
}

json TraceDirectionsToJson(const TraceDirections& d) {
  return json{{"read", TraceDirectionToJson(d.read)}, {"write", TraceDirectionToJson(d.write)}};
}

// A non-negative integer of either JSON kind (a document built in memory holds signed ones;
// parsed text gives unsigned).
bool TraceCount(const json& v, uint64_t* out) {
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0)) return false;
  *out = v.is_number_unsigned() ? v.get<uint64_t>() : static_cast<uint64_t>(v.get<int64_t>());
  return true;
}

bool TraceHistogramFromJson(const json& j, const char* key, CompactHistogram* out,
                            std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  if (!CompactHistogram::FromJson(*it, out, err)) {
    *err = std::string(key) + ": " + *err;
    return false;
  }
  return true;
}

// "dispatch_run_lengths": {"1": 30, "64": 1}: decimal run length → count.
bool TraceRunLengthsFromJson(const json& j, std::map<uint64_t, uint64_t>* out, std::string* err) {
  const auto it = j.find("dispatch_run_lengths");
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_object()) {
    *err = "dispatch_run_lengths: expected an object";
    return false;
  }
  for (const auto& [key, value] : it->items()) {
    uint64_t length = 0;
    uint64_t count = 0;
    const char* end = key.data() + key.size();
    const auto [ptr, ec] = std::from_chars(key.data(), end, length);
    if (key.empty() || ec != std::errc() || ptr != end || !TraceCount(value, &count)) {
      *err = "dispatch_run_lengths: expected decimal run lengths with non-negative counts";
      return false;
    }
    (*out)[length] += count;
  }
  return true;
}

bool TraceDirectionFromJson(const json& j, TraceDirection* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  TraceDirection d;
  if (!ReadJsonFields(kTraceDirectionFields, j, &d, err) ||
      !TraceHistogramFromJson(j, "q2c", &d.q2c, err) ||
      !TraceHistogramFromJson(j, "i2d", &d.i2d, err) ||
      !TraceHistogramFromJson(j, "d2c", &d.d2c, err) ||
      !TraceRunLengthsFromJson(j, &d.dispatch_run_lengths, err) ||
      !TraceHistogramFromJson(j, "seek_distance", &d.seek_distance, err)) {
    return false;
  }
  *out = std::move(d);
  return true;
}

// The "read" and "write" members of `j` (a trace, a process or a phase); absent ones are empty.
bool TraceDirectionsFromJson(const json& j, TraceDirections* out, std::string* err) {
  for (const char* key : {"read", "write"}) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    TraceDirection* d = std::string(key) == "read" ? &out->read : &out->write;
    if (!TraceDirectionFromJson(*it, d, err)) {
      *err = std::string(key) + ": " + *err;
      return false;
    }
  }
  return true;
}

// An object of `key` whose members are all of T's JSON kind (GetJsonField), into *out.
template <typename T>
bool TraceMapFromJson(const json& j, const char* key, std::map<std::string, T>* out,
                      std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_object()) {
    *err = std::string(key) + ": expected an object";
    return false;
  }
  for (const auto& [name, value] : it->items()) {
    T v{};
    if (!GetJsonField(*it, name.c_str(), &v, err)) {
      *err = std::string(key) + "." + *err;
      return false;
    }
    (*out)[name] = v;
  }
  return true;
}

bool TraceSchedulerQueuesFromJson(const json& j, RequestTraceRecord* t, std::string* err) {
  const auto it = j.find("scheduler_queues");
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_object()) {
    *err = "scheduler_queues: expected an object";
    return false;
  }
  for (const auto& [queue, kinds] : it->items()) {
    if (!TraceMapFromJson(*it, queue.c_str(), &t->scheduler_queues[queue], err)) {
      *err = "scheduler_queues." + *err;
      return false;
    }
  }
  return true;
}

bool TraceProcessesFromJson(const json& j, RequestTraceRecord* t, std::string* err) {
  const auto it = j.find("processes");
  if (it == j.end() || it->is_null()) return true;
  if (!it->is_array()) {
    *err = "processes: expected an array";
    return false;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const json& p = (*it)[i];
    TraceProcess process;
    if (!p.is_object() || !GetOptionalJsonField(p, "pid", &process.pid, err) ||
        !GetOptionalJsonField(p, "comm", &process.comm, err) ||
        !TraceDirectionsFromJson(p, &process.account, err)) {
      *err = "processes[" + std::to_string(i) + "]: " + (p.is_object() ? *err : "not an object");
      return false;
    }
    t->processes.push_back(std::move(process));
  }
  return true;
}

bool TracePhasesFromJson(const json& j, RequestTraceRecord* t, std::string* err) {
  const auto phases = j.find("phases");
  if (phases == j.end() || phases->is_null()) return true;
  if (!phases->is_object()) {
    *err = "phases: expected an object";
    return false;
  }
  for (const auto& [name, phase] : phases->items()) {
    TraceDirections d;
    if (!phase.is_object() || !TraceDirectionsFromJson(phase, &d, err)) {
      *err = "phases." + name.substr(0, 40) + ": " + (phase.is_object() ? *err : "not an object");
      return false;
    }
    t->phases[name] = std::move(d);
  }
  return true;
}

bool TraceQueuedFromJson(const json& j, RequestTraceRecord* t, std::string* err) {
  const auto it = j.find("queued");
  if (it == j.end() || it->is_null()) return true;
  TraceQueued q;
  if (!it->is_object() || !GetOptionalJsonField(*it, "mean", &q.mean, err) ||
      !GetOptionalJsonField(*it, "max", &q.max, err)) {
    *err = "queued: " + (it->is_object() ? *err : std::string("expected an object"));
    return false;
  }
  const auto series = it->find("series");
  if (series != it->end() && !series->is_null()) {
    const bool array = series->is_array();
    for (size_t i = 0; array && i < series->size(); ++i) {
      const json& point = (*series)[i];
      uint64_t n = 0;
      if (!point.is_array() || point.size() != 2 || !point[0].is_number() ||
          !TraceCount(point[1], &n)) {
        *err = "queued: series: expected [seconds, requests] pairs";
        return false;
      }
      q.series.emplace_back(point[0].get<double>(), n);
    }
    if (!array) {
      *err = "queued: series: expected an array";
      return false;
    }
  }
  t->queued = std::move(q);
  return true;
}

// The status members: mode and complete as the reports always read them (a mode that is not
// "summary" or "full", or a complete that is not true or false, is ignored), the strings typed.
bool TraceStatusFromJson(const json& j, RequestTraceRecord* t, std::string* err) {
  const auto mode = j.find("mode");
  if (mode != j.end() && mode->is_string())
    (void)ParseTraceMode(mode->get<std::string>(), &t->mode);
  const auto complete = j.find("complete");
  if (complete != j.end() && complete->is_boolean()) t->complete = complete->get<bool>();
  if (!ReadJsonFields(kTraceStatusFields, j, t, err)) return false;
  t->summarised = false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string& key = it.key();
    t->summarised |= std::none_of(std::begin(kTraceStatusMembers), std::end(kTraceStatusMembers),
                                  [&](const char* status) { return key == status; });
  }
  return true;
}

}  // namespace

json RequestTraceRecordToJson(const RequestTraceRecord& t) {
  json j = json::object();
  if (t.summarised) {
    WriteJsonFields(kTraceSummaryFields, t, &j);
    j["read"] = TraceDirectionToJson(t.total.read);
    j["write"] = TraceDirectionToJson(t.total.write);
    if (t.parse_errors > 0) j["first_parse_error"] = t.first_parse_error;
    json processes = json::array();
    for (const TraceProcess& p : t.processes) {
      json process = TraceDirectionsToJson(p.account);
      process["pid"] = p.pid;
      process["comm"] = p.comm;
      processes.push_back(std::move(process));
    }
    j["processes"] = std::move(processes);
    if (!t.phases.empty()) {
      json phases = json::object();
      for (const auto& [name, account] : t.phases) phases[name] = TraceDirectionsToJson(account);
      j["phases"] = std::move(phases);
    }
    if (t.queued) {
      json series = json::array();
      for (const auto& [s, n] : t.queued->series) series.push_back({s, n});
      j["queued"] = {{"mean", t.queued->mean}, {"max", t.queued->max}, {"series", series}};
    }
    if (!t.scheduler_messages.empty()) j["scheduler_messages"] = t.scheduler_messages;
    if (!t.scheduler_queues.empty()) j["scheduler_queues"] = t.scheduler_queues;
    if (!t.scheduler_events.empty()) j["scheduler_events"] = t.scheduler_events;
    if (!t.scheduler_first_s.empty()) j["scheduler_first_s"] = t.scheduler_first_s;
  }
  if (t.mode != TraceMode::kOff) j["mode"] = TraceModeName(t.mode);
  if (t.complete) j["complete"] = *t.complete;
  if (!t.problem.empty()) j["problem"] = t.problem;
  if (!t.raw_events.empty()) j["raw_events"] = t.raw_events;
  if (!t.raw_scheduler_messages.empty()) j["raw_scheduler_messages"] = t.raw_scheduler_messages;
  return j;
}

bool RequestTraceRecordFromJson(const json& j, RequestTraceRecord* out, std::string* err) {
  try {
    if (!j.is_object()) {
      *err = "request_trace: expected an object";
      return false;
    }
    RequestTraceRecord t;
    if (!TraceStatusFromJson(j, &t, err) || !ReadJsonFields(kTraceSummaryFields, j, &t, err) ||
        !TraceDirectionsFromJson(j, &t.total, err) || !TraceProcessesFromJson(j, &t, err) ||
        !TracePhasesFromJson(j, &t, err) || !TraceQueuedFromJson(j, &t, err) ||
        !TraceMapFromJson(j, "scheduler_messages", &t.scheduler_messages, err) ||
        !TraceSchedulerQueuesFromJson(j, &t, err) ||
        !TraceMapFromJson(j, "scheduler_events", &t.scheduler_events, err) ||
        !TraceMapFromJson(j, "scheduler_first_s", &t.scheduler_first_s, err)) {
      *err = "request_trace." + *err;
      return false;
    }
    *out = std::move(t);
    return true;
  } catch (const std::exception& e) {
    *err = std::string("request_trace: ") + e.what();
    return false;
  }
}

}  // namespace elevbench
