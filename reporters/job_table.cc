#include "reporters/job_table.h"

#include <algorithm>
#include <cstdio>

#include "harness/stats/statistics.h"
#include "reporters/environment_text.h"

namespace elevbench {
namespace {

const JobDirectionResult& DirectionOf(const JobResult& job, int direction) {
  return direction == 0 ? job.read : direction == 1 ? job.write : job.trim;
}

}  // namespace

std::string RenderJobTable(const std::vector<JobTableRow>& rows, const DiskRates& disk) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %-24s %-5s %9s %10s %8s %8s %8s\n", "Job",
                "Configuration", "Dir", "MB/s", "IOPS", "p50 ms", "p99 ms", "p99.9 ms");
  out += line;
  for (const JobTableRow& r : rows) {
    std::snprintf(line, sizeof line, "%-20s %-24s %-5s %9.2f %10.1f %8.3f %8.3f %8.3f\n",
                  r.job.c_str(), r.configuration.c_str(), r.direction.c_str(), r.mb_s, r.iops,
                  static_cast<double>(r.clat.ValueAtPercentile(50)) / 1e6,
                  static_cast<double>(r.clat.ValueAtPercentile(99)) / 1e6,
                  static_cast<double>(r.clat.ValueAtPercentile(99.9)) / 1e6);
    out += line;
    const double media = r.direction == "read"    ? disk.read_mb_s
                         : r.direction == "write" ? disk.write_mb_s
                                                  : 0;
    const std::string mark = PageCacheMark(r.mb_s, media);
    if (!mark.empty()) out.insert(out.size() - 1, mark);
  }
  return out;
}

std::vector<JobTableRow> JobTableRows(const std::string& configuration,
                                      const std::vector<std::vector<JobResult>>& repetitions) {
  std::vector<std::string> names;
  for (const auto& jobs : repetitions) {
    for (const JobResult& j : jobs) {
      if (std::find(names.begin(), names.end(), j.name) == names.end()) names.push_back(j.name);
    }
  }
  static const char* kDirections[] = {"read", "write", "trim"};
  std::vector<JobTableRow> rows;
  for (const std::string& name : names) {
    for (int d = 0; d < 3; ++d) {
      JobTableRow row;
      row.job = name;
      row.configuration = configuration;
      row.direction = kDirections[d];
      std::vector<double> rates, iops;
      for (const auto& jobs : repetitions) {
        for (const JobResult& j : jobs) {
          const JobDirectionResult& dir = DirectionOf(j, d);
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

}  // namespace elevbench
