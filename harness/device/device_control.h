#pragma once
// Applies scheduler configurations and pinned queue attributes to the target's disks, journaling
// every original value before its first change so that it is restored on every exit path (and by
// the next run after a crash).
//
// Couplings between queue attributes (measured on 6.18, see docs/emulated-disk.md):
// - Every write that commits queue limits (max_sectors_kb, rotational, add_random, iostats,
//   stable_writes, write_cache, ...) makes the kernel recompute read_ahead_kb. So read_ahead_kb
//   is written last (OrderQueueAttrs), and every pinned value is read back after the last write.
// - A scheduler switch resets nr_requests to the new scheduler's pool (256), and switching to or
//   from bfq turns writeback throttling off or back on (unless wbt_lat_usec was written by hand).
//   So the pins are written again, and read back again, after every switch.
// - nr_requests written while the scheduler is none resizes the driver tags, not a scheduler pool
//   (driver_tags.h). A pinned nr_requests is therefore not written while none is selected; the
//   driver tags are set only by SetDriverTags.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/scheduler_config.h"
#include "harness/device/sysfs.h"

namespace elevbench {

/// Controls the queues of a set of disks (the devices whose queue carries the scheduler).
class DeviceControl {
 public:
  /// `journal` must outlive this object and be open.
  DeviceControl(const Sysfs& sysfs, RestoreJournal* journal, std::vector<std::string> disks);

  /// Pins queue attributes (read_ahead_kb=128, …) for the whole run. Journals every original
  /// first, writes them in OrderQueueAttrs order, then reads every one back after the last write:
  /// if the kernel has moved one, fails with "<disk> queue/<attr>: pinned <v> but reads <w> …".
  /// They are re-applied and re-verified after every scheduler switch (Apply). A later value for
  /// the same attribute replaces an earlier one. nr_requests is skipped while the scheduler is
  /// none (see above).
  [[nodiscard]] bool PinQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                                   std::string* err);

  /// Writes every pinned attribute again and reads it back, on every disk: after something
  /// other than a switch made the kernel recompute one (a new filesystem made on the disk resets
  /// read_ahead_kb from 128 to 256 on this kernel: --fresh-fs). err as PinQueueAttrs.
  [[nodiscard]] bool ReapplyPinned(std::string* err);

  /// Sets the driver tags of every disk to `depth` (at least 4, the kernel's minimum). Journals
  /// the scheduler with its tunables and the current tag depth (a driver_tags entry) first, goes
  /// through scheduler none (ResizeDriverTags), verifies the depth in debugfs, and selects the
  /// scheduler it found again. Apply keeps the tags and checks them after every switch.
  [[nodiscard]] bool SetDriverTags(int depth, std::string* err);

  /// Switches every disk to `config`: the scheduler (read back, must show `[name]`), with fresh
  /// default tunables (a switch to the same scheduler goes through another one first, since the
  /// kernel ignores it), then each tunable with read-back, then the pinned queue attributes, read
  /// back after the last write. Finally checks that the driver tags are what they were before the
  /// first change (when debugfs could be read then): a switch must never resize them.
  [[nodiscard]] bool Apply(const SchedulerConfig& config, std::string* err);

  /// Journals every disk's scheduler and its tunables now, as the first Apply would: for a
  /// control handed to a child process (a lane of `--lanes`), which must not write the journal.
  [[nodiscard]] bool JournalDisks(std::string* err);

  /// The schedulers every disk offers (intersection, in the first disk's order).
  [[nodiscard]] bool AvailableSchedulers(std::vector<std::string>* available,
                                         std::string* err) const;

  /// Every readable queue/ and queue/iosched/ value of every disk, keyed "<disk>/queue/<attr>".
  std::map<std::string, std::string> Snapshot() const;

  /// The driver tags of `disk` as last set or verified; -1 when unknown (debugfs unreadable, or
  /// the disk not touched yet).
  int DriverTags(const std::string& disk) const;

  /// Whether the last check of `disk`'s driver tags read them back (false: a kernel without
  /// blk-mq debugfs cannot show them, and the check passed without reading; or never checked).
  bool DriverTagsReadBack(const std::string& disk) const;

  /// The pinned attributes in the order they are written.
  const std::vector<std::pair<std::string, std::string>>& pinned() const { return pinned_; }

  const std::vector<std::string>& disks() const { return disks_; }

 private:
  [[nodiscard]] bool JournalOriginal(const std::string& path, std::string* err);
  [[nodiscard]] bool JournalDiskOnce(const std::string& disk, std::string* err);
  [[nodiscard]] bool SetScheduler(const std::string& disk, const std::string& name,
                                  std::string* err);
  [[nodiscard]] bool WritePinned(const std::string& disk, std::string* err);
  [[nodiscard]] bool VerifyPinned(const std::string& disk, std::string* err);
  [[nodiscard]] bool VerifyDriverTags(const std::string& disk, std::string* err);

  const Sysfs& sysfs_;
  RestoreJournal* journal_;
  std::vector<std::string> disks_;
  std::vector<std::pair<std::string, std::string>> pinned_;
  std::vector<std::string> journaled_disks_;
  std::map<std::string, int> driver_tags_;      ///< expected depth per disk, when known
  std::map<std::string, bool> tags_read_back_;  ///< per disk: the last check read them
};

/// "/sys/block/<disk>/queue/<attr>".
std::string QueuePath(const std::string& disk, const std::string& attr);

/// The order in which queue attributes are written so that each one holds: read_ahead_kb last
/// (every limits write recomputes it), the others in the order given. Where an attribute appears
/// more than once, the last value wins.
std::vector<std::pair<std::string, std::string>> OrderQueueAttrs(
    const std::vector<std::pair<std::string, std::string>>& attrs);

}  // namespace elevbench
