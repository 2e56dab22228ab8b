#pragma once
// The hooks of a SessionTarget (run_session.h) that the serial run (RunJob) and each lane
// (RunLanes) make alike, written once.

#include <functional>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/device/device_control.h"
#include "harness/disk/emulated_stack.h"

namespace elevbench {

/// SessionTarget::remake_filesystem for a filesystem elevbench made: `remake` (written back,
/// unmounted, mkfs, mounted), then, when `control` is not null, its pinned queue attributes
/// written again (DeviceControl::ReapplyPinned): the new filesystem makes the kernel recompute
/// read_ahead_kb, so a pin would silently be lost. err is `remake`'s or the pin's.
std::function<bool(std::string* err)> RemakeThenRepin(std::function<bool(std::string* err)> remake,
                                                      DeviceControl* control);

/// SessionTarget::disk_counters of the emulated disk `stack` (its stats.json), null JSON when
/// they cannot be read: a cell's counters are a record, not a reason to fail it.
std::function<nlohmann::json()> EmulatedDiskCounters(const EmulatedStack* stack);

}  // namespace elevbench
