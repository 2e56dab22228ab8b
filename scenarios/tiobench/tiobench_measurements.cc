#include "scenarios/tiobench/tiobench_measurements.h"

#include "scenarios/tiobench/tiobench_records.h"

namespace elevbench {

bool TiobenchMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                          std::string* err) {
  std::vector<TioRecord> records;
  if (!TioRecordsFromDocument(doc, &records, err)) return false;
  using D = Direction;
  using K = MeanKind;
  // The table's columns, in the order tiobench.pl prints them.
  struct Column {
    MetricInfo info;
    double TioRowMetrics::*field;
  };
  static const Column kColumns[] = {
      {{"rate_mb_s", "MB/s", D::kHigherIsBetter, K::kHarmonic, true}, &TioRowMetrics::rate_mb_s},
      {{"cpu_pct", "%", D::kLowerIsBetter, K::kArithmetic, false}, &TioRowMetrics::cpu_pct},
      {{"avg_latency_ms", "ms", D::kLowerIsBetter, K::kArithmetic, false},
       &TioRowMetrics::avg_latency_ms},
      {{"max_latency_ms", "ms", D::kLowerIsBetter, K::kArithmetic, false},
       &TioRowMetrics::max_latency_ms},
      {{"lat_pct_over_2s", "%", D::kLowerIsBetter, K::kArithmetic, false},
       &TioRowMetrics::lat_pct_over_2s},
      {{"lat_pct_over_10s", "%", D::kLowerIsBetter, K::kArithmetic, false},
       &TioRowMetrics::lat_pct_over_10s},
      {{"cpu_eff", "MB/s per CPU", D::kHigherIsBetter, K::kHarmonic, false},
       &TioRowMetrics::cpu_eff},
  };
  // The label of each identifier, from the records' JSON (TioRecord does not keep it).
  std::vector<std::string> labels(doc.records.size());
  for (size_t i = 0; i < doc.records.size(); ++i) {
    const auto it = doc.records[i].find("label");
    if (it != doc.records[i].end() && it->is_string()) labels[i] = it->get<std::string>();
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const TioRecord& r = records[i];
    for (const Column& c : kColumns) {
      Measurement m;
      m.suite = "tiobench";
      m.section = TioPhaseKey(r.measurement.phase);
      m.row = "threads=" + std::to_string(r.measurement.threads);
      m.identifier = r.identifier;
      m.label = i < labels.size() ? labels[i] : "";
      m.scheduler = r.scheduler;
      m.repetition = r.repetition;
      m.metric = c.info;
      m.value = r.metrics.*(c.field);
      out->push_back(std::move(m));
    }
  }
  return true;
}

}  // namespace elevbench
