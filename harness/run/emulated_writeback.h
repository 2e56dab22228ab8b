#pragma once
// The emulated disk's 2003 writeback limits (docs/lanes.md, "a writeback limit"): 48 MB of dirty
// data and a 16 MB background threshold. With lanes every lane's disk gets them as a strict limit
// of its own (run_lanes.h); a serial run's disk and a capture's are one lane, throttled by the
// same rule, so that a program dirtying pages meets the same limits whether it is captured, run
// for real (`run command`) or replayed (`run replay`'s buffered writer).

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/device/bdi_limits.h"
#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"

namespace elevbench {

/// The writeback limits that give each of `disks` emulated disks the 2003 machine's own
/// (kEmulatedDirtyBytes, kEmulatedDirtyBackgroundBytes) as a strict per-device limit.
LaneWriteback EmulatedWritebackLimits(int disks);

/// What SetUpEmulatedWriteback set.
struct EmulatedWriteback {
  /// The results' context block: {"strict_limit": true, "bdi", "ratio_fine", "dirty_bytes",
  /// "background_bytes", "vm"}, or {"strict_limit": false, "why"} on a kernel without
  /// per-device limits (Linux < 6.2), where the global 2003 limits alone are set.
  nlohmann::json described;
  /// The global vm.dirty_* values written with a strict limit; empty without one.
  std::vector<std::pair<std::string, std::string>> vm;
};

/// Gives the one emulated disk `loop_name` (a serial run's, a capture's) a lane's strict
/// writeback limit of its own (EmulatedWritebackLimits(1)); on a kernel without per-device
/// limits the global 2003 ones. Every value is journaled before it is written. False with one
/// line when a value could not be read or set.
[[nodiscard]] bool SetUpEmulatedWriteback(const Sysfs& sysfs, RestoreJournal* journal,
                                          const std::string& loop_name, EmulatedWriteback* out,
                                          std::string* err);

}  // namespace elevbench
