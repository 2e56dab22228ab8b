#include "reporters/job_table.h"

#include <cstdio>

#include "reporters/environment_text.h"

namespace elevbench {

std::string RenderJobTable(const std::vector<FioJobsRow>& rows, const DiskRates& disk) {
  std::string out;
  char line[256];
  std::snprintf(line, sizeof line, "%-20s %-24s %-5s %9s %10s %8s %8s %8s\n", "Job",
                "Configuration", "Dir", "MB/s", "IOPS", "p50 ms", "p99 ms", "p99.9 ms");
  out += line;
  for (const FioJobsRow& r : rows) {
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

}  // namespace elevbench
