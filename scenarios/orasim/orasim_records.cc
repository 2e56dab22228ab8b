#include "scenarios/orasim/orasim_records.h"

#include <algorithm>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {

using nlohmann::json;

namespace {

// Beside the header's fields and "streams" in the same object.
constexpr JsonField<OrasimRecord> kOrasimFields[] = {
    {"run", &OrasimRecord::run},
    {"elapsed_seconds", &OrasimRecord::elapsed_seconds},
    {"read_ops", &OrasimRecord::read_ops},
    {"write_ops", &OrasimRecord::write_ops},
    {"log_ops", &OrasimRecord::log_ops},
    {"score_ops_s", &OrasimRecord::score_ops_s},
    {"cpu_seconds", &OrasimRecord::cpu_seconds},
};

}  // namespace

json OrasimRecordToJson(const OrasimRecord& r) {
  json streams = json::array();
  for (const StreamResult& s : r.streams) streams.push_back(StreamResultToJson(s));
  json j{{"streams", std::move(streams)}};
  WriteJsonFields(kOrasimFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool OrasimRecordFromJson(const json& j, OrasimRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an orasim record object";
    return false;
  }
  OrasimRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kOrasimFields, j, &r, err)) return false;
  if (r.run < 1) {
    *err = "run: expected 1 or more";
    return false;
  }
  if (!StreamResultsFromJson(j, "streams", &r.streams, err)) return false;
  *out = std::move(r);
  return true;
}

bool OrasimRecordsFromDocument(const ResultsDocument& doc, std::vector<OrasimRecord>* out,
                               std::string* err) {
  return ReadDocumentRecords(doc, OrasimRecordFromJson, out, err);
}

std::vector<OrasimRow> AggregateOrasimRows(const std::vector<OrasimRecord>& records,
                                           const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  int runs = 0;
  for (const OrasimRecord& r : records) {
    runs = std::max(runs, r.run);
  }
  std::vector<OrasimRow> rows;
  for (const std::string& id : order) {
    OrasimRow row;
    row.identifier = id;
    for (int run = 1; run <= runs; ++run) {
      std::vector<double> scores;
      for (const OrasimRecord& r : records) {
        if (r.identifier != id || r.run != run) continue;
        if (row.label.empty()) row.label = r.label;
        scores.push_back(r.score_ops_s);
      }
      if (scores.empty()) continue;
      // A score is a rate of operations: its mean over repetitions is the harmonic one.
      row.scores.push_back(Summarize(scores, MeanKind::kHarmonic).mean);
      row.repetitions.push_back(static_cast<uint32_t>(scores.size()));
    }
    if (!row.scores.empty()) rows.push_back(std::move(row));
  }
  return rows;
}

json OrasimSummaryToJson(const std::vector<OrasimRow>& rows) {
  json summary = json::array();
  for (const OrasimRow& row : rows) {
    summary.push_back(json{{"identifier", row.identifier},
                           {"label", row.label},
                           {"scores_ops_s", row.scores},
                           {"repetitions", row.repetitions}});
  }
  return summary;
}

}  // namespace elevbench
