#include "scenarios/visave/visave_measurements.h"

#include <algorithm>

#include "scenarios/visave/visave_records.h"

namespace elevbench {

bool VisaveMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                        std::string* err) {
  std::vector<VisaveRecord> records;
  if (!VisaveRecordsFromDocument(doc, &records, err)) return false;
  for (const VisaveRecord& r : records) {
    const RecordMeasurements add("visave", "vi-save", r, out);
    if (!r.saves.empty()) {
      double sum = 0, max = 0;
      for (const VisaveSave& s : r.saves) {
        sum += s.timing.wall_seconds;
        max = std::max(max, s.timing.wall_seconds);
      }
      add({"mean_save_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true,
           "Mean save time"},
          sum / static_cast<double>(r.saves.size()));
      add({"max_save_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false}, max);
      add({"median_save_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
          static_cast<double>(r.histogram.ValueAtPercentile(50)) / 1e9);
    }
    uint64_t bytes = 0;
    double seconds = 0;
    for (const StreamResult& s : r.load) {
      bytes += s.bytes();
      seconds = std::max(seconds, s.runtime_seconds);
    }
    if (seconds > 0) {
      // The writer is buffered: its rate is the page cache's (5240 MB/s on a slow disk); the
      // load whose cost the protection report weighs (`run visave --controls`).
      add({"load_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false, "", true,
           true},
          static_cast<double>(bytes) / (1 << 20) / seconds);
    }
  }
  return true;
}

}  // namespace elevbench
