#include "harness/device/filesystem_reset.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "harness/core/error.h"
#include "harness/device/scratch_device.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"

namespace elevbench {

namespace {

// The filesystem's dirty data written back, then unmounted: what both resets start with.
bool SyncAndUnmount(const std::string& mountpoint, std::string* err) {
  BoundedCallLimits limits;
  limits.deadline_seconds = 120;  // as RunTarget::DropCaches: 48 MB on the 2003 disk takes ~2 s
  if (!SyncPathBounded(mountpoint, limits, err)) return false;
  return UnmountRetryingBusy(mountpoint, 30, err);
}

}  // namespace

bool UnmountRetryingBusy(const std::string& mountpoint, double deadline_seconds, std::string* err) {
  BoundedCallLimits limits;
  limits.deadline_seconds = deadline_seconds;
  int call_error = 0;
  for (int tries = 0;; ++tries) {
    if (!UnmountBounded(mountpoint, 0, limits, &call_error, err)) return false;
    if (call_error == 0) return true;
    if (call_error != EBUSY || tries >= 50) {
      return Fail(err, "cannot unmount " + mountpoint + ": " + std::strerror(call_error));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

bool RemountToDropCaches(const std::string& device, const std::string& mountpoint,
                         std::string* err) {
  if (!SyncAndUnmount(mountpoint, err)) {
    *err = "dropping the caches of " + mountpoint + ": " + *err;
    return false;
  }
  if (!RunChecked({"mount", device, mountpoint}, nullptr, err)) {
    *err = "cannot mount " + device + " again after dropping its caches: " + *err;
    return false;
  }
  return true;
}

bool RemakeFilesystem(const std::string& device, const std::string& fs,
                      const std::string& mountpoint, std::string* err) {
  if (!SupportedScratchFs(fs)) return Fail(err, "cannot make a '" + fs + "' filesystem again");
  if (!SyncAndUnmount(mountpoint, err)) {
    *err = "making a fresh filesystem on " + device + ": " + *err;
    return false;
  }
  if (!RunChecked(MkfsCommand(fs, device), nullptr, err)) {
    *err = "mkfs failed on " + device + ": " + *err;
    return false;
  }
  if (!RunChecked({"mount", device, mountpoint}, nullptr, err)) {
    *err = "cannot mount " + device + " after making a fresh filesystem: " + *err;
    return false;
  }
  return true;
}

}  // namespace elevbench
