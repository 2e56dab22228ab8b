#include "scenarios/tiobench/tiobench_measurements.h"

#include <algorithm>

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
      {{"rate_mb_s", "MB/s", D::kHigherIsBetter, K::kHarmonic, true, "Rate"},
       &TioRowMetrics::rate_mb_s},
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
  // Sections in the tables' order (Sequential Reads first, as tiobench.pl printed them), so md,
  // html and the verdict list them as the text tables do; execution order within each.
  auto rank = [](TioPhase phase) {
    return std::find(kTioReportOrder.begin(), kTioReportOrder.end(), phase) -
           kTioReportOrder.begin();
  };
  std::stable_sort(records.begin(), records.end(), [&](const TioRecord& a, const TioRecord& b) {
    return rank(a.measurement.phase) < rank(b.measurement.phase);
  });
  for (const TioRecord& r : records) {
    RecordMeasurements add("tiobench", TioPhaseKey(r.measurement.phase), r, out);
    add.SetRow("threads=" + std::to_string(r.measurement.threads));
    for (const Column& c : kColumns) add(c.info, r.metrics.*(c.field));
  }
  return true;
}

bool TiobenchPlotSeries(const ResultsDocument& doc, PlotSeries* out, std::string* err) {
  std::vector<TioRecord> records;
  if (!TioRecordsFromDocument(doc, &records, err)) return false;
  LatencyGroupCollector collector;
  for (const TioRecord& r : records) {
    collector.Add(TioPhaseKey(r.measurement.phase),
                  "threads=" + std::to_string(r.measurement.threads), r.identifier,
                  r.measurement.latency);
  }
  out->latency_groups = collector.Take(IdentifierOrder(doc));
  return true;
}

}  // namespace elevbench
