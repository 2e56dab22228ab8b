#include "harness/device/device_control.h"

#include <algorithm>

#include "harness/device/block_device.h"

namespace elevbench {

std::string QueuePath(const std::string& disk, const std::string& attr) {
  return "/sys/block/" + disk + "/queue/" + attr;
}

DeviceControl::DeviceControl(const Sysfs& sysfs, RestoreJournal* journal,
                             std::vector<std::string> disks)
    : sysfs_(sysfs), journal_(journal), disks_(std::move(disks)) {}

bool DeviceControl::JournalOriginal(const std::string& path, std::string* err) {
  return journal_->RecordSysfsValue(path, err);
}

// Before the first change to a disk, journal the current scheduler's tunables and then the
// scheduler itself: undo runs backwards, so the scheduler comes back first and its tunables are
// written into it afterwards (a scheduler switch resets them to defaults).
bool DeviceControl::JournalDiskOnce(const std::string& disk, std::string* err) {
  if (std::find(journaled_disks_.begin(), journaled_disks_.end(), disk) != journaled_disks_.end()) {
    return true;
  }
  std::map<std::string, std::string> values;
  std::string ignored;
  if (SnapshotQueue(sysfs_, disk, &values, &ignored)) {
    for (const auto& [name, value] : values) {
      if (name.rfind("queue/iosched/", 0) != 0) continue;
      const std::string path = "/sys/block/" + disk + "/" + name;
      // Every readable tunable is journaled (Record() reads its value); one that cannot be
      // recorded is skipped rather than failing the run, since it cannot be restored either.
      std::string probe;
      if (!JournalOriginal(path, &probe)) continue;
    }
  }
  if (!JournalOriginal(QueuePath(disk, "scheduler"), err)) return false;
  journaled_disks_.push_back(disk);
  return true;
}

bool DeviceControl::PinQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                                  std::string* err) {
  pinned_ = attrs;
  for (const std::string& disk : disks_) {
    for (const auto& [name, value] : attrs) {
      const std::string path = QueuePath(disk, name);
      if (!JournalOriginal(path, err)) return false;
      if (!sysfs_.WriteVerified(path, value, err)) return false;
    }
  }
  return true;
}

bool DeviceControl::SetScheduler(const std::string& disk, const std::string& name,
                                 std::string* err) {
  return sysfs_.WriteVerified(QueuePath(disk, "scheduler"), name, err);
}

bool DeviceControl::AvailableSchedulers(std::vector<std::string>* available,
                                        std::string* err) const {
  available->clear();
  for (size_t i = 0; i < disks_.size(); ++i) {
    std::string line, current;
    std::vector<std::string> names;
    if (!sysfs_.Read(QueuePath(disks_[i], "scheduler"), &line, err) ||
        !ParseSchedulerLine(line, &names, &current, err)) {
      return false;
    }
    if (i == 0) {
      *available = names;
    } else {
      std::erase_if(*available, [&](const std::string& n) {
        return std::find(names.begin(), names.end(), n) == names.end();
      });
    }
  }
  return true;
}

bool DeviceControl::Apply(const SchedulerConfig& config, std::string* err) {
  for (const std::string& disk : disks_) {
    if (!JournalDiskOnce(disk, err)) return false;
    std::string line, current;
    std::vector<std::string> names;
    if (!sysfs_.Read(QueuePath(disk, "scheduler"), &line, err) ||
        !ParseSchedulerLine(line, &names, &current, err)) {
      return false;
    }
    if (std::find(names.begin(), names.end(), config.scheduler) == names.end()) {
      *err = disk + " does not offer scheduler '" + config.scheduler + "' (has: " + line + ")";
      return false;
    }
    if (current == config.scheduler) {
      // Writing the active scheduler again is a no-op in the kernel and would keep the previous
      // configuration's tunables: pass through another scheduler to get fresh defaults.
      auto other = std::find_if(names.begin(), names.end(),
                                [&](const std::string& n) { return n != config.scheduler; });
      if (other != names.end() && !SetScheduler(disk, *other, err)) return false;
    }
    if (!SetScheduler(disk, config.scheduler, err)) return false;
    for (const auto& [name, value] : config.tunables) {
      const std::string path = QueuePath(disk, "iosched/" + name);
      if (!sysfs_.WriteVerified(path, value, err)) {
        *err = config.scheduler + " tunable " + name + ": " + *err;
        return false;
      }
    }
    for (const auto& [name, value] : pinned_) {
      if (!sysfs_.WriteVerified(QueuePath(disk, name), value, err)) return false;
    }
  }
  return true;
}

std::map<std::string, std::string> DeviceControl::Snapshot() const {
  std::map<std::string, std::string> all;
  for (const std::string& disk : disks_) {
    std::map<std::string, std::string> values;
    std::string ignored;
    if (!SnapshotQueue(sysfs_, disk, &values, &ignored)) continue;
    for (const auto& [name, value] : values) all[disk + "/" + name] = value;
  }
  return all;
}

}  // namespace elevbench
