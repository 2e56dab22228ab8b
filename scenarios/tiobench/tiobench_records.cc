#include "scenarios/tiobench/tiobench_records.h"

#include <algorithm>

#include "harness/core/json_fields.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

json MetricsToJson(const TioRowMetrics& m) {
  return json{{"rate_mb_s", m.rate_mb_s},
              {"cpu_pct", m.cpu_pct},
              {"avg_latency_ms", m.avg_latency_ms},
              {"max_latency_ms", m.max_latency_ms},
              {"lat_pct_over_2s", m.lat_pct_over_2s},
              {"lat_pct_over_10s", m.lat_pct_over_10s},
              {"cpu_eff", m.cpu_eff}};
}

TioRowMetrics MetricsFromJson(const json& j) {
  TioRowMetrics m;
  m.rate_mb_s = j.at("rate_mb_s").get<double>();
  m.cpu_pct = j.at("cpu_pct").get<double>();
  m.avg_latency_ms = j.at("avg_latency_ms").get<double>();
  m.max_latency_ms = j.at("max_latency_ms").get<double>();
  m.lat_pct_over_2s = j.at("lat_pct_over_2s").get<double>();
  m.lat_pct_over_10s = j.at("lat_pct_over_10s").get<double>();
  m.cpu_eff = j.at("cpu_eff").get<double>();
  return m;
}

using MetricField = double TioRowMetrics::*;
constexpr MetricField kMetricFields[] = {
    &TioRowMetrics::rate_mb_s,       &TioRowMetrics::cpu_pct,
    &TioRowMetrics::avg_latency_ms,  &TioRowMetrics::max_latency_ms,
    &TioRowMetrics::lat_pct_over_2s, &TioRowMetrics::lat_pct_over_10s,
    &TioRowMetrics::cpu_eff};

}  // namespace

json TioRecordToJson(const TioRecord& r) {
  const TioPhaseMeasurement& m = r.measurement;
  json j{{"phase", TioPhaseKey(m.phase)},
         {"threads", m.threads},
         {"runs", m.runs},
         {"bytes", m.bytes},
         {"ios", m.ios},
         {"wall_seconds", m.wall_seconds},
         {"cpu_seconds", m.cpu_seconds},
         {"metrics", MetricsToJson(r.metrics)},
         {"latency_histogram", m.latency.ToJson()}};
  WriteRecordHeader(r, &j);
  return j;
}

bool TioRecordFromJson(const json& r, TioRecord* out, std::string* err) {
  try {
    TioRecord rec;
    if (!ReadRecordHeader(r, &rec, err)) return false;
    TioPhaseMeasurement& m = rec.measurement;
    const std::string phase = r.at("phase").get<std::string>();
    if (!TioPhaseFromKey(phase, &m.phase)) {
      *err = "unknown phase '" + phase + "'";
      return false;
    }
    // Integers through GetJsonField: a float such as 1e56 converted by get<> is undefined.
    if (!GetJsonField(r, "threads", &m.threads, err) || !GetJsonField(r, "runs", &m.runs, err) ||
        !GetJsonField(r, "bytes", &m.bytes, err) || !GetJsonField(r, "ios", &m.ios, err)) {
      return false;
    }
    m.wall_seconds = r.at("wall_seconds").get<double>();
    m.cpu_seconds = r.at("cpu_seconds").get<double>();
    if (!LatencyHistogram::FromJson(r.at("latency_histogram"), &m.latency, err)) {
      *err = "latency_histogram: " + *err;
      return false;
    }
    rec.metrics = MetricsFromJson(r.at("metrics"));
    *out = std::move(rec);
    return true;
  } catch (const json::exception& e) {
    *err = std::string("malformed tiobench record: ") + e.what();
    return false;
  }
}

bool TioRecordsFromDocument(const ResultsDocument& doc, std::vector<TioRecord>* out,
                            std::string* err) {
  return ReadDocumentRecords(doc, TioRecordFromJson, out, err);
}

json TiobenchParamsToJson(const TiobenchParams& p) {
  return json{{"directory", p.directory},   {"size_mb", p.size_mb},
              {"threads", p.threads},       {"block_bytes", p.block_bytes},
              {"random_ops", p.random_ops}, {"numruns", p.numruns},
              {"nofrag", p.nofrag}};
}

bool TiobenchParamsFromJson(const json& p, TiobenchParams* out, std::string* err) {
  try {
    TiobenchParams params;
    params.directory = p.at("directory").get<std::string>();
    // Integers through GetJsonField: get<> of a float such as 1e56 is undefined (issue #18).
    if (!GetJsonField(p, "size_mb", &params.size_mb, err) ||
        !GetJsonField(p, "block_bytes", &params.block_bytes, err) ||
        !GetJsonField(p, "random_ops", &params.random_ops, err) ||
        !GetJsonField(p, "numruns", &params.numruns, err)) {
      *err = "tiobench parameters: " + *err;
      return false;
    }
    const json& threads = p.at("threads");
    params.threads.clear();
    if (!threads.is_array()) {
      *err = "tiobench parameters: threads: expected an array";
      return false;
    }
    for (size_t i = 0; i < threads.size(); ++i) {
      uint32_t t = 0;
      if (!GetJsonField(json{{"t", threads[i]}}, "t", &t, err)) {
        *err = "tiobench parameters: threads[" + std::to_string(i) +
               "]: expected a non-negative "
               "integer";
        return false;
      }
      params.threads.push_back(t);
    }
    params.nofrag = p.value("nofrag", false);
    *out = std::move(params);
    return true;
  } catch (const json::exception& e) {
    *err = std::string("malformed tiobench parameters: ") + e.what();
    return false;
  }
}

std::vector<TioTableRow> AggregateTioRows(const std::vector<TioRecord>& records,
                                          const std::vector<std::string>& given_order) {
  const std::vector<std::string> order = ConfigurationOrder(given_order, records);
  std::vector<TioTableRow> rows;
  for (TioPhase phase : kTioReportOrder) {
    for (const std::string& id : order) {
      std::vector<uint32_t> threads;
      for (const TioRecord& r : records) {
        if (r.identifier == id && r.measurement.phase == phase &&
            std::find(threads.begin(), threads.end(), r.measurement.threads) == threads.end()) {
          threads.push_back(r.measurement.threads);
        }
      }
      std::sort(threads.begin(), threads.end());
      for (uint32_t t : threads) {
        TioTableRow row;
        row.identifier = id;
        row.threads = t;
        row.phase = phase;
        std::vector<const TioRecord*> reps;
        for (const TioRecord& r : records) {
          if (r.identifier == id && r.measurement.phase == phase && r.measurement.threads == t) {
            reps.push_back(&r);
            row.scheduler = r.scheduler;
          }
        }
        row.repetitions = static_cast<uint32_t>(reps.size());
        for (MetricField f : kMetricFields) {
          std::vector<double> values;
          for (const TioRecord* r : reps) values.push_back(r->metrics.*f);
          // Rates (Rate, CPU Eff) average harmonically, as mmtests does (docs/statistics.md).
          const bool rate = f == &TioRowMetrics::rate_mb_s || f == &TioRowMetrics::cpu_eff;
          const SampleSummary stats =
              Summarize(values, rate ? MeanKind::kHarmonic : MeanKind::kArithmetic);
          row.mean.*f = stats.mean;
          row.stddev.*f = stats.stddev;
        }
        rows.push_back(row);
      }
    }
  }
  return rows;
}

json TioSummaryToJson(const std::vector<TioTableRow>& rows) {
  json summary = json::array();
  for (const TioTableRow& row : rows) {
    summary.push_back(json{{"identifier", row.identifier},
                           {"scheduler", row.scheduler},
                           {"phase", TioPhaseKey(row.phase)},
                           {"threads", row.threads},
                           {"repetitions", row.repetitions},
                           {"mean", MetricsToJson(row.mean)},
                           // No spread from one value: null, never a 0 that reads as measured.
                           {"stddev", row.repetitions >= 2 ? MetricsToJson(row.stddev) : json()}});
  }
  return summary;
}

}  // namespace elevbench
