#include "harness/process/self_placement.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/mountinfo.h"
#include "harness/core/strings.h"
#include "harness/process/proc_cgroup.h"

namespace elevbench {
namespace {

constexpr int kIoprioWhoProcess = 1;  // IOPRIO_WHO_PROCESS (linux/ioprio.h): the calling thread

// One cgroup mount of /proc/self/mountinfo.
struct CgroupMount {
  std::string root;                  // the mount's root inside its hierarchy ("/" normally)
  std::string point;                 // where it is mounted
  bool v2 = false;                   // cgroup2
  std::vector<std::string> options;  // v1: the super options, among them its controllers
};

std::vector<CgroupMount> CgroupMountsOf(std::string_view mountinfo) {
  std::vector<CgroupMount> mounts;
  for (MountinfoEntry& e : ParseMountinfo(mountinfo)) {
    if (e.fstype != "cgroup" && e.fstype != "cgroup2") continue;
    mounts.push_back({std::move(e.root), std::move(e.mount_point), e.fstype == "cgroup2",
                      std::move(e.super_options)});
  }
  return mounts;
}

// This process's path in `m`'s hierarchy, from /proc/self/cgroup; false when no line matches.
bool SelfPathIn(const CgroupMount& m, std::string_view proc_self_cgroup, std::string* path) {
  if (m.v2) return CgroupPathOf(proc_self_cgroup, "", path);
  for (const std::string& option : m.options) {
    if (option != "rw" && option != "ro" && CgroupPathOf(proc_self_cgroup, option, path)) {
      return true;
    }
  }
  return false;
}

bool WriteZeroTo(const std::string& procs, std::string* err) {
  const int fd = open(procs.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return Fail(err, "cannot open " + procs + ": " + std::strerror(errno));
  const bool ok = write(fd, "0", 1) == 1;
  const int e = errno;
  close(fd);
  return ok || Fail(err, "cannot move this process into " + procs + ": " + std::strerror(e));
}

// The cgroup mount whose mount point is the longest prefix of `path`; null when none is.
const CgroupMount* MountHolding(std::string_view path, const std::vector<CgroupMount>& mounts) {
  const CgroupMount* best = nullptr;
  for (const CgroupMount& m : mounts) {
    const bool under = path.size() > m.point.size() &&
                       path.compare(0, m.point.size(), m.point) == 0 && path[m.point.size()] == '/';
    if (under && (best == nullptr || m.point.size() > best->point.size())) best = &m;
  }
  return best;
}

}  // namespace

std::string CgroupUnderItsMount(std::string_view procs_path, std::string_view mountinfo) {
  constexpr std::string_view kProcs = "/cgroup.procs";
  const std::vector<CgroupMount> mounts = CgroupMountsOf(mountinfo);
  const CgroupMount* m = MountHolding(procs_path, mounts);
  if (m == nullptr || procs_path.size() < kProcs.size() ||
      procs_path.substr(procs_path.size() - kProcs.size()) != kProcs) {
    return "";
  }
  const std::string_view dir = procs_path.substr(0, procs_path.size() - kProcs.size());
  return dir.size() > m->point.size() ? std::string(dir.substr(m->point.size() + 1)) : "";
}

std::string CurrentProcsFileFor(std::string_view procs_path, std::string_view mountinfo,
                                std::string_view proc_self_cgroup) {
  const std::vector<CgroupMount> mounts = CgroupMountsOf(mountinfo);
  const CgroupMount* best = MountHolding(procs_path, mounts);
  std::string self;
  if (best == nullptr || !SelfPathIn(*best, proc_self_cgroup, &self)) return "";
  // /proc/self/cgroup's path is from the hierarchy's root; the mount shows it from best->root.
  if (best->root != "/") {
    if (self.compare(0, best->root.size(), best->root) != 0) return "";
    self = self.substr(best->root.size());
  }
  if (self.empty() || self == "/") return best->point + "/cgroup.procs";
  return best->point + self + "/cgroup.procs";
}

ScopedSelfPlacement::~ScopedSelfPlacement() {
  std::string ignored;
  (void)Undo(&ignored);
}

bool ScopedSelfPlacement::Apply(const ProcessPlacement& placement, std::string* err) {
  if (placement.empty()) return true;
  std::string mountinfo, self_cgroup;
  if (!placement.cgroup_procs.empty() && (!ReadWholeFile("/proc/self/mountinfo", &mountinfo, err) ||
                                          !ReadWholeFile("/proc/self/cgroup", &self_cgroup, err))) {
    return false;
  }
  for (const std::string& procs : placement.cgroup_procs) {
    const std::string back = CurrentProcsFileFor(procs, mountinfo, self_cgroup);
    if (back.empty()) {
      std::string ignored;
      (void)Undo(&ignored);
      return Fail(err, "cannot find the cgroup this process is in beside " + procs);
    }
    if (!WriteZeroTo(procs, err)) {
      std::string ignored;
      (void)Undo(&ignored);
      return false;
    }
    return_procs_.push_back(back);
  }
  if (placement.ioprio >= 0) {
    const long before = syscall(SYS_ioprio_get, kIoprioWhoProcess, 0);
    if (before < 0 || syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, placement.ioprio) != 0) {
      const int e = errno;
      std::string ignored;
      (void)Undo(&ignored);
      return Fail(err, std::string("cannot set this thread's I/O priority: ") + std::strerror(e));
    }
    previous_ioprio_ = static_cast<int>(before);
  }
  return true;
}

bool ScopedSelfPlacement::Undo(std::string* err) {
  bool ok = true;
  if (previous_ioprio_ >= 0) {
    if (syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, previous_ioprio_) != 0) {
      ok = Fail(err, std::string("cannot give this thread its I/O priority back: ") +
                         std::strerror(errno));
    }
    previous_ioprio_ = -1;
  }
  // Back in the reverse order of the moves.
  for (auto it = return_procs_.rbegin(); it != return_procs_.rend(); ++it) {
    std::string e;
    if (!WriteZeroTo(*it, &e) && ok) ok = Fail(err, e);
  }
  return_procs_.clear();
  return ok;
}

}  // namespace elevbench
