#include "harness/device/scratch_device.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
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

std::vector<std::string> MkfsCommand(const std::string& fs, const std::string& device) {
  if (fs == "xfs") return {"mkfs.xfs", "-q", "-f", device};
  if (fs == "ext2") return {"mkfs.ext2", "-q", "-F", device};
  return {"mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", device};
}

bool MakeJournaledTempDir(const std::string& base, RestoreJournal* journal, std::string* path,
                          std::string* err) {
  std::string tmpl = base + "/elevbench-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data())) {
    *err = "cannot create a directory in " + base + ": " + strerror(errno);
    return false;
  }
  *path = buf.data();
  if (!journal->Record(JournalEntry::Directory(*path), err)) {
    rmdir(path->c_str());
    return false;
  }
  return true;
}

bool AttachLoopDevice(const std::string& image, RestoreJournal* journal, std::string* device,
                      std::string* err) {
  std::string out;
  if (!RunChecked({"losetup", "--find", "--show", "--direct-io=on", image}, &out, err)) {
    *err = "cannot attach a loop device: " + *err;
    return false;
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  if (out.rfind("/dev/loop", 0) != 0) {
    *err = "losetup printed an unexpected device name: " + out;
    return false;
  }
  *device = out;
  return journal->Record(JournalEntry::LoopDevice(*device, image), err);
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
  if (!SupportedScratchFs(options.fs)) {
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
