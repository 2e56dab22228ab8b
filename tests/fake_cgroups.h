#pragma once
// A fake cgroup kernel for tests on a fake tree laid out like /sys/fs/cgroup (v1 memory + cpuset
// hierarchies, or v2): a new directory gets the control files the kernel would give it, and a
// pid written to a cgroup.procs leaves every other cgroup of its hierarchy, as a move does. A v1
// cpuset without memory nodes refuses tasks (ENOSPC), as the kernel does.

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/device/sysfs.h"
#include "harness/machine/machine_cgroups.h"

namespace elevbench::testing {

/// Builds the fake tree under `root` ("<root>/sys/fs/cgroup/…"). v1: memory and cpuset
/// hierarchies with CPUs `cpus` and this process in memory cgroup "/outer" (cpuset "/"); v2: a
/// unified hierarchy offering and enabling memory and cpuset. Returns the /proc/self/cgroup text.
inline std::string MakeFakeCgroupTree(const std::string& root, int version,
                                      const std::string& cpus = "0-3") {
  namespace fs = std::filesystem;
  const std::string base = root + "/sys/fs/cgroup";
  auto put = [](const std::string& path, const std::string& value) {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << value << "\n";
  };
  if (version == 2) {
    put(base + "/cgroup.controllers", "cpuset cpu io memory pids");
    put(base + "/cgroup.subtree_control", "cpuset memory pids");
    put(base + "/cgroup.procs", "");
    put(base + "/cpuset.cpus.effective", cpus);
    put(base + "/user.slice/cgroup.procs", "4242");
    return "0::/user.slice\n";
  }
  for (const std::string& dir : {base + "/memory", base + "/memory/outer"}) {
    put(dir + "/memory.limit_in_bytes", "9223372036854771712");
    put(dir + "/memory.memsw.limit_in_bytes", "9223372036854771712");
    put(dir + "/cgroup.procs", "");
  }
  put(base + "/memory/outer/cgroup.procs", "4242");
  put(base + "/cpuset/cpuset.cpus", cpus);
  put(base + "/cpuset/cpuset.effective_cpus", cpus);
  put(base + "/cpuset/cpuset.mems", "0");
  put(base + "/cpuset/cpuset.effective_mems", "0");
  put(base + "/cpuset/cgroup.procs", "4242");
  return "5:pids:/\n4:memory:/outer\n3:cpuset:/\n0::/\n";
}

/// The kernel's part of mkdir in a cgroup hierarchy: the directory and its control files.
inline MachineCgroups::MakeDirectory FakeCgroupMkdir() {
  return [](const std::string& mapped, std::string* err) {
    if (mkdir(mapped.c_str(), 0755) != 0) {
      *err = std::string("mkdir: ") + strerror(errno);
      return false;
    }
    auto put = [&](const char* name, const char* value) {
      std::ofstream(mapped + "/" + name) << value;
    };
    put("cgroup.procs", "");
    if (mapped.find("/sys/fs/cgroup/memory/") != std::string::npos) {
      put("memory.limit_in_bytes", "9223372036854771712\n");
      put("memory.memsw.limit_in_bytes", "9223372036854771712\n");
    } else if (mapped.find("/sys/fs/cgroup/cpuset/") != std::string::npos) {
      put("cpuset.cpus", "\n");
      put("cpuset.mems", "\n");
    } else {
      put("memory.max", "max\n");
      put("memory.swap.max", "max\n");
      put("cpuset.cpus", "\n");
    }
    return true;
  };
}

/// Writes plainly, except a pid written to ".../cgroup.procs", which moves it: it leaves every
/// cgroup.procs of the same hierarchy and is appended to the one written.
inline Sysfs::WriteHook FakeCgroupWriteHook() {
  return [](const std::string& mapped, const std::string& system_path, std::string_view value,
            std::string* err) {
    namespace fs = std::filesystem;
    const std::string kProcs = "/cgroup.procs";
    if (mapped.size() < kProcs.size() ||
        mapped.compare(mapped.size() - kProcs.size(), kProcs.size(), kProcs) != 0) {
      return Sysfs::PlainWrite(mapped, system_path, value, err);
    }
    const std::string dir = mapped.substr(0, mapped.size() - kProcs.size());
    std::ifstream mems_in(dir + "/cpuset.mems");
    std::string mems;
    if (mems_in && !(mems_in >> mems)) {
      *err = "write " + system_path + ": " + strerror(ENOSPC);
      return false;
    }
    // The hierarchy: /sys/fs/cgroup/<name> for v1, /sys/fs/cgroup for v2.
    const size_t at = mapped.find("/sys/fs/cgroup");
    const size_t next = mapped.find('/', at + 15);
    const bool v1 =
        mapped.find("/sys/fs/cgroup/memory") == at || mapped.find("/sys/fs/cgroup/cpuset") == at;
    const std::string hierarchy = v1 ? mapped.substr(0, next) : mapped.substr(0, at + 14);
    const std::string pid = std::string(value);
    for (const auto& entry : fs::recursive_directory_iterator(hierarchy)) {
      if (entry.path().filename() != "cgroup.procs") continue;
      std::ifstream in(entry.path());
      std::vector<std::string> kept;
      for (std::string p; in >> p;) {
        if (p != pid) kept.push_back(p);
      }
      in.close();
      std::ofstream out(entry.path(), std::ios::trunc);
      for (const std::string& p : kept) out << p << "\n";
    }
    std::ofstream(mapped, std::ios::app) << pid << "\n";
    return true;
  };
}

}  // namespace elevbench::testing
