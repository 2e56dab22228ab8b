#pragma once
// The bytes a disk itself moved: the sector counters of /sys/block/<disk>/stat, which count the
// requests the device completed, never the page cache. What a suite reads around a window to
// give a background load's rate as the device saw it (run command's --load).

#include <cstdint>
#include <string>
#include <vector>

#include "harness/device/block_device.h"

namespace elevbench {

/// Bytes read and written by a disk (or a sum of disks) since boot.
struct DiskIoCounters {
  uint64_t read_bytes = 0;     ///< sectors read (field 3) × 512
  uint64_t written_bytes = 0;  ///< sectors written (field 7) × 512
};

/// Parses one /sys/block/<disk>/stat line (11 to 17 unsigned fields, blank separated). False
/// with a one-line err when it has fewer than 7 fields or a field that is not a number.
[[nodiscard]] bool ParseDiskStat(const std::string& text, DiskIoCounters* counters,
                                 std::string* err);

/// The sum of the counters of `disks` (kernel names) under `paths.root`. False with err naming
/// the disk whose stat file cannot be read or parsed. An empty list sums to zero.
[[nodiscard]] bool ReadDiskIoCounters(const std::vector<std::string>& disks,
                                      const SystemPaths& paths, DiskIoCounters* counters,
                                      std::string* err);

/// after − before, field by field, 0 where a counter went backwards (a disk re-attached).
DiskIoCounters DiskIoDelta(const DiskIoCounters& before, const DiskIoCounters& after);

}  // namespace elevbench
