#include "harness/fio/fio_placement.h"

#include "harness/core/error.h"
#include "harness/process/self_placement.h"

namespace elevbench {

bool FioPlacementOptions(const ProcessPlacement& placement, std::string_view mountinfo,
                         std::vector<std::pair<std::string, std::string>>* options,
                         std::string* err) {
  if (placement.ioprio >= 0) {
    options->emplace_back("prioclass", std::to_string(placement.ioprio >> 13));
    options->emplace_back("prio", std::to_string(placement.ioprio & 7));
  }
  if (placement.cgroup_procs.empty()) return true;
  if (placement.cgroup_procs.size() > 1) {
    return Fail(err, "fio puts a job in one cgroup hierarchy; this placement has " +
                         std::to_string(placement.cgroup_procs.size()));
  }
  const std::string& procs = placement.cgroup_procs.front();
  const std::string cgroup = CgroupUnderItsMount(procs, mountinfo);
  if (cgroup.empty()) return Fail(err, procs + " is under no cgroup mount: fio cannot join it");
  options->emplace_back("cgroup", cgroup);
  options->emplace_back("cgroup_nodelete", "1");
  return true;
}

}  // namespace elevbench
