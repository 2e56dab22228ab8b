#pragma once
// The roles' cgroups of `run --controls` (docs/controls.md): for each control that needs one
// (throttle, weight, iocost, iolatency), a cgroup for the load and one for the probe, made under
// the I/O controller's hierarchy (v1 blkio, or v2 where the unified hierarchy has io), with the
// control's limit, weight or latency target on the target's disk. Made once before the first cell,
// journaled before each is made (MakeJournaledCgroup, as --machine's), removed with the journal at
// the end of the run and by `elevbench restore` after a kill. The values written live inside these
// cgroups, so removing them is their restore. Paths are system paths mapped through a Sysfs, so
// tests run on a fake tree (tests/fakes.h).

#include <string>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"
#include "harness/machine/io_controls.h"
#include "harness/machine/machine_cgroups.h"
#include "harness/process/subprocess.h"

namespace elevbench {

/// Where one control puts its two roles.
struct RolePlacements {
  ProcessPlacement load;
  ProcessPlacement probe;
};

/// The placements of `control` without cgroups: its roles' I/O priorities only.
RolePlacements IoprioPlacements(const IoControl& control);

/// Makes the roles' cgroups of the runs' controls.
class RoleCgroups {
 public:
  /// `sysfs` maps /sys/fs/cgroup and does the writes; `make` defaults to mkdir(2).
  explicit RoleCgroups(Sysfs sysfs = Sysfs(), MakeCgroupDirectory make = nullptr);

  /// The placements of `control` (IoprioPlacements, and for a throttle the cgroups
  /// `<layout.parent>/<name>-load` and `-probe`, one per role, the limit on those given one;
  /// `name` starts with
  /// "elevbench-") with the limits on disk `device` ("7:3"): v1 blkio.throttle.read_bps_device
  /// and write_bps_device ("7:3 10485760"), v2 io.max ("7:3 rbps=10485760 wbps=10485760").
  /// False with one line in err; what was made is journaled and goes with the journal.
  [[nodiscard]] bool Create(const IoControl& control, const IoCgroupLayout& layout,
                            const std::string& name, const std::string& device,
                            RestoreJournal* journal, RolePlacements* placements, std::string* err);

  /// Whether a weight must reach bfq too (the run has a bfq configuration): io.bfq.weight must
  /// then exist in the roles' cgroups.
  void RequireBfqWeight(bool required) { bfq_weight_required_ = required; }

  /// The cgroups made, as system paths, in creation order.
  const std::vector<std::string>& paths() const { return paths_; }

 private:
  bool MakeRole(const RoleSetting& role, const IoCgroupLayout& layout, const std::string& path,
                const std::string& device, RestoreJournal* journal, ProcessPlacement* placement,
                std::string* err);
  bool SetWeight(const std::string& path, uint32_t weight, std::string* err);

  Sysfs sysfs_;
  bool bfq_weight_required_ = false;
  MakeCgroupDirectory make_;
  std::vector<std::string> paths_;
};

}  // namespace elevbench
