#include "scenarios/probes/probe_measurements.h"

#include "scenarios/probes/probe_records.h"

namespace elevbench {

bool ProbeMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                       std::string* err) {
  std::vector<ProbeRecord> records;
  if (!ProbeRecordsFromDocument(doc, &records, err)) return false;
  for (const ProbeRecord& r : records) {
    RecordMeasurements record("probes", r.probe, r, out, r.status);
    record.SetReason(ProbeDnfReason(r));
    auto add = [&](MetricInfo info, double value, bool needs_finish) {
      record(std::move(info), value, needs_finish ? r.status : std::string("ok"));
    };
    // The probe's times mean nothing for a DNF (cut at the timeout) or a failure.
    add({"elapsed_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true,
         "Elapsed time"},
        r.elapsed_seconds, true);
    add({"user_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.user_seconds, true);
    add({"system_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.system_seconds, true);
    // The load kept running either way: its throughput over its own window is measured.
    double load_mb_s = 0;
    if (StreamsMbPerSecond(r.load, &load_mb_s)) {
      MetricInfo load{"load_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false};
      load.load_throughput = true;
      add(std::move(load), load_mb_s, false);
    }
  }
  return true;
}

bool ProbePlotSeries(const ResultsDocument& doc, PlotSeries* out, std::string* err) {
  std::vector<ProbeRecord> records;
  if (!ProbeRecordsFromDocument(doc, &records, err)) return false;
  LatencyGroupCollector collector;
  std::vector<StreamRun> runs;
  for (const ProbeRecord& r : records) {
    for (const StreamResult& s : r.load) {
      collector.Add(r.probe, "load " + s.direction + " streams", r.identifier, s.latency);
    }
    if (HasThroughputSeries(r.load)) runs.push_back({r.probe, r.identifier, r.repetition, r.load});
  }
  out->latency_groups = collector.Take(IdentifierOrder(doc));
  out->stream_runs = FirstRunOfEachConfiguration(std::move(runs), IdentifierOrder(doc));
  return true;
}

}  // namespace elevbench
