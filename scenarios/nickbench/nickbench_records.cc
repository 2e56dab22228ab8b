#include "scenarios/nickbench/nickbench_records.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

// Beside the header's fields, "metric_name", "metric_unit" (written for readers only: they
// follow from the bench), "fairness" and "streams" in the same object.
constexpr JsonField<NickbenchRecord> kNickbenchFields[] = {
    {"bench", &NickbenchRecord::bench},
    {"elapsed_seconds", &NickbenchRecord::elapsed_seconds},
    {"io_rate_mb_s", &NickbenchRecord::io_rate_mb_s},
    {"metric", &NickbenchRecord::metric},
    {"cpu_seconds", &NickbenchRecord::cpu_seconds},
};

}  // namespace

std::string NickbenchTitle(int bench) {
  switch (bench) {
    case 2:
      return "Bench 2 - 2 threads, streaming reader and streaming writer";
    case 3:
      return "Bench 3 - 2 threads, streaming readers";
    case 4:
      return "Bench 4 - 2 threads, streaming writers";
    case 5:
      return "Bench 5 - 1 thread, read then write each block of 1 file";
    case 6:
      return "Bench 6 - 4 threads, streaming readers";
    default:
      return "";
  }
}

std::string NickbenchMetricName(int bench) {
  switch (bench) {
    case 2:
      return "Reads per write";
    case 3:
      return "Reads per read";
    case 4:
      return "Writes per write";
    case 5:
      return "CPU time per MiB";  // the seed's "CPU time per byte" was µs per MiB
    case 6:
      return "Greatest unfairness between 4 readers";
    default:
      return "";
  }
}

std::string NickbenchMetricUnit(int bench) {
  if (bench == 5) return "cpu_us_per_mib";
  return bench >= kFirstNickbench && bench <= kLastNickbench ? "ratio" : "";
}

json NickbenchRecordToJson(const NickbenchRecord& r) {
  json streams = json::array();
  for (const StreamResult& s : r.streams) streams.push_back(StreamResultToJson(s));
  json j{{"metric_name", NickbenchMetricName(r.bench)},
         {"metric_unit", NickbenchMetricUnit(r.bench)},
         {"fairness", FairnessToJson(r.fairness)},
         {"streams", std::move(streams)}};
  WriteJsonFields(kNickbenchFields, r, &j);
  WriteRecordHeader(r, &j);
  return j;
}

bool NickbenchRecordFromJson(const json& j, NickbenchRecord* out, std::string* err) {
  if (!j.is_object()) {
    *err = "expected a nickbench record object";
    return false;
  }
  NickbenchRecord r;
  if (!ReadRecordHeader(j, &r, err) || !ReadJsonFields(kNickbenchFields, j, &r, err)) {
    return false;
  }
  if (r.bench < kFirstNickbench || r.bench > kLastNickbench) {
    *err = "bench: " + std::to_string(r.bench) + " is not one of nickbench's Benches 2-6";
    return false;
  }
  // metric_name and metric_unit follow from the bench; they are written for readers only.
  const auto fairness = j.find("fairness");
  if (fairness == j.end()) {
    *err = "fairness: missing";
    return false;
  }
  if (!FairnessFromJson(*fairness, &r.fairness, err)) {
    *err = "fairness." + *err;
    return false;
  }
  if (!StreamResultsFromJson(j, "streams", &r.streams, err)) return false;
  *out = std::move(r);
  return true;
}

bool NickbenchRecordsFromDocument(const ResultsDocument& doc, std::vector<NickbenchRecord>* out,
                                  std::string* err) {
  return ReadDocumentRecords(doc, NickbenchRecordFromJson, out, err);
}

std::vector<NickbenchRow> AggregateNickbenchRows(const std::vector<NickbenchRecord>& records,
                                                 const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  std::vector<int> benches;
  for (const NickbenchRecord& r : records) {
    if (std::find(benches.begin(), benches.end(), r.bench) == benches.end()) {
      benches.push_back(r.bench);
    }
  }
  std::sort(benches.begin(), benches.end());
  std::vector<NickbenchRow> rows;
  for (int bench : benches) {
    for (const std::string& id : order) {
      NickbenchRow row;
      row.identifier = id;
      row.bench = bench;
      std::vector<double> rates;
      std::vector<double> metrics;
      for (const NickbenchRecord& r : records) {
        if (r.identifier != id || r.bench != bench) continue;
        if (row.label.empty()) row.label = r.label;
        rates.push_back(r.io_rate_mb_s);
        metrics.push_back(r.metric);
      }
      if (rates.empty()) continue;
      row.repetitions = static_cast<uint32_t>(rates.size());
      // The IO rate averages harmonically, as mmtests does (docs/statistics.md).
      const SampleSummary rate = Summarize(rates, MeanKind::kHarmonic);
      const SampleSummary metric = Summarize(metrics, MeanKind::kArithmetic);
      row.io_rate_mb_s = rate.mean;
      row.metric = metric.mean;
      row.io_rate_mb_s_stddev = rate.stddev;
      row.metric_stddev = metric.stddev;
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

json NickbenchSummaryToJson(const std::vector<NickbenchRow>& rows) {
  json summary = json::array();
  for (const NickbenchRow& row : rows) {
    summary.push_back(
        json{{"identifier", row.identifier},
             {"label", row.label},
             {"bench", row.bench},
             {"title", NickbenchTitle(row.bench)},
             {"metric_name", NickbenchMetricName(row.bench)},
             {"metric_unit", NickbenchMetricUnit(row.bench)},
             {"repetitions", row.repetitions},
             {"mean", json{{"io_rate_mb_s", row.io_rate_mb_s}, {"metric", row.metric}}},
             // No spread from one value: null, never a 0 that reads as measured.
             {"stddev", row.repetitions >= 2 ? json{{"io_rate_mb_s", row.io_rate_mb_s_stddev},
                                                    {"metric", row.metric_stddev}}
                                             : json()}});
  }
  return summary;
}

}  // namespace elevbench
