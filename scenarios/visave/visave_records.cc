#include "scenarios/visave/visave_records.h"

#include <algorithm>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

// A save is one flat object: "started_seconds" and its timing's members.
constexpr JsonField<VisaveSave> kVisaveSaveFields[] = {
    {"started_seconds", &VisaveSave::started_seconds},
};
constexpr JsonField<SaveTiming> kSaveTimingFields[] = {
    {"wall_seconds", &SaveTiming::wall_seconds},
    {"write_seconds", &SaveTiming::write_seconds},
    {"fsync_seconds", &SaveTiming::fsync_seconds},
    {"rename_seconds", &SaveTiming::rename_seconds},
    {"user_seconds", &SaveTiming::user_seconds},
    {"system_seconds", &SaveTiming::system_seconds},
    {"block_input_ops", &SaveTiming::block_input_ops},
    {"block_output_ops", &SaveTiming::block_output_ops},
    {"voluntary_switches", &SaveTiming::voluntary_switches},
    {"involuntary_switches", &SaveTiming::involuntary_switches},
};

// Beside the header's fields, "saves", "histogram" and "load" in the same object.
constexpr JsonField<VisaveRecord> kVisaveFields[] = {
    {"interval_seconds", &VisaveRecord::interval_seconds},
    {"file_bytes", &VisaveRecord::file_bytes},
    {"warmup_seconds", &VisaveRecord::warmup_seconds},
};

json SaveToJson(const VisaveSave& s) {
  json j;
  WriteJsonFields(kVisaveSaveFields, s, &j);
  WriteJsonFields(kSaveTimingFields, s.timing, &j);
  return j;
}

bool SaveFromJson(const json& j, VisaveSave* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an object";
    return false;
  }
  VisaveSave s;
  if (!ReadJsonFields(kVisaveSaveFields, j, &s, err) ||
      !ReadJsonFields(kSaveTimingFields, j, &s.timing, err)) {
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
  json j{
      {"saves", std::move(saves)}, {"histogram", r.histogram.ToJson()}, {"load", std::move(load)}};
  WriteJsonFields(kVisaveFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool VisaveRecordFromJson(const json& j, VisaveRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a visave record object";
    return false;
  }
  VisaveRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kVisaveFields, j, &r, err)) return false;
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
    double sum = 0;
    for (double s : row.save_seconds) {
      sum += s;
      row.max_save_seconds = std::max(row.max_save_seconds, s);
    }
    if (!row.save_seconds.empty()) {
      row.mean_save_seconds = sum / static_cast<double>(row.save_seconds.size());
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

json VisaveSummaryToJson(const std::vector<VisaveRow>& rows) {
  json summary = json::array();
  for (const VisaveRow& row : rows) {
    summary.push_back(
        json{{"identifier", row.identifier},
             {"label", row.label},
             {"repetitions", row.repetitions},
             {"saves", row.save_seconds.size()},
             {"mean_seconds", row.mean_save_seconds},
             {"max_seconds", row.max_save_seconds},
             {"p50_seconds", static_cast<double>(row.histogram.ValueAtPercentile(50)) / 1e9},
             {"p90_seconds", static_cast<double>(row.histogram.ValueAtPercentile(90)) / 1e9},
             {"load_mb_s", row.load_mb_s}});
  }
  return summary;
}

}  // namespace elevbench
