#pragma once
// Per-device writeback limits for `--lanes` (docs/lanes.md). The emulated disk's 2003-like dirty
// limit (vm.dirty_bytes 48 MB, background 16 MB: EmulatedVmSettings) is machine-wide: two lanes
// writing at once would share it and each meet half. So with lanes each lane's disk gets the
// whole 2003 limit of its own through its backing device's info (/sys/class/bdi/MAJ:MIN,
// Linux >= 6.2): max_ratio_fine and min_ratio_fine both set to the lane's share of a global
// limit raised to hold every lane's (so the per-device limit is the one that binds, whatever the
// other lanes wrote lately), and strict_limit, so the device is throttled on its own dirty pages
// rather than only once the machine's are past the global threshold. Every value is journaled
// before it is written; undo runs newest first (strict_limit, min, max), which the kernel's
// min <= max rule allows.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"

namespace elevbench {

/// The limits of one run with lanes.
struct LaneWriteback {
  /// The global vm.dirty_* values (paths under /proc/sys/vm) for ApplyVmSettings.
  std::vector<std::pair<std::string, std::string>> vm;
  /// Each lane's share of them in millionths (the kernel's *_ratio_fine unit): 980000 / lanes,
  /// so the lanes' minimum shares sum to 98 % (the kernel refuses a sum of 100 %).
  uint64_t ratio_fine = 0;
  uint64_t lane_dirty_bytes = 0;       ///< what one lane may hold dirty (>= `dirty_bytes`)
  uint64_t lane_background_bytes = 0;  ///< its share of the background threshold
};

/// The global limits and the per-lane share that give each of `lanes` lanes at least
/// `dirty_bytes` of dirty data and `background_bytes` of background threshold (rounded up to
/// whole pages of 4 KiB). `lanes` >= 1.
LaneWriteback LaneWritebackLimits(uint64_t dirty_bytes, uint64_t background_bytes, int lanes);

/// The backing device info of a whole disk: "/sys/class/bdi/7:8" for loop8, from
/// /sys/block/<disk>/dev. err is one line.
[[nodiscard]] bool BdiPathOfDisk(const Sysfs& sysfs, const std::string& disk, std::string* path,
                                 std::string* err);

/// Whether this kernel lets `bdi` have a writeback limit of its own (max_ratio_fine and
/// strict_limit readable: Linux >= 6.2). Reads only.
bool PerDeviceWritebackOffered(const Sysfs& sysfs, const std::string& bdi);

/// Journals and sets `bdi`'s max_ratio_fine, then min_ratio_fine, to `ratio_fine`, and its
/// strict_limit to 1, each read back. Call after the global limits are set. False with one line
/// naming the file (a kernel before 6.2 has no *_ratio_fine: the error says so).
[[nodiscard]] bool ApplyBdiLimits(const Sysfs& sysfs, RestoreJournal* journal,
                                  const std::string& bdi, uint64_t ratio_fine, std::string* err);

}  // namespace elevbench
