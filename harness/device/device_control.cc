#include "harness/device/device_control.h"

#include <algorithm>

#include "harness/device/block_device.h"
#include "harness/device/driver_tags.h"

namespace elevbench {
namespace {

// nr_requests under none would resize the driver tags: it is not a pin there (see the header).
bool SkippedUnder(const std::string& scheduler, const std::string& attr) {
  return attr == "nr_requests" && scheduler == "none";
}

}  // namespace

std::string QueuePath(const std::string& disk, const std::string& attr) {
  return "/sys/block/" + disk + "/queue/" + attr;
}

std::vector<std::pair<std::string, std::string>> OrderQueueAttrs(
    const std::vector<std::pair<std::string, std::string>>& attrs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& attr : attrs) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    auto same = [&](const auto& a) { return a.first == attr.first; };
    std::erase_if(out, same);
    out.push_back(attr);
  }
  std::stable_partition(out.begin(), out.end(),
                        [](const auto& a) { return a.first != "read_ahead_kb"; });
  return out;
}

DeviceControl::DeviceControl(const Sysfs& sysfs, RestoreJournal* journal,
                             std::vector<std::string> disks)
    : sysfs_(sysfs), journal_(journal), disks_(std::move(disks)) {}

bool DeviceControl::JournalOriginal(const std::string& path, std::string* err) {
  return journal_->RecordSysfsValue(path, err);
}

// Before the first change to a disk, journal the current scheduler's tunables and then the
// scheduler itself: undo runs backwards, so the scheduler comes back first and its tunables are
// written into it afterwards (a scheduler switch resets them to defaults). The driver tags found
// now are the ones every later Apply must leave in place.
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
  int depth = 0;
  if (!driver_tags_.count(disk) && ReadDriverTags(sysfs_, disk, &depth, &ignored)) {
    driver_tags_[disk] = depth;
  }
  return true;
}

bool DeviceControl::WritePinned(const std::string& disk, std::string* err) {
  std::string scheduler;
  if (!ReadActiveScheduler(sysfs_, disk, &scheduler, err)) return false;
  for (const auto& [name, value] : pinned_) {
    if (SkippedUnder(scheduler, name)) continue;
    if (!sysfs_.WriteVerified(QueuePath(disk, name), value, err)) return false;
  }
  return VerifyPinned(disk, err);
}

bool DeviceControl::VerifyPinned(const std::string& disk, std::string* err) {
  std::string scheduler;
  if (!ReadActiveScheduler(sysfs_, disk, &scheduler, err)) return false;
  for (const auto& [name, value] : pinned_) {
    if (SkippedUnder(scheduler, name)) continue;
    const std::string path = QueuePath(disk, name);
    std::string got;
    if (!sysfs_.Read(path, &got, err)) return false;
    if (!Sysfs::ValueMatches(path, value, got)) {
      *err = disk + " queue/" + name + ": pinned " + value + " but reads " + got +
             " after the last write (the kernel changed it)";
      return false;
    }
  }
  return true;
}

bool DeviceControl::VerifyDriverTags(const std::string& disk, std::string* err) {
  auto it = driver_tags_.find(disk);
  if (it == driver_tags_.end()) return true;
  int now = 0;
  bool no_blk_mq_debugfs = false;
  std::string read_err;
  if (!ReadDriverTags(sysfs_, disk, &now, &no_blk_mq_debugfs, &read_err)) {
    // A kernel without blk-mq debugfs cannot show them; the disk's queue depth is the check.
    tags_read_back_[disk] = false;
    if (no_blk_mq_debugfs) return true;
    *err = disk + " driver tags: cannot verify (" + read_err + ")";
    return false;
  }
  tags_read_back_[disk] = true;
  if (now != it->second) {
    *err = disk + " driver tags: expected " + std::to_string(it->second) + " but debugfs shows " +
           std::to_string(now);
    return false;
  }
  return true;
}

bool DeviceControl::PinQueueAttrs(const std::vector<std::pair<std::string, std::string>>& attrs,
                                  std::string* err) {
  pinned_ = OrderQueueAttrs(attrs);
  for (const std::string& disk : disks_) {
    // Journal in reverse write order: undo runs newest first, so the originals are written back
    // in write order too, read_ahead_kb last.
    for (auto it = pinned_.rbegin(); it != pinned_.rend(); ++it) {
      if (!JournalOriginal(QueuePath(disk, it->first), err)) return false;
    }
    if (!WritePinned(disk, err)) return false;
  }
  return true;
}

bool DeviceControl::ReapplyPinned(std::string* err) {
  for (const std::string& disk : disks_) {
    if (!WritePinned(disk, err)) return false;
  }
  return true;
}

bool DeviceControl::SetDriverTags(int depth, std::string* err) {
  if (depth < kMinDriverTags) {
    *err = "driver tags must be at least " + std::to_string(kMinDriverTags) +
           " (the kernel's minimum), not " + std::to_string(depth);
    return false;
  }
  for (const std::string& disk : disks_) {
    if (!JournalDiskOnce(disk, err)) return false;
    if (!journal_->RecordDriverTags(disk, err)) return false;
    if (!ResizeDriverTags(sysfs_, disk, depth, err)) return false;
    driver_tags_[disk] = depth;
    if (!VerifyDriverTags(disk, err)) return false;
    // The switch through none reset the scheduler's pool: put the pins back.
    if (!pinned_.empty() && !WritePinned(disk, err)) return false;
  }
  return true;
}

bool DeviceControl::DriverTagsReadBack(const std::string& disk) const {
  auto it = tags_read_back_.find(disk);
  return it != tags_read_back_.end() && it->second;
}

int DeviceControl::DriverTags(const std::string& disk) const {
  auto it = driver_tags_.find(disk);
  return it == driver_tags_.end() ? -1 : it->second;
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

bool DeviceControl::JournalDisks(std::string* err) {
  for (const std::string& disk : disks_) {
    if (!JournalDiskOnce(disk, err)) return false;
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
      // A scheduler built as a module is listed only once it is loaded, and the kernel loads
      // it when its name is written (request_module("<name>-iosched"): a --kernels guest's
      // kernel.modprobe, a host's modprobe). Refused only when that write does not take.
      std::string why;
      if (!SetScheduler(disk, config.scheduler, &why) ||
          !sysfs_.Read(QueuePath(disk, "scheduler"), &line, err) ||
          !ParseSchedulerLine(line, &names, &current, err)) {
        *err = disk + " does not offer scheduler '" + config.scheduler + "' (has: " + line + ")";
        return false;
      }
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
    if (!WritePinned(disk, err) || !VerifyDriverTags(disk, err)) return false;
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
