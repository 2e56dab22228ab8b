#include "scenarios/fiojobs/fiojobs_aggregate.h"

#include <algorithm>

#include "harness/stats/statistics.h"

namespace elevbench {
namespace {

const JobDirectionResult& FioJobsDirectionOf(const JobResult& job, int direction) {
  return direction == 0 ? job.read : direction == 1 ? job.write : job.trim;
}

// The rows of one configuration's repetitions of the same jobs: per job (in first appearance)
// and direction that moved bytes, MB/s and IOPS as harmonic means, histograms merged.
std::vector<FioJobsRow> FioJobsRowsOf(const std::string& configuration,
                                      const std::vector<std::vector<JobResult>>& repetitions) {
  std::vector<std::string> names;
  for (const auto& jobs : repetitions) {
    for (const JobResult& j : jobs) {
      if (std::find(names.begin(), names.end(), j.name) == names.end()) names.push_back(j.name);
    }
  }
  static const char* kDirections[] = {"read", "write", "trim"};
  std::vector<FioJobsRow> rows;
  for (const std::string& name : names) {
    for (int d = 0; d < 3; ++d) {
      FioJobsRow row;
      row.job = name;
      row.configuration = configuration;
      row.direction = kDirections[d];
      std::vector<double> rates, iops;
      for (const auto& jobs : repetitions) {
        for (const JobResult& j : jobs) {
          const JobDirectionResult& dir = FioJobsDirectionOf(j, d);
          if (j.name != name || dir.bytes == 0) continue;
          rates.push_back(dir.MegabytesPerSecond());
          iops.push_back(dir.Iops());
          row.clat.Merge(dir.clat);
        }
      }
      if (rates.empty()) continue;
      row.mb_s = HarmonicMean(rates);
      row.iops = HarmonicMean(iops);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace

std::vector<FioJobsTable> AggregateFioJobsTables(const std::vector<FioJobsRecord>& records,
                                                 const std::vector<std::string>& order) {
  std::vector<FioJobsTable> tables;
  for (const FioJobsRecord& r : records) {
    const bool seen = std::any_of(tables.begin(), tables.end(),
                                  [&](const FioJobsTable& t) { return t.job_file == r.job_file; });
    if (!seen) tables.push_back({r.job_file, {}});
  }
  for (FioJobsTable& table : tables) {
    for (const std::string& id : order) {
      std::vector<std::vector<JobResult>> repetitions;
      for (const FioJobsRecord& r : records) {
        if (r.job_file == table.job_file && r.identifier == id) repetitions.push_back(r.jobs);
      }
      if (repetitions.empty()) continue;
      for (FioJobsRow& row : FioJobsRowsOf(id, repetitions)) table.rows.push_back(std::move(row));
    }
    std::stable_sort(table.rows.begin(), table.rows.end(),
                     [](const FioJobsRow& a, const FioJobsRow& b) { return a.job < b.job; });
  }
  return tables;
}

}  // namespace elevbench
