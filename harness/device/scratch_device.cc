#include "harness/device/scratch_device.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <thread>
#include <vector>

#include "harness/process/subprocess.h"

namespace elevbench {

bool ParseSizeBytes(const std::string& text, uint64_t* bytes, std::string* err) {
  if (text.empty()) {
    *err = "empty size";
    return false;
  }
  size_t used = 0;
  double value = 0;
  try {
    value = std::stod(text, &used);
  } catch (...) {
    *err = "bad size '" + text + "' (use e.g. 512M, 1G)";
    return false;
  }
  std::string suffix = text.substr(used);
  double scale = 1;
  if (suffix == "" || suffix == "B")
    scale = 1;
  else if (suffix == "K" || suffix == "k" || suffix == "KiB")
    scale = 1024.0;
  else if (suffix == "M" || suffix == "m" || suffix == "MiB")
    scale = 1024.0 * 1024;
  else if (suffix == "G" || suffix == "g" || suffix == "GiB")
    scale = 1024.0 * 1024 * 1024;
  else if (suffix == "T" || suffix == "t" || suffix == "TiB")
    scale = 1024.0 * 1024 * 1024 * 1024;
  else {
    *err = "bad size '" + text + "' (use e.g. 512M, 1G)";
    return false;
  }
  if (!(value > 0) || !std::isfinite(value) || value * scale > 1e18) {
    *err = "size must be positive: '" + text + "'";
    return false;
  }
  *bytes = static_cast<uint64_t>(value * scale);
  return true;
}

bool SupportedScratchFs(const std::string& fs) {
  return fs == "ext2" || fs == "ext4" || fs == "xfs";
}

bool SupportedDeviceFs(const std::string& fs) {
  return SupportedScratchFs(fs) || fs == kRawDeviceFs;
}

std::vector<std::string> MkfsCommand(const std::string& fs, const std::string& device) {
  if (fs == "xfs") return {"mkfs.xfs", "-q", "-f", device};
  if (fs == "ext2") return {"mkfs.ext2", "-q", "-F", device};
  return {"mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", device};
}

bool MakeJournaledTempDir(const std::string& base, RestoreJournal* journal, std::string* path,
                          std::string* err) {
  // The name is chosen and journaled before the directory exists (mkdtemp would make it first,
  // and a SIGKILL between mkdtemp and the journal's write left it behind: the kill-point
  // sweep's lanes rows found one). Same form as mkdtemp's: elevbench-XXXXXX.
  static const char kChars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device rd;
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = base + "/elevbench-";
    for (int i = 0; i < 6; ++i) name += kChars[rd() % (sizeof kChars - 1)];
    const JournalEntry entry = JournalEntry::Directory(name);
    if (!journal->Record(entry, err)) return false;
    if (mkdir(name.c_str(), 0700) == 0) {
      *path = name;
      return true;
    }
    const int e = errno;
    std::string ignored;
    (void)journal->Forget(entry, &ignored);
    if (e != EEXIST) {
      *err = "cannot create a directory in " + base + ": " + strerror(e);
      return false;
    }
  }
  *err = "cannot create a directory in " + base + ": 100 names taken";
  return false;
}

bool CreateLoopDevice(const std::string& backing_file, RestoreJournal* journal, std::string* device,
                      std::string* err) {
  int control = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (control < 0) {
    *err = std::string("cannot open /dev/loop-control: ") + strerror(errno);
    return false;
  }
  std::error_code ec;
  std::string why = "no free index";
  for (int index = 0, tries = 0; index < (1 << 20) && tries < 64; ++index) {
    const std::string name = "loop" + std::to_string(index);
    if (std::filesystem::exists("/sys/block/" + name, ec) ||
        std::filesystem::exists("/dev/" + name, ec)) {
      continue;
    }
    ++tries;
    // The name is known before the device exists, so it is journaled first.
    const JournalEntry entry = JournalEntry::LoopCreated("/dev/" + name, backing_file);
    if (!journal->Record(entry, &why)) break;
    if (ioctl(control, LOOP_CTL_ADD, index) >= 0) {
      close(control);
      *device = "/dev/" + name;
      // devtmpfs makes the node; give it a moment on a loaded machine.
      for (int i = 0; i < 100 && !std::filesystem::exists(*device, ec); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      return true;
    }
    const int saved = errno;
    if (!journal->Forget(entry, &why)) break;
    if (saved != EEXIST) {
      why = name + ": " + strerror(saved);
      break;
    }
  }
  close(control);
  *err = "cannot create a loop device: " + why;
  return false;
}

bool AttachLoopDevice(const std::string& image, RestoreJournal* journal, std::string* device,
                      std::string* err) {
  std::string created;
  if (!CreateLoopDevice(image, journal, &created, err)) return false;
  if (!journal->Record(JournalEntry::LoopDevice(created, image), err)) return false;
  if (!RunChecked({"losetup", "--direct-io=on", created, image}, nullptr, err)) {
    *err = "cannot attach " + created + ": " + *err;
    return false;
  }
  *device = created;
  return true;
}

bool MountJournaled(const std::string& device, const std::string& mountpoint,
                    RestoreJournal* journal, std::string* err) {
  if (!journal->Record(JournalEntry::Directory(mountpoint), err)) return false;
  if (mkdir(mountpoint.c_str(), 0755) != 0 && errno != EEXIST) {
    *err = "cannot create " + mountpoint + ": " + strerror(errno);
    return false;
  }
  if (!journal->Record(JournalEntry::Mount(mountpoint), err)) return false;
  if (!RunChecked({"mount", device, mountpoint}, nullptr, err)) {
    *err = "cannot mount " + device + ": " + *err;
    return false;
  }
  return true;
}

bool CreateScratchDevice(const ScratchOptions& options, RestoreJournal* journal,
                         ScratchDevice* scratch, std::string* err) {
  if (!SupportedDeviceFs(options.fs)) {
    *err = "unsupported --fs '" + options.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  ScratchDevice s;
  s.fs = options.fs;
  if (!MakeJournaledTempDir(options.base_dir, journal, &s.work_dir, err)) return false;
  s.image_path = s.work_dir + "/scratch.img";
  if (!journal->Record(JournalEntry::File(s.image_path), err)) return false;
  int fd = open(s.image_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    *err = "cannot create " + s.image_path + ": " + strerror(errno);
    return false;
  }
  const bool sized = ftruncate(fd, static_cast<off_t>(options.size_bytes)) == 0;
  const int saved = errno;
  close(fd);
  if (!sized) {
    *err = "cannot size " + s.image_path + ": " + strerror(saved);
    return false;
  }
  if (!AttachLoopDevice(s.image_path, journal, &s.loop_device, err)) return false;
  s.loop_name = s.loop_device.substr(5);
  if (options.fs == kRawDeviceFs) {  // a raw device: no filesystem
    *scratch = s;
    return true;
  }
  if (!RunChecked(MkfsCommand(options.fs, s.loop_device), nullptr, err)) {
    *err = "mkfs failed: " + *err;
    return false;
  }
  s.mountpoint = s.work_dir + "/mnt";
  if (!MountJournaled(s.loop_device, s.mountpoint, journal, err)) return false;
  *scratch = s;
  return true;
}

}  // namespace elevbench
