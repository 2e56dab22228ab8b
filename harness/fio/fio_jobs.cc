#include "harness/fio/fio_jobs.h"

#include <algorithm>

namespace elevbench {
namespace {

void AddDirection(const FioDirectionResult& from, JobDirectionResult* to) {
  to->bytes += from.io_bytes;
  to->ios += from.total_ios;
  to->runtime_seconds =
      std::max(to->runtime_seconds, static_cast<double>(from.runtime_ms) / 1000.0);
  to->clat.Merge(from.clat);
}

}  // namespace

std::vector<JobResult> JobResultsFromFio(const FioRunResult& run) {
  std::vector<JobResult> jobs;
  for (const FioJobResult& entry : run.jobs) {
    auto it = std::find_if(jobs.begin(), jobs.end(),
                           [&](const JobResult& j) { return j.name == entry.name; });
    if (it == jobs.end()) {
      jobs.push_back({});
      it = jobs.end() - 1;
      it->name = entry.name;
      it->group = entry.group;
    }
    ++it->clones;
    AddDirection(entry.read, &it->read);
    AddDirection(entry.write, &it->write);
    AddDirection(entry.trim, &it->trim);
    it->sync_ios += entry.sync_ios;
    it->cpu_seconds += entry.cpu_seconds();
  }
  return jobs;
}

}  // namespace elevbench
