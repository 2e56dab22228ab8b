#pragma once
// A throw-away block device for a run: an image file, a loop device with direct I/O on it, a
// fresh filesystem, mounted in a private directory. Every step is journaled before (or, where the
// name is only known afterwards, right after) it happens, so the journal's RestoreAll() — at the
// end of the run, on a signal, or in the next run after a crash — removes all of it.

#include <cstdint>
#include <string>

#include "harness/device/restore_journal.h"

namespace elevbench {

/// What to create.
struct ScratchOptions {
  uint64_t size_bytes = 1ULL << 30;
  std::string fs = "ext4";            ///< ext2, ext4 or xfs
  std::string base_dir = "/var/tmp";  ///< where the private work directory is made
};

/// What was created.
struct ScratchDevice {
  std::string work_dir;  ///< private directory holding the image and the mount point
  std::string image_path;
  std::string loop_device;  ///< "/dev/loopN"
  std::string loop_name;    ///< "loopN"
  std::string mountpoint;
  std::string fs;
};

/// Parses a size such as "512M", "1G", "1.5G", "4096" (bytes); K/M/G/T are powers of 1024.
[[nodiscard]] bool ParseSizeBytes(const std::string& text, uint64_t* bytes, std::string* err);

/// True for the filesystems mkfs can make here.
bool SupportedScratchFs(const std::string& fs);

/// The `fs` of a device made without a filesystem (run replay's raw target): no mkfs, no mount.
inline constexpr const char* kRawDeviceFs = "none";

/// SupportedScratchFs, or kRawDeviceFs.
bool SupportedDeviceFs(const std::string& fs);

/// The mkfs command line for `fs` on `device` (lazy ext4 initialisation is off, so no
/// background writes disturb the measurements).
std::vector<std::string> MkfsCommand(const std::string& fs, const std::string& device);

/// Creates a new loop device for the run (LOOP_CTL_ADD at the lowest index that has no device),
/// journaling it as a loop_created entry before it exists; undo removes it (LOOP_CTL_REMOVE)
/// unless it is bound to a file other than `backing_file`. A fresh device starts from the
/// kernel's defaults and takes every queue setting with it when removed: a free loop device
/// keeps whatever an earlier user left on it (read_ahead_kb, driver tags, scheduler), and some
/// of it, such as the writeback-throttling state after a write to wbt_lat_usec, cannot be put
/// back through sysfs. Returns "/dev/loopN".
[[nodiscard]] bool CreateLoopDevice(const std::string& backing_file, RestoreJournal* journal,
                                    std::string* device, std::string* err);

/// Attaches `image` to a new loop device (CreateLoopDevice) with direct I/O on (so the host page
/// cache does not double-cache), journaling the attachment before it happens. Returns
/// "/dev/loopN".
[[nodiscard]] bool AttachLoopDevice(const std::string& image, RestoreJournal* journal,
                                    std::string* device, std::string* err);

/// Creates the whole stack. Needs root. On failure, what was created stays in the journal for
/// the caller's RestoreAll().
[[nodiscard]] bool CreateScratchDevice(const ScratchOptions& options, RestoreJournal* journal,
                                       ScratchDevice* scratch, std::string* err);

/// Makes a private directory "<base>/elevbench-XXXXXX" (mode 0700), journaled before it is made:
/// no kill can leave it unjournaled.
[[nodiscard]] bool MakeJournaledTempDir(const std::string& base, RestoreJournal* journal,
                                        std::string* path, std::string* err);

/// Mounts `device` at `mountpoint` (created and journaled), journaling the mount first.
[[nodiscard]] bool MountJournaled(const std::string& device, const std::string& mountpoint,
                                  RestoreJournal* journal, std::string* err);

}  // namespace elevbench
