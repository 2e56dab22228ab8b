#pragma once
// The cgroups that make this box a smaller machine for `--machine`: a memory cgroup limited to
// the spec's RAM with no swap, and a cpuset of the spec's CPU count. The run moves itself into
// them once the target is built (so the emulated disk's FUSE daemon, started before, stays
// outside: it is the disk, not the machine), every child inherits them, and it moves back out
// before the journal removes them.
//
// cgroup v2 is used where the unified hierarchy at /sys/fs/cgroup offers both the memory and the
// cpuset controller; otherwise the v1 `memory` and `cpuset` hierarchies. Every path is a system
// path mapped through a Sysfs, so tests run the same code on a fake tree (tests/fakes.h).

#include <sys/types.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "harness/machine/machine_spec.h"

namespace elevbench {

/// Where the cgroups go and where this process is now.
struct CgroupLayout {
  int version = 0;  ///< 1 or 2
  /// v1: the cgroup of this process in the memory and in the cpuset hierarchy, which the new
  /// cgroups are made under, so that limits the process already runs under (a container, a
  /// systemd slice) still bind and its accounting still sees the run. v2: the root cgroup for
  /// both, since a non-root v2 cgroup holding processes cannot give its children controllers.
  std::string memory_parent;
  std::string cpuset_parent;
  /// The cgroups this process is in now, to move back to ("/sys/fs/cgroup/memory/x").
  std::string memory_origin;
  std::string cpuset_origin;
};

/// Finds the layout from the tree under sysfs ("/sys/fs/cgroup/…") and the text of
/// /proc/self/cgroup. False with one line in err when neither a v2 hierarchy with memory and
/// cpuset (enabled in the root's cgroup.subtree_control) nor both v1 hierarchies are there.
[[nodiscard]] bool DetectCgroupLayout(const Sysfs& sysfs, std::string_view proc_self_cgroup,
                                      CgroupLayout* layout, std::string* err);

/// The CPUs of a cpuset list ("0-3,8,10-11") in order. False on bad syntax.
[[nodiscard]] bool ParseCpuList(std::string_view list, std::vector<int>* cpus);

/// The `count` highest-numbered CPUs of `allowed` as a cpuset list ("1", "2,3"): CPU 0 is left
/// to the kernel's housekeeping (the boot CPU, the default target of unbound interrupts and
/// timers) and the processes outside the machine, e.g. the emulated disk's daemon. False when
/// `allowed` has fewer CPUs.
[[nodiscard]] bool ChooseCpus(std::string_view allowed, int count, std::string* chosen,
                              std::string* err);

/// Makes a cgroup directory; the kernel fills it with control files. A fake tree's test passes
/// one that does the kernel's part.
using MakeCgroupDirectory = std::function<bool(const std::string& mapped_path, std::string* err)>;

/// mkdir(2) of a cgroup directory: MakeCgroupDirectory's default.
[[nodiscard]] bool MakeCgroupDirectoryPlainly(const std::string& mapped_path, std::string* err);

/// Journals the cgroup `path` (a system path whose last part starts with "elevbench-") and then
/// makes it, so that the journal removes it on every exit path and `restore` after a kill. The
/// one way the run makes a cgroup: --machine's, the lanes' and the controls' roles'.
[[nodiscard]] bool MakeJournaledCgroup(const Sysfs& sysfs, const MakeCgroupDirectory& make,
                                       const std::string& path, RestoreJournal* journal,
                                       std::string* err);

/// The cgroups of one run. Not copyable. The destructor moves the process back out if it is
/// still inside; the journal removes the directories.
class MachineCgroups {
 public:
  /// Makes a cgroup directory (MakeCgroupDirectory).
  using MakeDirectory = MakeCgroupDirectory;

  /// `sysfs` maps /sys/fs/cgroup (and does the writes); `make_directory` defaults to mkdir(2).
  explicit MachineCgroups(Sysfs sysfs = Sysfs(), MakeDirectory make_directory = nullptr);
  ~MachineCgroups();
  MachineCgroups(const MachineCgroups&) = delete;
  MachineCgroups& operator=(const MachineCgroups&) = delete;

  /// Makes the cgroups named `name` (it must start with "elevbench-") under `layout` and sets the
  /// limits of `spec`: v1 memory.limit_in_bytes (then memory.memsw.limit_in_bytes, where swap is
  /// accounted, to the same value: no swap), cpuset.cpus and cpuset.mems; v2 memory.max,
  /// memory.swap.max 0 (where present) and cpuset.cpus. Each directory is journaled before it
  /// is made. Parts the spec leaves out get no cgroup. False with one line in err; what was made
  /// is journaled and goes with the journal.
  [[nodiscard]] bool Create(const MachineSpec& spec, const CgroupLayout& layout,
                            const std::string& name, RestoreJournal* journal, std::string* err);

  /// Moves process `pid` (all its threads) into every cgroup made. For the run: its own pid,
  /// after the target is built, so that every child from then on starts inside.
  [[nodiscard]] bool Enter(pid_t pid, std::string* err);

  /// Moves the process Enter() moved back to the cgroups it came from (their hierarchy's root if
  /// one has gone). Idempotent.
  [[nodiscard]] bool Leave(std::string* err);

  /// The directories made, as system paths, in creation order.
  const std::vector<std::string>& paths() const { return paths_; }
  /// The CPUs of the cpuset ("1"), empty without one.
  const std::string& cpuset_cpus() const { return cpuset_cpus_; }
  /// The results context's block: profile, memory_bytes, cpus, cgroup version, paths, CPUs.
  nlohmann::json Describe(const MachineSpec& spec) const;

 private:
  bool MakeCgroup(const std::string& path, RestoreJournal* journal, std::string* err);
  bool SetMemory(const std::string& dir, uint64_t bytes, std::string* err);
  bool SetCpuset(const std::string& dir, const std::string& parent, int cpus,
                 const std::string& cpu_list, std::string* err);

  Sysfs sysfs_;
  MakeDirectory make_directory_;
  CgroupLayout layout_;
  std::vector<std::string> paths_;
  std::string memory_path_;  ///< the memory cgroup (v2: the one cgroup), empty without one
  std::string cpuset_path_;  ///< the cpuset cgroup (v2: same as memory_path_ when both)
  std::string cpuset_cpus_;
  pid_t entered_ = 0;  ///< the pid Enter() moved, 0 when none is inside
};

}  // namespace elevbench
