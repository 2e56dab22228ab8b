#include "scenarios/tiobench/tiobench_records.h"

#include <algorithm>
#include <variant>

#include "harness/core/json_field_table.h"
#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

using nlohmann::json;

constexpr JsonField<TioRowMetrics> kTioMetricsFields[] = {
    {"rate_mb_s", &TioRowMetrics::rate_mb_s},
    {"cpu_pct", &TioRowMetrics::cpu_pct},
    {"avg_latency_ms", &TioRowMetrics::avg_latency_ms},
    {"max_latency_ms", &TioRowMetrics::max_latency_ms},
    {"lat_pct_over_2s", &TioRowMetrics::lat_pct_over_2s},
    {"lat_pct_over_10s", &TioRowMetrics::lat_pct_over_10s},
    {"cpu_eff", &TioRowMetrics::cpu_eff},
};

// A record's measurement, beside "phase" and "latency_histogram" of the same object.
constexpr JsonField<TioPhaseMeasurement> kTioMeasurementFields[] = {
    {"threads", &TioPhaseMeasurement::threads},
    {"runs", &TioPhaseMeasurement::runs},
    {"bytes", &TioPhaseMeasurement::bytes},
    {"ios", &TioPhaseMeasurement::ios},
    {"wall_seconds", &TioPhaseMeasurement::wall_seconds},
    {"cpu_seconds", &TioPhaseMeasurement::cpu_seconds},
};

// The parameters before "threads" (an array) and after it (the reader's order of errors).
constexpr JsonField<TiobenchParams> kTiobenchParamsFields[] = {
    {"directory", &TiobenchParams::directory},     {"size_mb", &TiobenchParams::size_mb},
    {"block_bytes", &TiobenchParams::block_bytes}, {"random_ops", &TiobenchParams::random_ops},
    {"numruns", &TiobenchParams::numruns},
};
constexpr JsonField<TiobenchParams> kTiobenchOptionFields[] = {
    {"nofrag", &TiobenchParams::nofrag, FieldPresence::kOptional},  // absent: false
};

json MetricsToJson(const TioRowMetrics& m) {
  json j;
  WriteJsonFields(kTioMetricsFields, m, &j);
  return j;
}

}  // namespace

json TioRecordToJson(const TioRecord& r) {
  const TioPhaseMeasurement& m = r.measurement;
  json j{{"phase", TioPhaseKey(m.phase)},
         {"metrics", MetricsToJson(r.metrics)},
         {"latency_histogram", m.latency.ToJson()}};
  WriteJsonFields(kTioMeasurementFields, m, &j);
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
    // Through GetJsonField's rules: a float such as 1e56 converted by get<> is undefined.
    if (!ReadJsonFields(kTioMeasurementFields, r, &m, err)) return false;
    if (!LatencyHistogram::FromJson(r.at("latency_histogram"), &m.latency, err)) {
      *err = "latency_histogram: " + *err;
      return false;
    }
    const json& metrics = r.at("metrics");
    if (!metrics.is_object()) {
      *err = "metrics: expected an object";
      return false;
    }
    if (!ReadJsonFields(kTioMetricsFields, metrics, &rec.metrics, err)) {
      *err = "metrics." + *err;
      return false;
    }
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
  json j{{"threads", p.threads}};
  WriteJsonFields(kTiobenchParamsFields, p, &j);
  WriteJsonFields(kTiobenchOptionFields, p, &j);
  return j;
}

bool TiobenchParamsFromJson(const json& p, TiobenchParams* out, std::string* err) {
  try {
    TiobenchParams params;
    // Through GetJsonField's rules: get<> of a float such as 1e56 is undefined (issue #18).
    if (!ReadJsonFields(kTiobenchParamsFields, p, &params, err)) {
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
    if (!ReadJsonFields(kTiobenchOptionFields, p, &params, err)) {
      *err = "tiobench parameters: " + *err;
      return false;
    }
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
        for (const JsonField<TioRowMetrics>& field : kTioMetricsFields) {
          const auto f = std::get<double TioRowMetrics::*>(field.pointer);
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
