#include "scenarios/fiojobs/fiojobs_measurements.h"

#include "scenarios/fiojobs/fiojobs_records.h"

namespace elevbench {

bool FioJobsMeasurements(const ResultsDocument& doc, std::vector<Measurement>* out,
                         std::string* err) {
  std::vector<FioJobsRecord> records;
  if (!FioJobsRecordsFromDocument(doc, &records, err)) return false;
  for (const FioJobsRecord& r : records) {
    for (const JobResult& job : r.jobs) {
      const std::pair<const char*, const JobDirectionResult*> directions[] = {
          {"read", &job.read}, {"write", &job.write}, {"trim", &job.trim}};
      for (const auto& direction : directions) {
        const char* name = direction.first;
        const JobDirectionResult* d = direction.second;
        if (d->bytes == 0) continue;
        RecordMeasurements add("fio", r.job_file, r, out);
        add.SetRow(job.name + " " + name);
        auto ms = [&](double p) { return static_cast<double>(d->clat.ValueAtPercentile(p)) / 1e6; };
        add({"mb_s", "MB/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, true, "Bandwidth"},
            d->MegabytesPerSecond());
        add({"iops", "IO/s", Direction::kHigherIsBetter, MeanKind::kHarmonic, false}, d->Iops());
        add({"p50_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false}, ms(50));
        add({"p99_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, true, "p99 latency"},
            ms(99));
        add({"p99_9_ms", "ms", Direction::kLowerIsBetter, MeanKind::kArithmetic, false}, ms(99.9));
      }
    }
  }
  return true;
}

}  // namespace elevbench
