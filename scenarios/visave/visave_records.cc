#include "scenarios/visave/visave_records.h"

#include <algorithm>

#include "harness/core/json_fields.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

json SaveToJson(const VisaveSave& s) {
  const SaveTiming& t = s.timing;
  return json{{"started_seconds", s.started_seconds},
              {"wall_seconds", t.wall_seconds},
              {"write_seconds", t.write_seconds},
              {"fsync_seconds", t.fsync_seconds},
              {"rename_seconds", t.rename_seconds},
              {"user_seconds", t.user_seconds},
              {"system_seconds", t.system_seconds},
              {"block_input_ops", t.block_input_ops},
              {"block_output_ops", t.block_output_ops},
              {"voluntary_switches", t.voluntary_switches},
              {"involuntary_switches", t.involuntary_switches}};
}

bool SaveFromJson(const json& j, VisaveSave* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  VisaveSave s;
  SaveTiming& t = s.timing;
  if (!GetJsonField(j, "started_seconds", &s.started_seconds, err) ||
      !GetJsonField(j, "wall_seconds", &t.wall_seconds, err) ||
      !GetJsonField(j, "write_seconds", &t.write_seconds, err) ||
      !GetJsonField(j, "fsync_seconds", &t.fsync_seconds, err) ||
      !GetJsonField(j, "rename_seconds", &t.rename_seconds, err) ||
      !GetJsonField(j, "user_seconds", &t.user_seconds, err) ||
      !GetJsonField(j, "system_seconds", &t.system_seconds, err) ||
      !GetJsonField(j, "block_input_ops", &t.block_input_ops, err) ||
      !GetJsonField(j, "block_output_ops", &t.block_output_ops, err) ||
      !GetJsonField(j, "voluntary_switches", &t.voluntary_switches, err) ||
      !GetJsonField(j, "involuntary_switches", &t.involuntary_switches, err)) {
    return false;
  }
  *out = s;
  return true;
}

}  // namespace

json VisaveRecordToJson(const VisaveRecord& r) {
  json saves = json::array();
  for (const VisaveSave& s : r.saves) saves.push_back(SaveToJson(s));
  json load = json::array();
  for (const StreamResult& s : r.load) load.push_back(StreamResultToJson(s));
  json j{{"interval_seconds", r.interval_seconds}, {"file_bytes", r.file_bytes},
         {"warmup_seconds", r.warmup_seconds},     {"saves", std::move(saves)},
         {"histogram", r.histogram.ToJson()},      {"load", std::move(load)}};
  WriteRecordHeader(r, &j);
  return j;
}

bool VisaveRecordFromJson(const json& j, VisaveRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a visave record object";
    return false;
  }
  VisaveRecord r;
  if (!ReadRecordHeader(j, &r, err) ||
      !GetJsonField(j, "interval_seconds", &r.interval_seconds, err) ||
      !GetJsonField(j, "file_bytes", &r.file_bytes, err) ||
      !GetJsonField(j, "warmup_seconds", &r.warmup_seconds, err)) {
    return false;
  }
  const auto saves = j.find("saves");
  if (saves == j.end() || !saves->is_array()) {
    *err = "saves: expected an array";
    return false;
  }
  for (size_t i = 0; i < saves->size(); ++i) {
    VisaveSave s;
    if (!SaveFromJson((*saves)[i], &s, err)) {
      *err = "saves[" + std::to_string(i) + "]." + *err;
      return false;
    }
    r.saves.push_back(s);
  }
  const auto hist = j.find("histogram");
  if (hist == j.end()) {
    *err = "histogram: missing";
    return false;
  }
  if (!LatencyHistogram::FromJson(*hist, &r.histogram, err)) {
    *err = "histogram: " + *err;
    return false;
  }
  if (!StreamResultsFromJson(j, "load", &r.load, err)) return false;
  *out = std::move(r);
  return true;
}

bool VisaveRecordsFromDocument(const ResultsDocument& doc, std::vector<VisaveRecord>* out,
                               std::string* err) {
  return ReadDocumentRecords(doc, VisaveRecordFromJson, out, err);
}

std::vector<VisaveRow> AggregateVisaveRows(const std::vector<VisaveRecord>& records,
                                           const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  std::vector<VisaveRow> rows;
  for (const std::string& id : order) {
    VisaveRow row;
    row.identifier = id;
    std::vector<const VisaveRecord*> mine;
    for (const VisaveRecord& r : records) {
      if (r.identifier == id) mine.push_back(&r);
    }
    if (mine.empty()) continue;
    std::stable_sort(mine.begin(), mine.end(), [](const VisaveRecord* a, const VisaveRecord* b) {
      return a->repetition < b->repetition;
    });
    std::vector<double> mb_s;
    for (const VisaveRecord* r : mine) {
      ++row.repetitions;
      if (row.label.empty()) row.label = r->label;
      for (const VisaveSave& s : r->saves) row.save_seconds.push_back(s.timing.wall_seconds);
      row.histogram.Merge(r->histogram);
      uint64_t bytes = 0;
      double seconds = 0;
      for (const StreamResult& s : r->load) {
        bytes += s.bytes();
        seconds = std::max(seconds, s.runtime_seconds);
      }
      if (seconds > 0) mb_s.push_back(static_cast<double>(bytes) / (1 << 20) / seconds);
    }
    row.load_mb_s = mb_s.empty() ? 0 : Summarize(mb_s, MeanKind::kHarmonic).mean;
    rows.push_back(std::move(row));
  }
  return rows;
}

json VisaveSummaryToJson(const std::vector<VisaveRow>& rows) {
  json summary = json::array();
  for (const VisaveRow& row : rows) {
    double sum = 0, max = 0;
    for (double s : row.save_seconds) {
      sum += s;
      max = std::max(max, s);
    }
    const double n = static_cast<double>(row.save_seconds.size());
    summary.push_back(
        json{{"identifier", row.identifier},
             {"label", row.label},
             {"repetitions", row.repetitions},
             {"saves", row.save_seconds.size()},
             {"mean_seconds", n > 0 ? sum / n : 0},
             {"max_seconds", max},
             {"p50_seconds", static_cast<double>(row.histogram.ValueAtPercentile(50)) / 1e9},
             {"p90_seconds", static_cast<double>(row.histogram.ValueAtPercentile(90)) / 1e9},
             {"load_mb_s", row.load_mb_s}});
  }
  return summary;
}

}  // namespace elevbench
