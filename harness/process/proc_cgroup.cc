#include "harness/process/proc_cgroup.h"

#include <sstream>

namespace elevbench {

bool CgroupPathOf(std::string_view proc_self_cgroup, const std::string& controller,
                  std::string* path) {
  std::istringstream in{std::string(proc_self_cgroup)};
  for (std::string line; std::getline(in, line);) {
    const size_t first = line.find(':');
    const size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = line.substr(first + 1, second - first - 1);
    bool match = controller.empty() && controllers.empty();
    std::istringstream names(controllers);
    for (std::string name; !controller.empty() && std::getline(names, name, ',');) {
      match = match || name == controller;
    }
    if (match) {
      *path = line.substr(second + 1);
      return !path->empty() && (*path)[0] == '/';
    }
  }
  return false;
}

}  // namespace elevbench
