// fio's own job options for a job's I/O priority and cgroup: for the jobs of one fio invocation
// that belong to different roles of `run --controls` (nickbench's readers and writers), where
// placing the fio process (ProcessPlacement) would place them all alike. docs/controls.md says
// what was measured of fio's `cgroup=` on cgroup v1 and v2.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/process/subprocess.h"

namespace elevbench {

/// The job options that put one fio job where `placement` says: `prioclass` and `prio` for its
/// I/O priority (fio calls ioprio_set for the job); `cgroup` (the cgroup's path under its
/// hierarchy's mount point, found in `mountinfo`, /proc/self/mountinfo's text) and
/// `cgroup_nodelete=1` (the run made the cgroup and removes it). fio puts a job in one
/// hierarchy, the first with blkio (v1) or cgroup2: a placement of more than one cgroup, or of
/// a cgroup fio would not find, is refused, as is one under no cgroup mount. A job moved into a
/// cgroup must be a process (fio's `thread` off) on cgroup v2, whose cgroup.procs moves a whole
/// process: the caller's business. Empty placement: no options.
[[nodiscard]] bool FioPlacementOptions(const ProcessPlacement& placement,
                                       std::string_view mountinfo,
                                       std::vector<std::pair<std::string, std::string>>* options,
                                       std::string* err);

}  // namespace elevbench
