#pragma once
// The run's target: an existing directory (--dir), a scratch loop device (--scratch), the
// emulated rotating disk (--emulated), or, as a non-root default, a temporary directory that
// this object owns and removes. Devices are journaled by their creators, so the journal tears
// them down; the temporary directory goes with this object.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/core/progress.h"
#include "harness/device/restore_journal.h"
#include "harness/disk/emulated_stack.h"

namespace elevbench {

/// Which target to build.
struct TargetOptions {
  std::string directory;       ///< --dir: an existing writable directory
  uint64_t scratch_bytes = 0;  ///< --scratch SIZE (0 = no scratch device)
  bool emulated = false;       ///< --emulated
  EmulatedOptions emulated_options;
  std::string fs = "ext4";  ///< filesystem of a scratch device (emulated: emulated_options.fs)
  /// A disk of the user's ("sdb", named with --device) that is itself the target, raw: for a
  /// suite that wants a raw device (Suite::WantsRawDevice) and no other target.
  std::string raw_device;
};

/// Whether the loop device `loop_name` ("loop9") that elevbench made was detached under the run
/// (`losetup -d`: autoclear set while mounted, or no backing file any more); *why is one line.
bool LoopDeviceDetached(const std::string& loop_name, std::string* why);

/// Whether the emulated disk `stack` is gone or going: its daemon died (EmulatedDaemonGone),
/// stopped answering (`liveness`, which then aborts its FUSE connection) or its loop device was
/// detached. RunTarget::Lost for an emulated target, and each lane's (docs/lanes.md).
bool EmulatedStackLost(const EmulatedStack& stack, DaemonLiveness* liveness, std::string* why);

/// A built target. Not copyable; the temporary directory it may own is removed on destruction.
class RunTarget {
 public:
  RunTarget() = default;
  ~RunTarget();
  RunTarget(const RunTarget&) = delete;
  RunTarget& operator=(const RunTarget&) = delete;

  /// Builds the target. With neither a directory nor a device asked for, makes a temporary
  /// directory under /var/tmp. err is one line; what was built before a failure is journaled
  /// (devices) or owned (the temporary directory), so it is cleaned up all the same.
  [[nodiscard]] bool Create(const TargetOptions& options, RestoreJournal* journal,
                            Progress* progress, std::string* err);

  /// Where the suite's files go.
  const std::string& directory() const { return directory_; }
  /// The raw block device ("/dev/loop9") of a target without a filesystem (fs "none", or the
  /// user's raw --device); empty when the target has a filesystem.
  const std::string& device() const { return device_; }
  /// The disks whose queues serve the directory (the loop device of a device we made).
  const std::vector<std::string>& disks() const { return disks_; }
  /// True when elevbench made the device (scratch or emulated): it may be switched freely.
  bool created_device() const { return created_device_; }
  bool emulated() const { return emulated_; }
  /// The emulated stack (valid when emulated()).
  const EmulatedStack& stack() const { return stack_; }
  /// Whether the device under the run is gone or going, for a run to stop at once instead of
  /// failing cell after cell: the emulated disk's daemon died (EmulatedDaemonGone) or stopped
  /// answering (DaemonLiveness::Silent, which aborts its FUSE connection), or someone detached
  /// the loop device (`losetup -d`: autoclear set, or no backing file). *why is one line. Always
  /// false for a directory. Reads a few /proc and /sys files, and every 2 s asks the daemon a
  /// statfs from a child (up to 5 s): poll it from one thread (the target watch).
  bool Lost(std::string* why) const;
  /// The cache drop before a cell: writes back what the run may write (syncfs of the target's
  /// filesystem, or fsync of its raw device) under a deadline (process/bounded_call.h: 120 s,
  /// then the emulated disk's connection is aborted), never the whole machine's dirty data
  /// (sync(2) would hang the run on any stuck device of the machine), then drops the clean page
  /// cache, dentries and inodes (DropCleanCaches). Needs root. err is one line.
  [[nodiscard]] bool DropCaches(std::string* err) const;
  /// Whether RemakeFilesystem can work here: elevbench made the device and a filesystem on it.
  bool CanRemakeFilesystem() const { return created_device_ && device_.empty() && !fs_.empty(); }
  /// --fresh-fs before a cell: the filesystem made again on the device elevbench made
  /// (device/filesystem_reset.h: written back, unmounted, mkfs, mounted), so that no cell
  /// inherits the layout earlier cells left. Needs CanRemakeFilesystem(). err is one line.
  [[nodiscard]] bool RemakeFilesystem(std::string* err) const;
  /// The results context's "target" block: kind, path, filesystem, device facts.
  const nlohmann::json& description() const { return description_; }

 private:
  std::string directory_;
  std::string temp_dir_;
  std::string device_;
  std::string fs_;  // the filesystem elevbench made on its device; empty for --dir or raw
  std::vector<std::string> disks_;
  bool created_device_ = false;
  bool emulated_ = false;
  EmulatedStack stack_;
  mutable DaemonLiveness liveness_;  // asked by Lost, from the target watch's one thread
  nlohmann::json description_;
};

}  // namespace elevbench
