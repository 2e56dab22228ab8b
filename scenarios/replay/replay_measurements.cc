#include "scenarios/replay/replay_measurements.h"

#include "scenarios/replay/replay_records.h"

namespace elevbench {
namespace {

double Ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

// p50, p99 (headline when `headline`), p99.9 of one direction.
void AddPercentiles(const RecordMeasurements& add, const std::string& prefix,
                    const LatencyHistogram& h, bool headline) {
  if (h.count() == 0) return;
  add({prefix + "_p50_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
      Ms(h.ValueAtPercentile(50)));
  add({prefix + "_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, headline,
       (prefix == "read" ? "Read" : "Write") + std::string(" p99 latency")},
      Ms(h.ValueAtPercentile(99)));
  add({prefix + "_p99_9_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
      Ms(h.ValueAtPercentile(99.9)));
}

}  // namespace

bool ReplayMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                        std::string* err) {
  std::vector<ReplayRecord> records;
  if (!ReplayRecordsFromDocument(doc, &records, err)) return false;
  for (const ReplayRecord& r : records) {
    RecordMeasurements add("replay", "replay", r, out);
    AddPercentiles(add, "read", r.ReadLatency(), true);
    AddPercentiles(add, "write", r.WriteLatency(), true);
    add({"replay_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true,
         "Replay time"},
        r.replay_seconds);
    add({"mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false},
        r.MegabytesPerSecond());
    if (r.lag_measured) {
      add({"lag_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
          r.lag_p99_ms);
    }
    for (const ReplayProcess& p : r.processes) {
      RecordMeasurements per("replay", "process", r, out);
      per.SetRow(p.job.name.empty() ? "p" + std::to_string(p.pid) : p.job.name);
      if (p.job.read.clat.count() > 0) {
        per({"read_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            Ms(p.job.read.clat.ValueAtPercentile(99)));
      }
      if (p.job.write.clat.count() > 0) {
        per({"write_p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            Ms(p.job.write.clat.ValueAtPercentile(99)));
      }
      if (p.replay_span_seconds >= 0) {
        per({"span_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            p.replay_span_seconds);
      }
    }
  }
  return true;
}

}  // namespace elevbench
