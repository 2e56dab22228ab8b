#include "harness/run/target.h"

#include <stdlib.h>

#include <filesystem>

#include "harness/core/atomic_file.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/filesystem_reset.h"
#include "harness/device/scratch_device.h"
#include "harness/process/bounded_call.h"

namespace elevbench {

RunTarget::~RunTarget() {
  if (!temp_dir_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(temp_dir_, ec);
  }
}

bool RunTarget::Create(const TargetOptions& o, RestoreJournal* journal, Progress* progress,
                       std::string* err) {
  if (o.emulated) {
    const EmulatedOptions& emu = o.emulated_options;
    progress->Note("elevbench: building the emulated " + emu.profile_name + " disk (" +
                   std::to_string(emu.size_bytes >> 20) + " MiB, " + emu.fs + ")");
    if (!CreateEmulatedStack(emu, journal, &stack_, err)) {
      *err = "emulated disk: " + *err;
      return false;
    }
    directory_ = stack_.mountpoint;
    if (emu.fs == kRawDeviceFs) device_ = stack_.loop_device;
    fs_ = emu.fs;
    disks_ = {stack_.loop_name};
    created_device_ = emulated_ = true;
    description_ = {{"kind", "emulated"},
                    {"profile", DiskProfileToJson(stack_.profile)},
                    {"loop_device", stack_.loop_device},
                    {"backing", stack_.backing_path},
                    {"size_bytes", emu.size_bytes}};
  } else if (o.scratch_bytes > 0) {
    ScratchOptions so;
    so.size_bytes = o.scratch_bytes;
    so.fs = o.fs;
    ScratchDevice scratch;
    if (!CreateScratchDevice(so, journal, &scratch, err)) {
      *err = "scratch device: " + *err;
      return false;
    }
    directory_ = scratch.mountpoint;
    if (o.fs == kRawDeviceFs) device_ = scratch.loop_device;
    fs_ = o.fs;
    disks_ = {scratch.loop_name};
    created_device_ = true;
    description_ = {{"kind", "scratch"},
                    {"loop_device", scratch.loop_device},
                    {"image", scratch.image_path},
                    {"size_bytes", o.scratch_bytes}};
  } else if (!o.raw_device.empty()) {
    device_ = "/dev/" + o.raw_device;
    disks_ = {o.raw_device};
    description_ = {{"kind", "device"}, {"device", device_}};
    return true;
  } else {
    directory_ = o.directory;
    if (directory_.empty()) {
      char tmpl[] = "/var/tmp/elevbench-XXXXXX";
      if (!mkdtemp(tmpl)) {
        *err = "cannot create a scratch directory in /var/tmp";
        return false;
      }
      directory_ = temp_dir_ = tmpl;
    }
    description_ = {{"kind", "directory"}};
    std::string ignored;
    if (!ResolveQueueDevices(directory_, SystemPaths{}, &disks_, &ignored)) disks_.clear();
  }
  description_["path"] = directory_;
  std::string fstype, mountpoint, ignored;
  if (FilesystemOf(directory_, &fstype, &mountpoint, &ignored)) {
    description_["filesystem"] = fstype;
    description_["mountpoint"] = mountpoint;
  }
  return true;
}

bool RunTarget::DropCaches(std::string* err) const {
  BoundedCallLimits limits;
  limits.deadline_seconds = 120;  // 48 MB of dirty data on the 2003 disk takes ~2 s
  const std::string& path = device_.empty() ? directory_ : device_;
  if (!path.empty() && !SyncPathBounded(path, limits, err)) return false;
  return DropCleanCaches(err);
}

bool RunTarget::RemakeFilesystem(std::string* err) const {
  if (!CanRemakeFilesystem()) {
    *err = "--fresh-fs needs a filesystem elevbench made (--emulated or --scratch, not --fs none)";
    return false;
  }
  return elevbench::RemakeFilesystem("/dev/" + disks_.front(), fs_, directory_, err);
}

bool RunTarget::Lost(std::string* why) const {
  if (!created_device_ || disks_.empty()) return false;
  if (emulated_) return EmulatedStackLost(stack_, &liveness_, why);
  return LoopDeviceDetached(disks_.front(), why);
}

bool EmulatedStackLost(const EmulatedStack& stack, DaemonLiveness* liveness, std::string* why) {
  return EmulatedDaemonGone(stack, why) || liveness->Silent(stack, why) ||
         LoopDeviceDetached(stack.loop_name, why);
}

bool LoopDeviceDetached(const std::string& loop_name, std::string* why) {
  const std::string loop = "/sys/block/" + loop_name + "/loop/";
  std::string autoclear, ignored;
  const bool attached = std::filesystem::exists(loop + "backing_file");
  if (attached && ReadWholeFile(loop + "autoclear", &autoclear, &ignored) &&
      autoclear.rfind('0', 0) == 0) {
    return false;
  }
  // elevbench never sets autoclear on its own device before the restore: someone detached it.
  *why = "the loop device /dev/" + loop_name + " under the run was detached" +
         (attached ? " (losetup -d: it goes once unmounted)" : "");
  return true;
}

}  // namespace elevbench
