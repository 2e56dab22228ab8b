#include "harness/device/block_device.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/mountinfo.h"
#include "harness/core/system_info.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxStackDepth = 16;

struct MountEntry {
  std::string devno;
  std::string mountpoint;
  std::string fstype;
  std::string source;
};

// Reads an absolute host path (already mapped under the root), trimmed; "" when unreadable.
std::string ReadOr(const fs::path& p, std::string fallback = "") {
  std::string value;
  std::string ignored;
  if (!Sysfs("/").Read(p.string(), &value, &ignored)) return fallback;
  return value;
}

std::optional<int64_t> ReadInt(const fs::path& p) {
  std::string s = ReadOr(p);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

bool Exists(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// Sorted names in a directory; empty when it is missing.
std::vector<std::string> ListDir(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<MountEntry> ReadMounts(const SystemPaths& paths) {
  std::string text, ignored;
  (void)ReadWholeFile(paths.MountinfoPath(), &text, &ignored);
  std::vector<MountEntry> mounts;
  for (MountinfoEntry& m : ParseMountinfo(text)) {
    mounts.push_back({m.devno, std::move(m.mount_point), std::move(m.fstype), std::move(m.source)});
  }
  return mounts;
}

std::string RoleOf(const fs::path& dir) {
  std::string name = dir.filename().string();
  if (Exists(dir / "partition")) return "partition";
  if (Exists(dir / "dm")) return "dm";
  if (Exists(dir / "md")) return "md";
  if (Exists(dir / "loop") || name.rfind("loop", 0) == 0) return "loop";
  return "disk";
}

std::string CurrentScheduler(const fs::path& dir) {
  std::vector<std::string> available;
  std::string current;
  std::string ignored;
  std::string line = ReadOr(dir / "queue" / "scheduler");
  if (line.empty() || !ParseSchedulerLine(line, &available, &current, &ignored)) return "";
  return current;
}

// Walks one device and what it sits on. With `disks` set, collects the leaf queues and fails
// on a leaf without a scheduler; with `nodes` set, records every device on the way.
bool Walk(const fs::path& dir, int depth, std::vector<std::string>* disks,
          std::vector<StackNode>* nodes, std::string* err) {
  if (depth > kMaxStackDepth) {
    *err = "device stack deeper than " + std::to_string(kMaxStackDepth) + " at " + dir.string();
    return false;
  }
  std::string name = dir.filename().string();
  std::string role = RoleOf(dir);
  StackNode node{name, ReadOr(dir / "dev"), role, depth, "", ""};
  if (role == "partition") {
    fs::path disk = dir.parent_path();
    node.detail = "of " + disk.filename().string();
    if (nodes) nodes->push_back(node);
    return Walk(disk, depth + 1, disks, nodes, err);
  }
  node.scheduler = CurrentScheduler(dir);
  if (role == "dm") node.detail = ReadOr(dir / "dm" / "name");
  if (role == "loop") node.detail = ReadOr(dir / "loop" / "backing_file");
  if (nodes) nodes->push_back(node);
  std::vector<std::string> slaves = ListDir(dir / "slaves");
  if (!slaves.empty()) {
    for (const std::string& slave : slaves) {
      std::error_code ec;
      fs::path target = fs::canonical(dir / "slaves" / slave, ec);
      if (ec) {
        *err = "cannot resolve " + (dir / "slaves" / slave).string() + ": " + ec.message();
        return false;
      }
      if (!Walk(target, depth + 1, disks, nodes, err)) return false;
    }
    return true;
  }
  if (!disks) return true;
  if (node.scheduler.empty()) {
    *err = name + " has no I/O scheduler to switch (no queue/scheduler or no [current])";
    return false;
  }
  if (std::find(disks->begin(), disks->end(), name) == disks->end()) disks->push_back(name);
  return true;
}

bool DevnoDir(unsigned major, unsigned minor, const SystemPaths& paths, fs::path* dir,
              std::string* err) {
  std::string devno = std::to_string(major) + ":" + std::to_string(minor);
  fs::path link = Sysfs(paths.root).Map("/sys/dev/block/" + devno);
  std::error_code ec;
  *dir = fs::canonical(link, ec);
  if (ec) {
    *err = "no block device " + devno + " in sysfs (" + ec.message() + ")";
    return false;
  }
  return true;
}

// The device number whose queue serves `path`. *no_device (when given) is set when the path is
// on a filesystem without a block device (tmpfs, procfs, NFS): the one failure that is an answer.
bool DevnoOfPath(const std::string& path, const SystemPaths& paths, dev_t* dev, std::string* err,
                 bool* no_device = nullptr) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    *err = "stat " + path + ": " + strerror(errno);
    return false;
  }
  if (S_ISBLK(st.st_mode)) {
    *dev = st.st_rdev;
    return true;
  }
  *dev = st.st_dev;
  if (major(*dev) != 0) return true;
  // Anonymous device numbers (btrfs, overlay, tmpfs): ask the mount table for the source.
  std::string devno = "0:" + std::to_string(minor(*dev));
  std::string fstype = "an unknown filesystem";
  for (const MountEntry& m : ReadMounts(paths)) {
    if (m.devno != devno) continue;
    fstype = m.fstype;
    struct stat src;
    if (m.source.rfind("/dev/", 0) == 0 && stat(m.source.c_str(), &src) == 0 &&
        S_ISBLK(src.st_mode)) {
      *dev = src.st_rdev;
      return true;
    }
  }
  *err = path + " is on " + fstype + " (dev " + devno + "), which has no block device";
  if (no_device) *no_device = true;
  return false;
}

}  // namespace

std::string SystemPaths::MountinfoPath() const {
  return mountinfo.empty() ? Sysfs(root).Map("/proc/self/mountinfo") : mountinfo;
}

bool ResolveQueueDevicesForDevno(unsigned major_no, unsigned minor_no, const SystemPaths& paths,
                                 std::vector<std::string>* disks, std::string* err) {
  disks->clear();
  fs::path dir;
  if (!DevnoDir(major_no, minor_no, paths, &dir, err)) return false;
  return Walk(dir, 0, disks, nullptr, err);
}

bool ResolveQueueDevices(const std::string& path, const SystemPaths& paths,
                         std::vector<std::string>* disks, std::string* err) {
  dev_t dev;
  if (!DevnoOfPath(path, paths, &dev, err)) return false;
  return ResolveQueueDevicesForDevno(major(dev), minor(dev), paths, disks, err);
}

bool DescribeStackForDevno(unsigned major_no, unsigned minor_no, const SystemPaths& paths,
                           std::vector<StackNode>* nodes, std::string* err) {
  nodes->clear();
  fs::path dir;
  if (!DevnoDir(major_no, minor_no, paths, &dir, err)) return false;
  return Walk(dir, 0, nullptr, nodes, err);
}

bool DescribeStack(const std::string& path, const SystemPaths& paths, std::vector<StackNode>* nodes,
                   std::string* err) {
  dev_t dev;
  if (!DevnoOfPath(path, paths, &dev, err)) return false;
  return DescribeStackForDevno(major(dev), minor(dev), paths, nodes, err);
}

bool DevnoIsOnDisk(unsigned major_no, unsigned minor_no, const std::string& disk,
                   const SystemPaths& paths, bool* on, std::string* err) {
  std::vector<StackNode> nodes;
  if (!DescribeStackForDevno(major_no, minor_no, paths, &nodes, err)) return false;
  *on = std::any_of(nodes.begin(), nodes.end(), [&](const StackNode& n) { return n.name == disk; });
  return true;
}

bool PathIsOnDisk(const std::string& path, const std::string& disk, const SystemPaths& paths,
                  bool* on, std::string* err) {
  dev_t dev;
  bool no_device = false;
  if (!DevnoOfPath(path, paths, &dev, err, &no_device)) {
    if (!no_device) return false;
    *on = false;
    return true;
  }
  return DevnoIsOnDisk(major(dev), minor(dev), disk, paths, on, err);
}

std::string FormatStack(const std::vector<StackNode>& nodes) {
  std::string out;
  int last_depth = -1;
  for (const StackNode& n : nodes) {
    if (!out.empty()) out += n.depth > last_depth ? " -> " : ", ";
    out += n.name;
    if (!n.scheduler.empty()) out += " [" + n.scheduler + "]";
    if (n.role == "partition") out += " (partition " + n.detail + ")";
    if (n.role == "dm" || n.role == "md") {
      out += " (" + n.role + (n.detail.empty() ? "" : " " + n.detail) + ")";
    }
    if (n.role == "loop" && !n.detail.empty()) out += " (" + n.detail + ")";
    last_depth = n.depth;
  }
  return out;
}

bool ReadBlockDevice(const std::string& name, const SystemPaths& paths, BlockDeviceInfo* info,
                     std::string* err) {
  *info = BlockDeviceInfo();
  if (name.empty() || name.find('/') != std::string::npos || name[0] == '.') {
    *err = "invalid block device name '" + name + "'";
    return false;
  }
  fs::path dir = Sysfs(paths.root).Map("/sys/block/" + name);
  if (!Exists(dir / "dev")) {
    *err = "no block device " + name + " in /sys/block";
    return false;
  }
  info->name = name;
  info->devno = ReadOr(dir / "dev");
  info->model = ReadOr(dir / "device" / "model");
  info->size_bytes = static_cast<uint64_t>(ReadInt(dir / "size").value_or(0)) * 512;
  info->rotational = ReadInt(dir / "queue" / "rotational").value_or(0) != 0;
  info->logical_block_bytes =
      static_cast<uint32_t>(ReadInt(dir / "queue" / "logical_block_size").value_or(0));
  std::string line = ReadOr(dir / "queue" / "scheduler");
  std::string ignored;
  if (!line.empty() &&
      !ParseSchedulerLine(line, &info->available_schedulers, &info->current_scheduler, &ignored)) {
    info->available_schedulers.clear();
  }
  info->nr_requests = ReadInt(dir / "queue" / "nr_requests");
  info->read_ahead_kb = ReadInt(dir / "queue" / "read_ahead_kb");
  info->max_sectors_kb = ReadInt(dir / "queue" / "max_sectors_kb");
  info->is_loop = name.rfind("loop", 0) == 0;
  if (info->is_loop) info->loop_backing_file = ReadOr(dir / "loop" / "backing_file");
  info->slaves = ListDir(dir / "slaves");
  info->holders = ListDir(dir / "holders");

  // The disk and its partitions, by device number, for the mount table and for holders.
  std::map<std::string, std::string> devnos = {{info->devno, name}};
  for (const std::string& child : ListDir(dir)) {
    if (!Exists(dir / child / "partition")) continue;
    devnos[ReadOr(dir / child / "dev")] = child;
    for (const std::string& h : ListDir(dir / child / "holders")) {
      if (std::find(info->holders.begin(), info->holders.end(), h) == info->holders.end()) {
        info->holders.push_back(h);
      }
    }
  }
  for (const MountEntry& m : ReadMounts(paths)) {
    auto it = devnos.find(m.devno);
    if (it != devnos.end()) info->mounts.push_back({it->second, m.mountpoint, m.fstype});
  }
  return true;
}

bool ListBlockDevices(const SystemPaths& paths, std::vector<BlockDeviceInfo>* out,
                      std::string* err) {
  out->clear();
  fs::path dir = Sysfs(paths.root).Map("/sys/block");
  if (!Exists(dir)) {
    *err = "no " + dir.string() + " (is sysfs mounted?)";
    return false;
  }
  for (const std::string& name : ListDir(dir)) {
    if (name.rfind("ram", 0) == 0) continue;
    if (name.rfind("loop", 0) == 0 && !Exists(dir / name / "loop" / "backing_file")) continue;
    BlockDeviceInfo info;
    std::string ignored;
    // A device can vanish between listing and reading (loop detach); skip it then.
    if (ReadBlockDevice(name, paths, &info, &ignored)) out->push_back(std::move(info));
  }
  return true;
}

nlohmann::json ToJson(const BlockDeviceInfo& info) {
  auto optional = [](const std::optional<int64_t>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  nlohmann::json mounts = nlohmann::json::array();
  for (const MountInfo& m : info.mounts) {
    mounts.push_back({{"device", m.device}, {"mountpoint", m.mountpoint}, {"fstype", m.fstype}});
  }
  nlohmann::json j = {
      {"name", info.name},
      {"devno", info.devno},
      {"model", info.model},
      {"size_bytes", info.size_bytes},
      {"rotational", info.rotational},
      {"current_scheduler", info.current_scheduler},
      {"available_schedulers", info.available_schedulers},
      {"nr_requests", optional(info.nr_requests)},
      {"read_ahead_kb", optional(info.read_ahead_kb)},
      {"max_sectors_kb", optional(info.max_sectors_kb)},
      {"is_loop", info.is_loop},
      {"loop_backing_file", info.loop_backing_file},
      {"mounts", mounts},
      {"holders", info.holders},
      {"slaves", info.slaves},
  };
  return j;
}

bool SnapshotQueue(const Sysfs& sysfs, const std::string& disk,
                   std::map<std::string, std::string>* values, std::string* err) {
  values->clear();
  if (disk.empty() || disk.find('/') != std::string::npos || disk[0] == '.') {
    *err = "invalid block device name '" + disk + "'";
    return false;
  }
  const std::string base = "/sys/block/" + disk + "/";
  if (!Exists(sysfs.Map(base + "queue"))) {
    *err = "no " + base + "queue";
    return false;
  }
  for (const char* sub : {"queue", "queue/iosched"}) {
    for (const std::string& name : ListDir(sysfs.Map(base + sub))) {
      std::string rel = std::string(sub) + "/" + name;
      std::error_code ec;
      fs::file_status st = fs::symlink_status(sysfs.Map(base + rel), ec);
      if (ec || !fs::is_regular_file(st)) continue;
      constexpr auto kAnyRead =
          fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read;
      if ((st.permissions() & kAnyRead) == fs::perms::none) continue;
      std::string value;
      std::string ignored;
      if (sysfs.Read(base + rel, &value, &ignored)) (*values)[rel] = value;
    }
  }
  return true;
}

namespace {

// Whether `modules_dir` holds the module of a scheduler: kernel/block/<name>.ko, maybe compressed.
bool SchedulerModuleInstalled(const std::string& modules_dir, const std::string& scheduler) {
  static const std::map<std::string, std::string> kModule = {
      {"mq-deadline", "mq-deadline"}, {"kyber", "kyber-iosched"}, {"bfq", "bfq"}};
  const auto it = kModule.find(scheduler);
  if (it == kModule.end() || modules_dir.empty()) return false;
  std::error_code ec;
  for (const char* suffix : {".ko", ".ko.xz", ".ko.zst", ".ko.gz"}) {
    if (fs::exists(modules_dir + "/kernel/block/" + it->second + suffix, ec)) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> OfferedSchedulers(const SystemPaths& paths,
                                           const std::string& modules_dir) {
  std::vector<std::string> listed;
  std::vector<BlockDeviceInfo> devices;
  std::string ignored;  // without a listing nothing can be ruled out
  if (ListBlockDevices(paths, &devices, &ignored)) {
    for (const BlockDeviceInfo& d : devices) {
      for (const std::string& s : d.available_schedulers) {
        if (std::find(listed.begin(), listed.end(), s) == listed.end()) listed.push_back(s);
      }
    }
  }
  std::vector<std::string> offered = {"none"};
  for (const char* s : {"mq-deadline", "kyber", "bfq"}) {
    if (listed.empty() || std::find(listed.begin(), listed.end(), s) != listed.end() ||
        SchedulerModuleInstalled(modules_dir, s)) {
      offered.push_back(s);
    }
  }
  for (const std::string& s : listed) {
    if (std::find(offered.begin(), offered.end(), s) == offered.end()) offered.push_back(s);
  }
  return offered;
}

std::vector<std::string> OfferedSchedulers() {
  // In a --kernels guest the kernel's modules are not under the chroot's /lib/modules: its init
  // says where they are (harness/guest/guest_boot.cc), and loads them when the kernel asks.
  const char* guest_modules = std::getenv("ELEVBENCH_GUEST_MODULES");
  if (guest_modules != nullptr && *guest_modules == '/') {
    return OfferedSchedulers(SystemPaths{}, guest_modules);
  }
  struct utsname uts {};
  const std::string release = uname(&uts) == 0 ? uts.release : "";
  return OfferedSchedulers(SystemPaths{}, release.empty() ? "" : "/lib/modules/" + release);
}

bool ReadDiskNumbers(const Sysfs& sysfs, const std::string& disk, uint32_t* major, uint32_t* minor,
                     std::string* err) {
  const std::string name = disk.rfind("/dev/", 0) == 0 ? disk.substr(5) : disk;
  std::string dev;
  if (!sysfs.Read("/sys/block/" + name + "/dev", &dev, err)) return false;
  if (std::sscanf(dev.c_str(), "%u:%u", major, minor) != 2) {
    *err = "/sys/block/" + name + "/dev: not MAJOR:MINOR";
    return false;
  }
  return true;
}

bool CheckWholeDiskName(const std::string& given, const std::string& name, const SystemPaths& paths,
                        std::string* err) {
  const fs::path block = fs::path(paths.root) / "sys/block";
  std::error_code ec;
  if (!name.empty() && name.find('/') == std::string::npos && name != "." && name != ".." &&
      fs::exists(block / name / "dev", ec)) {
    return true;
  }
  bool partition = false;
  if (!name.empty() && name.find('/') == std::string::npos) {
    for (const fs::directory_entry& disk : fs::directory_iterator(block, ec)) {
      partition = partition || fs::exists(disk.path() / name / "partition", ec);
    }
  }
  *err = "--device " + given +
         (partition ? ": not a whole disk (name the disk, not a partition; see `elevbench "
                      "devices`)"
                    : ": no such disk (a name such as sdb; see `elevbench devices`)");
  return false;
}

}  // namespace elevbench
