// RunJob's steps for `run --controls` (docs/controls.md): the roles' cgroups and the
// results context's block. The words are checked in run_checks.cc, the crossing named in
// run_labels.cc.

#include <unistd.h>

#include "harness/core/error.h"
#include "harness/device/block_device.h"
#include "harness/run/run_job.h"

namespace elevbench {

bool RunJob::MakeControlCgroups(std::string* err) {
  const std::vector<IoControl>& controls = checked_.controls;
  control_placements_.clear();
  for (const IoControl& c : controls) control_placements_.push_back(IoprioPlacements(c));
  bool throttled = false;
  for (const IoControl& c : controls) throttled = throttled || c.NeedsCgroups();
  if (!throttled) return true;
  if (target_.disks().empty()) {
    return Fail(err, "--controls: cannot find the block device under " + target_.directory() +
                         " to throttle");
  }
  uint32_t major = 0, minor = 0;
  if (!ReadDiskNumbers(sysfs_, target_.disks().front(), &major, &minor, err)) {
    return Fail(err, "--controls: the device number of " + target_.disks().front() + ": " + *err);
  }
  controlled_disk_ = std::to_string(major) + ":" + std::to_string(minor);
  for (size_t j = 0; j < controls.size(); ++j) {
    const std::string name =
        "elevbench-" + std::to_string(getpid()) + "-control" + std::to_string(j);
    if (!role_cgroups_.Create(controls[j], checked_.io_layout, name, controlled_disk_, &journal_,
                              &control_placements_[j], err)) {
      return Fail(err, "--controls " + controls[j].text + ": " + *err);
    }
  }
  std::string where;
  for (const std::string& p : role_cgroups_.paths()) where += (where.empty() ? "" : ", ") + p;
  progress_.Note("elevbench: controls' cgroups (v" + std::to_string(checked_.io_layout.version) +
                 ", disk " + controlled_disk_ + "): " + where);
  return true;
}

nlohmann::json RunJob::ControlsContext() const {
  nlohmann::json list = nlohmann::json::array();
  for (const IoControl& c : checked_.controls) {
    list.push_back({{"control", c.text}, {"code", c.code}});
  }
  return {{"list", list},
          {"cgroup_version", checked_.io_layout.version},
          {"disk", controlled_disk_},
          {"cgroups", role_cgroups_.paths()}};
}

}  // namespace elevbench
