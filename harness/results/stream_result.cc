#include "harness/results/stream_result.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "harness/core/json_field_table.h"

namespace elevbench {
namespace {

using nlohmann::json;

constexpr JsonField<StreamResult> kStreamFields[] = {
    {"name", &StreamResult::name},
    {"direction", &StreamResult::direction},
    {"bytes_read", &StreamResult::bytes_read},
    {"bytes_written", &StreamResult::bytes_written},
    {"runtime_seconds", &StreamResult::runtime_seconds},
    {"cpu_seconds", &StreamResult::cpu_seconds},
};

// Read after the histogram and the log (the order of the reader's errors); absent: no log kept.
constexpr JsonField<StreamResult> kThroughputLogFields[] = {
    {"throughput_interval_ms", &StreamResult::throughput_interval_ms, FieldPresence::kOptional},
};

constexpr JsonField<Fairness> kFairnessFields[] = {
    {"min_max_ratio", &Fairness::min_max_ratio},
    {"jain_index", &Fairness::jain_index},
    {"min_bytes", &Fairness::min_bytes},
    {"max_bytes", &Fairness::max_bytes},
};

}  // namespace

bool StreamsMbPerSecond(const std::vector<StreamResult>& streams, double* mb_per_second) {
  uint64_t bytes = 0;
  double seconds = 0;
  for (const StreamResult& s : streams) {
    bytes += s.bytes();
    seconds = std::max(seconds, s.runtime_seconds);
  }
  if (streams.empty() || seconds <= 0) return false;
  *mb_per_second = static_cast<double>(bytes) / (1 << 20) / seconds;
  return true;
}

Fairness FairnessOf(const std::vector<StreamResult>& streams) {
  Fairness f;
  if (streams.empty()) return f;
  f.min_bytes = std::numeric_limits<uint64_t>::max();
  double sum = 0;
  double sum_sq = 0;
  for (const StreamResult& s : streams) {
    const uint64_t b = s.bytes();
    f.min_bytes = std::min(f.min_bytes, b);
    f.max_bytes = std::max(f.max_bytes, b);
    const double x = static_cast<double>(b);
    sum += x;
    sum_sq += x * x;
  }
  if (f.max_bytes == 0) return f;  // nothing moved: both indices undefined, reported as 0
  f.min_max_ratio = static_cast<double>(f.min_bytes) / static_cast<double>(f.max_bytes);
  f.jain_index = sum * sum / (static_cast<double>(streams.size()) * sum_sq);
  // Rounding may carry an equal split a hair past 1; the index is at most 1 by definition.
  f.jain_index = std::min(f.jain_index, 1.0);
  return f;
}

json StreamResultToJson(const StreamResult& s) {
  json j{{"latency_histogram", s.latency.ToJson()}, {"throughput_kib_s", s.throughput_kib_s}};
  WriteJsonFields(kStreamFields, s, &j);
  WriteJsonFields(kThroughputLogFields, s, &j);
  return j;
}

bool StreamResultFromJson(const json& j, StreamResult* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a stream object";
    return false;
  }
  StreamResult s;
  if (!ReadJsonFields(kStreamFields, j, &s, err)) return false;
  if (s.direction != "read" && s.direction != "write" && s.direction != "readwrite") {
    *err = "direction: expected read, write or readwrite, not '" + s.direction + "'";
    return false;
  }
  const auto hist = j.find("latency_histogram");
  if (hist == j.end()) {
    *err = "latency_histogram: missing";
    return false;
  }
  if (!LatencyHistogram::FromJson(*hist, &s.latency, err)) {
    *err = "latency_histogram: " + *err;
    return false;
  }
  // The throughput log is optional: absent means no log was kept.
  const auto tp = j.find("throughput_kib_s");
  if (tp != j.end()) {
    if (!tp->is_array()) {
      *err = "throughput_kib_s: expected an array of numbers";
      return false;
    }
    for (size_t i = 0; i < tp->size(); ++i) {
      if (!(*tp)[i].is_number()) {
        *err = "throughput_kib_s[" + std::to_string(i) + "]: expected a number";
        return false;
      }
      s.throughput_kib_s.push_back((*tp)[i].get<double>());
    }
  }
  if (!ReadJsonFields(kThroughputLogFields, j, &s, err)) return false;
  *out = std::move(s);
  return true;
}

json FairnessToJson(const Fairness& f) {
  json j;
  WriteJsonFields(kFairnessFields, f, &j);
  return j;
}

bool FairnessFromJson(const json& j, Fairness* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a fairness object";
    return false;
  }
  Fairness f;
  if (!ReadJsonFields(kFairnessFields, j, &f, err)) return false;
  *out = f;
  return true;
}

bool StreamResultsFromJson(const nlohmann::json& j, const char* key,
                           std::vector<StreamResult>* streams, std::string* err) {
  const auto array = j.find(key);
  if (array == j.end() || !array->is_array()) {
    *err = std::string(key) + ": expected an array";
    return false;
  }
  std::vector<StreamResult> read;
  for (size_t i = 0; i < array->size(); ++i) {
    StreamResult s;
    if (!StreamResultFromJson((*array)[i], &s, err)) {
      *err = std::string(key) + "[" + std::to_string(i) + "]." + *err;
      return false;
    }
    read.push_back(std::move(s));
  }
  streams->insert(streams->end(), std::make_move_iterator(read.begin()),
                  std::make_move_iterator(read.end()));
  return true;
}

}  // namespace elevbench
