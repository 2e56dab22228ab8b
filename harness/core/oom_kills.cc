#include "harness/core/oom_kills.h"

#include <sstream>

#include "harness/core/atomic_file.h"

namespace elevbench {

bool ParseOomKillCount(std::string_view text, uint64_t* count) {
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    unsigned long long value = 0;
    if (fields >> key && key == "oom_kill" && fields >> value) {
      *count = value;
      return true;
    }
  }
  return false;
}

std::string MemoryCgroupDirFrom(std::string_view proc_self_cgroup, const std::string& cgroup_root) {
  std::istringstream in{std::string(proc_self_cgroup)};
  std::string unified;
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    std::istringstream names(controllers);
    for (std::string name; std::getline(names, name, ',');) {
      if (name == "memory") return cgroup_root + "/memory" + (path == "/" ? "" : path);
    }
    if (controllers.empty() && line.rfind("0:", 0) == 0) {
      unified = cgroup_root + (path == "/" ? "" : path);
    }
  }
  return unified;
}

bool ReadOwnOomKillCount(uint64_t* count) {
  std::string cgroups, err;
  if (!ReadWholeFile("/proc/self/cgroup", &cgroups, &err)) return false;
  const std::string dir = MemoryCgroupDirFrom(cgroups, "/sys/fs/cgroup");
  if (dir.empty()) return false;
  for (const char* file : {"/memory.events", "/memory.oom_control"}) {
    std::string text;
    if (ReadWholeFile(dir + file, &text, &err) && ParseOomKillCount(text, count)) return true;
  }
  return false;
}

}  // namespace elevbench
