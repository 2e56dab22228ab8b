#include "scenarios/orasim/orasim_records.h"

#include <algorithm>

#include "harness/core/json_fields.h"
#include "harness/stats/statistics.h"

namespace elevbench {

using nlohmann::json;

json OrasimRecordToJson(const OrasimRecord& r) {
  json streams = json::array();
  for (const StreamResult& s : r.streams) streams.push_back(StreamResultToJson(s));
  json j{{"run", r.run},
         {"elapsed_seconds", r.elapsed_seconds},
         {"read_ops", r.read_ops},
         {"write_ops", r.write_ops},
         {"log_ops", r.log_ops},
         {"score_ops_s", r.score_ops_s},
         {"cpu_seconds", r.cpu_seconds},
         {"streams", std::move(streams)}};
  WriteRecordHeader(r, &j);
  return j;
}

bool OrasimRecordFromJson(const json& j, OrasimRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected an orasim record object";
    return false;
  }
  OrasimRecord r;
  if (!ReadRecordHeader(j, &r, err) || !GetJsonField(j, "run", &r.run, err) ||
      !GetJsonField(j, "elapsed_seconds", &r.elapsed_seconds, err) ||
      !GetJsonField(j, "read_ops", &r.read_ops, err) ||
      !GetJsonField(j, "write_ops", &r.write_ops, err) ||
      !GetJsonField(j, "log_ops", &r.log_ops, err) ||
      !GetJsonField(j, "score_ops_s", &r.score_ops_s, err) ||
      !GetJsonField(j, "cpu_seconds", &r.cpu_seconds, err)) {
    return false;
  }
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
