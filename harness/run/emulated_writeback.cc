#include "harness/run/emulated_writeback.h"

#include "harness/disk/emulated_stack.h"

namespace elevbench {

LaneWriteback EmulatedWritebackLimits(int disks) {
  return LaneWritebackLimits(kEmulatedDirtyBytes, kEmulatedDirtyBackgroundBytes, disks);
}

bool SetUpEmulatedWriteback(const Sysfs& sysfs, RestoreJournal* journal,
                            const std::string& loop_name, EmulatedWriteback* out,
                            std::string* err) {
  std::string bdi;
  if (!BdiPathOfDisk(sysfs, loop_name, &bdi, err)) {
    *err = "the emulated disk's writeback limit: " + *err;
    return false;
  }
  if (!PerDeviceWritebackOffered(sysfs, bdi)) {
    out->described = {{"strict_limit", false},
                      {"why", "this kernel has no per-device writeback limits (Linux < 6.2)"}};
    if (!ApplyVmSettings(sysfs, journal, EmulatedVmSettings(), err)) {
      *err = "vm writeback settings: " + *err;
      return false;
    }
    return true;
  }
  const LaneWriteback limits = EmulatedWritebackLimits(1);
  if (!ApplyVmSettings(sysfs, journal, limits.vm, err)) {
    *err = "vm writeback settings: " + *err;
    return false;
  }
  if (!ApplyBdiLimits(sysfs, journal, bdi, limits.ratio_fine, err)) {
    *err = "the emulated disk's writeback limit: " + *err;
    return false;
  }
  out->described = {{"strict_limit", true},
                    {"bdi", bdi},
                    {"ratio_fine", limits.ratio_fine},
                    {"dirty_bytes", limits.lane_dirty_bytes},
                    {"background_bytes", limits.lane_background_bytes},
                    {"vm", limits.vm}};
  out->vm = limits.vm;
  return true;
}

}  // namespace elevbench
