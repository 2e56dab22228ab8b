#pragma once
// Resetting the filesystem of a device elevbench made, between cells: remounting it (a lane's
// cache drop, docs/lanes.md) or making it again (--fresh-fs, docs/machine.md). Every step that may
// block on the disk is bounded (process/bounded_call.h): a disk daemon that stops answering gets
// its FUSE connection aborted instead of holding the run in state D.

#include <string>

namespace elevbench {

/// Unmounts `mountpoint` within `deadline_seconds` per try, trying again every 100 ms while it is
/// busy (a child of the last cell still closing its files), at most 50 times. err is one line.
[[nodiscard]] bool UnmountRetryingBusy(const std::string& mountpoint, double deadline_seconds,
                                       std::string* err);

/// The cache drop of a filesystem that only this run uses: its dirty data written back (syncfs,
/// 120 s), then unmounted and mounted again from `device`, which drops its page cache, dentries
/// and inodes and, the device being closed on the way, the device's own cache. Unlike
/// drop_caches it reaches no other filesystem, so lanes use it. err is one line.
[[nodiscard]] bool RemountToDropCaches(const std::string& device, const std::string& mountpoint,
                                       std::string* err);

/// Makes the filesystem `fs` (MkfsCommand) on `device` again and mounts it on `mountpoint`, after
/// writing back and unmounting the old one as RemountToDropCaches does: the next cell starts on a
/// filesystem no earlier cell aged, and with nothing cached. The mountpoint's root is the new
/// filesystem's (mode 0755, root's), as after the first mkfs. err is one line.
[[nodiscard]] bool RemakeFilesystem(const std::string& device, const std::string& fs,
                                    const std::string& mountpoint, std::string* err);

}  // namespace elevbench
