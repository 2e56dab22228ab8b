#pragma once
// Applies scheduler configurations and pinned queue attributes to the target's disks, journaling
// every original value before its first change so that it is restored on every exit path (and by
// the next run after a crash).

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

  /// Pins queue attributes (read_ahead_kb=128, …) for the whole run; they are re-applied after
  /// every scheduler switch because a switch resets some of them (nr_requests).
  [[nodiscard]] bool PinQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                                   std::string* err);

  /// Switches every disk to `config`: the scheduler (read back, must show `[name]`), with fresh
  /// default tunables (a switch to the same scheduler goes through another one first, since the
  /// kernel ignores it), then each tunable with read-back, then the pinned queue attributes.
  [[nodiscard]] bool Apply(const SchedulerConfig& config, std::string* err);

  /// The schedulers every disk offers (intersection, in the first disk's order).
  [[nodiscard]] bool AvailableSchedulers(std::vector<std::string>* available,
                                         std::string* err) const;

  /// Every readable queue/ and queue/iosched/ value of every disk, keyed "<disk>/queue/<attr>".
  std::map<std::string, std::string> Snapshot() const;

  const std::vector<std::string>& disks() const { return disks_; }

 private:
  [[nodiscard]] bool JournalOriginal(const std::string& path, std::string* err);
  [[nodiscard]] bool JournalDiskOnce(const std::string& disk, std::string* err);
  [[nodiscard]] bool SetScheduler(const std::string& disk, const std::string& name,
                                  std::string* err);

  const Sysfs& sysfs_;
  RestoreJournal* journal_;
  std::vector<std::string> disks_;
  std::vector<std::pair<std::string, std::string>> pinned_;
  std::vector<std::string> journaled_disks_;
};

/// "/sys/block/<disk>/queue/<attr>".
std::string QueuePath(const std::string& disk, const std::string& attr);

}  // namespace elevbench
