#include "scenarios/orasim/orasim_measurements.h"

#include "scenarios/orasim/orasim_records.h"

namespace elevbench {

bool OrasimMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                        std::string* err) {
  std::vector<OrasimRecord> records;
  if (!OrasimRecordsFromDocument(doc, &records, err)) return false;
  for (const OrasimRecord& r : records) {
    RecordMeasurements add("orasim", "oltp", r, out);
    add.SetRow("run=" + std::to_string(r.run));
    const double secs = r.elapsed_seconds;
    auto per_second = [&](uint64_t ops) { return secs > 0 ? static_cast<double>(ops) / secs : 0; };
    add({"score_ops_s", "ops/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true, "Score"},
        r.score_ops_s);
    add({"read_ops_s", "ops/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false},
        per_second(r.read_ops));
    add({"write_ops_s", "ops/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false},
        per_second(r.write_ops));
    add({"log_ops_s", "ops/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false},
        per_second(r.log_ops));
    add({"cpu_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
        r.cpu_seconds);
  }
  return true;
}

}  // namespace elevbench
