#include "harness/disk/emulated_stack.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/stuck_io.h"
#include "harness/device/device_control.h"
#include "harness/device/driver_tags.h"
#include "harness/device/fuse_connection.h"
#include "harness/device/scratch_device.h"
#include "harness/disk/daemon_start.h"
#include "harness/disk/disk_profile_spec.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

// Starts `elevbench disk serve` detached (StartDetachedDaemon: its own session, re-parented to
// init, its pid delivered even when an interrupt arrives meanwhile).
bool StartDaemon(const EmulatedOptions& options, const std::string& backing,
                 const std::string& mountpoint, const std::string& log_path, pid_t* pid,
                 std::string* err) {
  std::vector<std::string> argv = {options.self_exe, "disk",      "serve",
                                   "--backing",      backing,     "--mount",
                                   mountpoint,       "--profile", options.profile_name};
  for (const std::string& o : options.overrides) {
    argv.push_back("--set");
    argv.push_back(o);
  }
  if (!options.trace_path.empty()) {
    argv.push_back("--trace");
    argv.push_back(options.trace_path);
  }
  if (!StartDetachedDaemon(argv, log_path, pid, err)) {
    *err = "could not start the disk daemon: " + *err;
    return false;
  }
  return true;
}

// The loop device's queue: driver tags first (the switch through none resets the scheduler's
// pool), then the pinned attributes, each journaled before it changes.
bool SetUpQueue(const EmulatedOptions& options, RestoreJournal* journal, EmulatedStack* s,
                std::string* err) {
  const Sysfs sysfs;
  DeviceControl control(sysfs, journal, {s->loop_name});
  s->keep_wbt = options.keep_wbt;
  s->queue_attrs = EmulatedQueueAttrs(s->profile, options.keep_wbt);
  const std::string wbt_path = QueuePath(s->loop_name, "wbt_lat_usec");
  std::string ignored;
  if (!sysfs.Read(wbt_path, &s->wbt_lat_usec, &ignored)) {
    // A kernel without writeback throttling: there is nothing to turn off.
    s->wbt_lat_usec.clear();
    std::erase_if(s->queue_attrs, [](const auto& a) { return a.first == "wbt_lat_usec"; });
  }
  if (s->profile.driver_tags > 0 && !control.SetDriverTags(s->profile.driver_tags, err)) {
    *err = "cannot set the driver tags of " + s->loop_name + ": " + *err;
    return false;
  }
  if (!control.PinQueueAttrs(s->queue_attrs, err)) return false;
  s->driver_tags = control.DriverTags(s->loop_name);
  s->driver_tags_read_back = control.DriverTagsReadBack(s->loop_name);
  if (s->driver_tags < 0) {  // the profile leaves them (driver_tags 0): what the loop device has
    bool no_blk_mq_debugfs = false;
    s->driver_tags_read_back =
        ReadDriverTags(sysfs, s->loop_name, &s->driver_tags, &no_blk_mq_debugfs, &ignored);
    if (!s->driver_tags_read_back) s->driver_tags = -1;
  }
  if (!s->wbt_lat_usec.empty() && !sysfs.Read(wbt_path, &s->wbt_lat_usec, err)) return false;
  return true;
}

bool IsMountPoint(const std::string& dir) {
  struct stat a {
  }, b{};
  if (stat(dir.c_str(), &a) != 0) return false;
  const std::string parent = dir + "/..";
  if (stat(parent.c_str(), &b) != 0) return false;
  return a.st_dev != b.st_dev;
}

}  // namespace

bool ParseEmulatedSpec(const std::string& spec, EmulatedOptions* options, std::string* err) {
  const size_t colon = spec.find(':');
  options->profile_name = spec.substr(0, colon);
  DiskProfile probe;
  if (!LookupDiskProfile(options->profile_name, &probe, err)) return false;
  if (colon != std::string::npos) {
    if (!ParseSizeBytes(spec.substr(colon + 1), &options->size_bytes, err)) {
      *err = "--emulated: " + *err;
      return false;
    }
  }
  if (options->size_bytes < (64ULL << 20)) {
    *err = "--emulated: the disk needs at least 64M";
    return false;
  }
  return true;
}

std::vector<std::pair<std::string, std::string>> EmulatedQueueAttrs(const DiskProfile& profile,
                                                                    bool keep_wbt) {
  std::vector<std::pair<std::string, std::string>> attrs;
  const bool spinning = profile.rpm > 0;
  attrs.emplace_back("rotational", spinning ? "1" : "0");
  if (spinning) attrs.emplace_back("max_sectors_kb", "128");
  if (!keep_wbt) attrs.emplace_back("wbt_lat_usec", "0");
  // A profile with a volatile write cache says so, so that the kernel sends flushes (and FUA
  // as write + flush) for the model to honour. The loop device already reports "write back"
  // over a file with fsync; set explicitly, it is pinned and checked like the others. The
  // profiles without a cache keep the device as it was (their flushes cost nothing).
  if (profile.write_cache_bytes > 0 || profile.ssd_dies > 0) {
    attrs.emplace_back("write_cache", "write back");
  }
  if (spinning) attrs.emplace_back("read_ahead_kb", "128");
  return attrs;
}

std::vector<std::pair<std::string, std::string>> EmulatedQueueAttrs(const EmulatedStack& stack) {
  return stack.queue_attrs;
}

nlohmann::json EmulatedQueueSettingsJson(const EmulatedStack& stack) {
  auto number = [](const std::string& text) -> nlohmann::json {
    try {
      size_t used = 0;
      const long long v = std::stoll(text, &used);
      if (used == text.size()) return v;
    } catch (...) {
    }
    return text.empty() ? nlohmann::json(nullptr) : nlohmann::json(text);  // "write back"
  };
  nlohmann::json j = {
      {"loop_device", stack.loop_device},
      {"driver_tags", stack.driver_tags >= 0 ? nlohmann::json(stack.driver_tags) : nullptr},
      {"writeback_throttling", stack.keep_wbt ? "kept" : "off"},
      {"wbt_lat_usec", number(stack.wbt_lat_usec)},
  };
  if (!stack.driver_tags_read_back && stack.driver_tags >= 0) {
    j["driver_tags_check"] =
        "set through nr_requests under none, not read back: this kernel has no blk-mq debugfs "
        "(CONFIG_BLK_DEBUG_FS) to show them";
  }
  for (const auto& [name, value] : stack.queue_attrs) {
    if (name != "wbt_lat_usec") j[name] = number(value);
  }
  return j;
}

std::vector<std::pair<std::string, std::string>> EmulatedVmSettings() {
  return {{"/proc/sys/vm/dirty_bytes", std::to_string(kEmulatedDirtyBytes)},
          {"/proc/sys/vm/dirty_background_bytes", std::to_string(kEmulatedDirtyBackgroundBytes)}};
}

namespace {

// Takes the machine-wide lock of the VM settings for the rest of the process's life: the
// descriptor is deliberately never closed, and the kernel drops the lock when the process
// exits, however it exits.
bool LockVmSettings(const Sysfs& sysfs, std::string* err) {
  static std::map<std::string, int> held;  // lock path → descriptor (one per fake root in tests)
  const std::string path =
      sysfs.root() == "/" ? "/run/elevbench-vm-settings.lock" : sysfs.root() + "vm-settings.lock";
  if (held.count(path)) return true;
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    *err = "cannot open " + path + ": " + strerror(errno);
    return false;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    close(fd);
    *err = e == EWOULDBLOCK ? "another elevbench run holds the machine's vm writeback settings (" +
                                  path + "); run emulated-disk runs one at a time"
                            : "cannot lock " + path + ": " + strerror(e);
    return false;
  }
  held[path] = fd;
  return true;
}

}  // namespace

bool ApplyVmSettings(const Sysfs& sysfs, RestoreJournal* journal,
                     const std::vector<std::pair<std::string, std::string>>& values,
                     std::string* err) {
  if (!LockVmSettings(sysfs, err)) return false;
  for (const auto& [path, value] : values) {
    std::string current;
    if (!sysfs.Read(path, &current, err)) return false;
    std::string journaled = path;
    const size_t pos = path.rfind("_bytes");
    if (current == "0" && pos != std::string::npos) {
      // The bytes limit is off, so the ratio is what is in force: restore that one.
      journaled = path.substr(0, pos) + "_ratio";
    }
    if (!journal->RecordSysfsValue(journaled, err)) return false;
    if (!sysfs.WriteVerified(path, value, err)) return false;
  }
  return true;
}

namespace {

// The disk's profile (named, with the overrides applied) and the machine's prerequisites.
bool CheckEmulatedPrerequisites(const EmulatedOptions& options, DiskProfile* profile,
                                std::string* err) {
  if (!LookupDiskProfileWithOverrides(options.profile_name, options.overrides, "", profile, err) ||
      !ValidateDiskProfile(*profile, err)) {
    return false;
  }
  if (access("/dev/fuse", R_OK | W_OK) != 0) {
    *err = "the emulated disk needs /dev/fuse (modprobe fuse)";
    return false;
  }
  if (!SupportedDeviceFs(options.fs)) {
    *err = "unsupported --fs '" + options.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  return true;
}

// 1. Backing store on a private tmpfs. 2. The filesystem is made on the backing file directly:
// fast, and it is the same bytes. Each step is journaled before it is taken.
bool CreateEmulatedBacking(const EmulatedOptions& options, RestoreJournal* journal,
                           EmulatedStack* s, std::string* err) {
  const std::string ram_dir = s->work_dir + "/ram";
  if (!journal->Record(JournalEntry::Directory(ram_dir), err)) return false;
  if (mkdir(ram_dir.c_str(), 0700) != 0) {
    *err = "cannot create " + ram_dir + ": " + strerror(errno);
    return false;
  }
  if (!journal->Record(JournalEntry::Mount(ram_dir), err)) return false;
  const uint64_t tmpfs_mb = (options.size_bytes >> 20) + 16;
  if (!RunChecked({"mount", "-t", "tmpfs", "-o", "size=" + std::to_string(tmpfs_mb) + "m,mode=0700",
                   "elevbench-disk", ram_dir},
                  nullptr, err)) {
    *err = "cannot mount the tmpfs for the backing file: " + *err;
    return false;
  }
  s->backing_path = ram_dir + "/backing.img";
  if (!journal->Record(JournalEntry::File(s->backing_path), err)) return false;
  int fd = open(s->backing_path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(options.size_bytes)) != 0) {
    *err = "cannot create " + s->backing_path + ": " + strerror(errno);
    if (fd >= 0) close(fd);
    return false;
  }
  close(fd);
  if (options.fs == kRawDeviceFs) return true;  // a raw device: no filesystem
  if (!RunChecked(MkfsCommand(options.fs, s->backing_path), nullptr, err)) {
    *err = "mkfs failed: " + *err;
    return false;
  }
  return true;
}

// Waits up to 10 s for the started daemon to show its disk.img on s.fuse_dir; fails at once if
// the daemon exits meanwhile, with the last line of its log.
bool AwaitEmulatedMount(const EmulatedStack& s, std::string* err) {
  bool mounted = false;
  for (int i = 0; i < 200 && !mounted; ++i) {
    if (kill(s.daemon_pid, 0) != 0) {
      std::string log;
      std::string ignored;
      (void)ReadWholeFile(s.daemon_log, &log, &ignored);
      *err = "the disk daemon exited during start-up: " + LastLine(log);
      return false;
    }
    mounted = IsMountPoint(s.fuse_dir) && access((s.fuse_dir + "/disk.img").c_str(), F_OK) == 0;
    if (!mounted) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  if (!mounted) {
    *err = "the disk daemon did not mount " + s.fuse_dir + " within 10 s";
    return false;
  }
  return true;
}

// The daemon's FUSE connection, journaled so that the teardown and `restore` look at the daemon
// before they unmount anything above it, and a stuck-I/O breaker for the rest of the process: a
// bounded wait that runs out aborts it (it does nothing once the disk is unmounted).
bool JournalFuseConnection(RestoreJournal* journal, EmulatedStack* s, std::string* err) {
  if (!FuseConnectionOf(s->fuse_dir, &s->fuse_connection, err)) return false;
  uint64_t start_time = 0;
  std::string comm;
  if (!ReadProcessIdentity(s->daemon_pid, &start_time, &comm, err)) return false;
  const JournalEntry entry = JournalEntry::FuseConnection(s->fuse_dir, s->fuse_connection,
                                                          s->daemon_pid, start_time, comm);
  if (!journal->Record(entry, err)) return false;
  RegisterStuckIoBreaker([entry] {
    const std::string done = AbortJournaledFuseConnection(entry);
    return done.empty() ? done : "the emulated disk: " + done;
  });
  return true;
}

// 3. The FUSE daemon. Journal order: the mount before the process, so undo kills the daemon
//    first (it unmounts itself on SIGTERM) and then makes sure the mount is gone.
bool StartEmulatedDaemon(const EmulatedOptions& options, RestoreJournal* journal, EmulatedStack* s,
                         std::string* err) {
  s->fuse_dir = s->work_dir + "/fuse";
  if (!journal->Record(JournalEntry::Directory(s->fuse_dir), err)) return false;
  if (mkdir(s->fuse_dir.c_str(), 0700) != 0) {
    *err = "cannot create " + s->fuse_dir + ": " + strerror(errno);
    return false;
  }
  s->daemon_log = s->work_dir + "/disk-daemon.log";
  if (!journal->Record(JournalEntry::File(s->daemon_log), err)) return false;
  if (!journal->Record(JournalEntry::FuseMount(s->fuse_dir), err)) return false;
  if (!StartDaemon(options, s->backing_path, s->fuse_dir, s->daemon_log, &s->daemon_pid, err)) {
    return false;
  }
  if (!journal->RecordProcess(s->daemon_pid, err)) {
    kill(s->daemon_pid, SIGTERM);
    return false;
  }
  if (!AwaitEmulatedMount(*s, err)) return false;
  return JournalFuseConnection(journal, s, err);
}

}  // namespace

bool CreateEmulatedStack(const EmulatedOptions& options, RestoreJournal* journal,
                         EmulatedStack* stack, std::string* err) {
  EmulatedStack s;
  if (!CheckEmulatedPrerequisites(options, &s.profile, err)) return false;
  if (!MakeJournaledTempDir(options.base_dir, journal, &s.work_dir, err)) return false;
  if (!CreateEmulatedBacking(options, journal, &s, err)) return false;
  if (!StartEmulatedDaemon(options, journal, &s, err)) return false;

  // 4. Loop device with direct I/O on the FUSE file, 5. filesystem mounted privately.
  if (!AttachLoopDevice(s.fuse_dir + "/disk.img", journal, &s.loop_device, err)) return false;
  s.loop_name = s.loop_device.substr(5);
  if (!SetUpQueue(options, journal, &s, err)) return false;
  if (options.fs == kRawDeviceFs) {  // a raw device: nothing to mount
    *stack = s;
    return true;
  }
  s.mountpoint = s.work_dir + "/mnt";
  if (!MountJournaled(s.loop_device, s.mountpoint, journal, err)) return false;
  *stack = s;
  return true;
}

bool ReadDiskCounters(const EmulatedStack& stack, nlohmann::json* counters, std::string* err) {
  std::string text;
  if (!ReadWholeFile(stack.fuse_dir + "/stats.json", &text, err)) return false;
  *counters = nlohmann::json::parse(text, nullptr, false);
  if (counters->is_discarded()) {
    *err = "stats.json of the disk daemon is not JSON";
    return false;
  }
  return true;
}

}  // namespace elevbench
