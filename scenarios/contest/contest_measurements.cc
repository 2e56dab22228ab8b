#include "scenarios/contest/contest_measurements.h"

#include <map>

#include "harness/core/strings.h"
#include "scenarios/contest/contest_loads.h"
#include "scenarios/contest/contest_records.h"

namespace elevbench {

bool ContestMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                         std::string* err) {
  std::vector<ContestRecord> records;
  if (!ContestRecordsFromDocument(doc, &records, err)) return false;
  // The finished no_load times per configuration, by repetition and on average.
  std::map<std::string, std::map<uint32_t, double>> base_by_rep;
  std::map<std::string, std::pair<double, int>> base_sum;
  for (const ContestRecord& r : records) {
    if (r.load != "no_load" || r.status != "ok" || r.compile.elapsed_seconds <= 0) continue;
    base_by_rep[r.identifier][r.repetition] = r.compile.elapsed_seconds;
    base_sum[r.identifier].first += r.compile.elapsed_seconds;
    base_sum[r.identifier].second += 1;
  }
  for (const ContestRecord& r : records) {
    RecordMeasurements add("contest", r.load, r, out, r.status);
    // A DNF's reason as the text layout's note words it (issue 45).
    if (r.status == "dnf") {
      add.SetReason("DNF (compile stopped after " + FormatDouble("%g s", r.timeout_seconds) + ")");
    }
    // Every number of a cell depends on the compile having run to its end.
    add({"time_seconds", "s", Direction::kLowerIsBetter, MeanKind::kArithmetic, true, "Time"},
        r.compile.elapsed_seconds);
    add({"cpu_percent", "%", Direction::kNeither, MeanKind::kArithmetic, false}, r.CpuPercent());
    if (r.load != "no_load") {
      double no_load = 0;
      const auto rep = base_by_rep.find(r.identifier);
      if (rep != base_by_rep.end() && rep->second.count(r.repetition) > 0) {
        no_load = rep->second.at(r.repetition);
      } else if (const auto sum = base_sum.find(r.identifier); sum != base_sum.end()) {
        no_load = sum->second.first / sum->second.second;
      }
      if (no_load > 0) {
        add({"ratio", "ratio", Direction::kLowerIsBetter, MeanKind::kArithmetic, false},
            r.compile.elapsed_seconds / no_load);
      }
    }
    const ContestLoadInfo* info = FindContestLoad(r.load);
    if (info != nullptr && info->kind != ContestLoadKind::kNone && !r.load_absent) {
      add({"loads", "loads", Direction::kHigherIsBetter, MeanKind::kArithmetic, false}, r.loads);
      add({"lcpu_percent", "%", Direction::kNeither, MeanKind::kArithmetic, false},
          r.LoadCpuPercent());
    }
    // A fio load's throughput at the device over its streams' window: what a control's
    // protection of the compile cost it (harness/stats/protection.h).
    double load_mb_s = 0;
    if (StreamsMbPerSecond(r.streams, &load_mb_s)) {
      MetricInfo load{"load_mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false};
      load.load_throughput = true;
      add(std::move(load), load_mb_s);
    }
  }
  return true;
}

}  // namespace elevbench
