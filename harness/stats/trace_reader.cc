#include "harness/stats/trace_reader.h"

#include <charconv>

#include "harness/core/json_fields.h"

namespace elevbench {
namespace {

using nlohmann::json;

// A non-negative integer of either JSON kind (a document built in memory holds signed ones;
// parsed text gives unsigned).
bool TraceCount(const json& v, uint64_t* out) {
  if (!v.is_number_integer() || (!v.is_number_unsigned() && v.get<int64_t>() < 0)) return false;
  *out = v.is_number_unsigned() ? v.get<uint64_t>() : static_cast<uint64_t>(v.get<int64_t>());
  return true;
}

bool TraceHistogram(const json& j, const char* key, LatencyHistogram* out, std::string* err) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return true;
  if (!LatencyHistogram::FromJson(*it, out, err)) {
    *err = std::string(key) + ": " + *err;
    return false;
  }
  return true;
}

// "dispatch_run_lengths": {"1": 30, "64": 1}: decimal run length → count.
bool TraceRunLengths(const json& j, std::map<uint64_t, uint64_t>* out, std::string* err) {
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
  if (!GetOptionalJsonField(j, "requests", &d.requests, err) ||
      !GetOptionalJsonField(j, "bytes", &d.bytes, err) || !TraceHistogram(j, "q2c", &d.q2c, err) ||
      !TraceHistogram(j, "i2d", &d.i2d, err) || !TraceHistogram(j, "d2c", &d.d2c, err) ||
      !GetOptionalJsonField(j, "dispatches", &d.dispatches, err) ||
      !GetOptionalJsonField(j, "mean_dispatch_run", &d.mean_dispatch_run, err) ||
      !TraceRunLengths(j, &d.dispatch_run_lengths, err) ||
      !GetOptionalJsonField(j, "seek_share", &d.seek_share, err) ||
      !GetOptionalJsonField(j, "mean_seek_sectors", &d.mean_seek_sectors, err) ||
      !TraceHistogram(j, "seek_distance", &d.seek_distance, err) ||
      !GetOptionalJsonField(j, "merges", &d.merges, err) ||
      !GetOptionalJsonField(j, "requeues", &d.requeues, err) ||
      !GetOptionalJsonField(j, "mean_request_kib", &d.mean_request_kib, err)) {
    return false;
  }
  *out = std::move(d);
  return true;
}

// The "read" and "write" members of `j` (a trace or one of its phases); absent ones are empty.
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

bool TracePhasesFromJson(const json& j, RequestTrace* t, std::string* err) {
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
    t->phases.emplace_back(name, std::move(d));
  }
  return true;
}

bool TraceQueuedFromJson(const json& j, RequestTrace* t, std::string* err) {
  const auto queued = j.find("queued");
  if (queued == j.end() || queued->is_null()) return true;
  if (!queued->is_object() || !GetOptionalJsonField(*queued, "mean", &t->queued_mean, err) ||
      !GetOptionalJsonField(*queued, "max", &t->queued_max, err)) {
    *err = "queued: " + (queued->is_object() ? *err : std::string("expected an object"));
    return false;
  }
  t->has_queued = true;
  return true;
}

}  // namespace

bool RequestTraceFromJson(const json& j, RequestTrace* out, std::string* err) {
  try {
    if (!j.is_object()) {
      *err = "request_trace: expected an object";
      return false;
    }
    RequestTrace t;
    const auto mode = j.find("mode");
    if (mode != j.end() && mode->is_string()) t.mode = mode->get<std::string>();
    const auto complete = j.find("complete");
    if (complete != j.end() && complete->is_boolean()) t.complete = complete->get<bool>();
    if (!GetOptionalJsonField(j, "events", &t.events, err) ||
        !GetOptionalJsonField(j, "dropped_events", &t.dropped_events, err) ||
        !TraceDirectionsFromJson(j, &t.total, err) || !TracePhasesFromJson(j, &t, err) ||
        !TraceQueuedFromJson(j, &t, err)) {
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

const TraceDirections& TraceAccountOf(const RequestTrace& trace, const std::string& section,
                                      const std::string& row, std::string* phase) {
  for (const auto& [name, account] : trace.phases) {
    if (name == section || name == row) {
      if (phase != nullptr) *phase = name;
      return account;
    }
  }
  if (phase != nullptr) phase->clear();
  return trace.total;
}

}  // namespace elevbench
