// Puts the calling process's own I/O in a role for a while: its I/O priority (the calling
// thread's) and its cgroups, given back when the scope ends. For a probe the harness does itself
// rather than by a child (visave's save: open, write, fsync, rename), so that `run --controls`
// places it as ProcessPlacement places a child (docs/controls.md).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "harness/process/subprocess.h"

namespace elevbench {

/// The cgroup.procs file of the cgroup this process is in, in the hierarchy that holds
/// `procs_path` (the cgroup.procs file of another cgroup): the cgroup mount of `mountinfo`
/// (/proc/self/mountinfo's text) whose mount point is the longest prefix of the path, and the
/// line of `proc_self_cgroup` (/proc/self/cgroup's text) for that hierarchy ("0::" for cgroup2,
/// the line naming one of a v1 mount's controllers). Empty when no mount or line matches.
std::string CurrentProcsFileFor(std::string_view procs_path, std::string_view mountinfo,
                                std::string_view proc_self_cgroup);

/// The cgroup whose cgroup.procs file is `procs_path`, as a path under the mount point of the
/// cgroup mount of `mountinfo` that holds it, without a leading '/' ("elevbench-ab-probe"): what
/// fio's `cgroup=` option takes, fio prefixing its hierarchy's mount point. Empty when the path
/// is under no cgroup mount or names no cgroup.procs file below the mount point.
std::string CgroupUnderItsMount(std::string_view procs_path, std::string_view mountinfo);

/// While it lives, this process is in the placement's cgroups (the whole process: cgroup.procs
/// moves every thread; the harness's other threads only read sysfs) and the calling thread has
/// its I/O priority; the destructor, or Undo, moves it back to the cgroups it was in and gives
/// the thread its priority back, so that the cgroups can be removed at the end of the run. A
/// process killed while placed leaves its cgroups empty: `restore` removes them as usual.
class ScopedSelfPlacement {
 public:
  ScopedSelfPlacement() = default;
  ScopedSelfPlacement(const ScopedSelfPlacement&) = delete;
  ScopedSelfPlacement& operator=(const ScopedSelfPlacement&) = delete;
  ~ScopedSelfPlacement();

  /// Applies `placement` (nothing for an empty one). On a failure, what was applied is undone
  /// and err says which file or call failed.
  [[nodiscard]] bool Apply(const ProcessPlacement& placement, std::string* err);

  /// Gives back what Apply changed; false (err naming the first failure) when a move back or
  /// the priority failed, the rest still tried. Idempotent.
  [[nodiscard]] bool Undo(std::string* err);

 private:
  int previous_ioprio_ = -1;               ///< the thread's, when Apply set one
  std::vector<std::string> return_procs_;  ///< cgroup.procs files to move back to, in order
};

}  // namespace elevbench
