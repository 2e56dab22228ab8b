#include "harness/core/system_info.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/mountinfo.h"

namespace elevbench {
namespace {

uint64_t MeminfoKb(const std::string& text, const std::string& key) {
  size_t pos = text.find("\n" + key + ":");
  if (pos == std::string::npos && text.rfind(key + ":", 0) == 0)
    pos = 0;
  else if (pos != std::string::npos)
    ++pos;
  if (pos == std::string::npos) return 0;
  std::istringstream in(text.substr(pos + key.size() + 1));
  uint64_t kb = 0;
  in >> kb;
  return kb;
}

}  // namespace

MachineInfo ReadMachineInfo() {
  MachineInfo info;
  utsname u{};
  if (uname(&u) == 0) {
    info.kernel = u.release;
    info.hostname = u.nodename;
  }
  info.cpus = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos) {
        info.cpu_model = line.substr(line.find_first_not_of(" \t", colon + 1));
      }
      break;
    }
  }
  std::ifstream meminfo("/proc/meminfo");
  std::stringstream ss;
  ss << meminfo.rdbuf();
  const std::string text = ss.str();
  info.memory_bytes = MeminfoKb(text, "MemTotal") * 1024;
  info.swap_bytes = MeminfoKb(text, "SwapTotal") * 1024;
  return info;
}

std::string ShortKernelVersion(const std::string& release) {
  return release.substr(0, release.find('-'));
}

bool FilesystemOf(const std::string& path, std::string* fstype, std::string* mountpoint,
                  std::string* err) {
  char resolved[PATH_MAX];
  if (!realpath(path.c_str(), resolved)) {
    *err = "cannot resolve " + path + ": " + strerror(errno);
    return false;
  }
  const std::string target = resolved;
  std::string text, ignored;
  (void)ReadWholeFile("/proc/self/mountinfo", &text, &ignored);
  size_t best = 0;
  bool found = false;
  for (const MountinfoEntry& m : ParseMountinfo(text)) {
    const std::string& mp = m.mount_point;
    const bool under =
        target == mp || mp == "/" ||
        (target.rfind(mp, 0) == 0 && target.size() > mp.size() && target[mp.size()] == '/');
    if (under && mp.size() >= best) {
      best = mp.size();
      *fstype = m.fstype;
      *mountpoint = mp;
      found = true;
    }
  }
  if (!found) {
    *err = "no mount found for " + target;
    return false;
  }
  return true;
}

std::string NowIso8601() {
  time_t now = time(nullptr);
  tm utc{};
  gmtime_r(&now, &utc);
  char buf[32];
  strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return buf;
}

std::string UnescapeMountField(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 3 < s.size()) {
      int v = 0;
      bool ok = true;
      for (size_t k = 1; k <= 3; ++k) {
        if (i + k >= s.size() || s[i + k] < '0' || s[i + k] > '7')
          ok = false;
        else
          v = v * 8 + (s[i + k] - '0');
      }
      if (ok) {
        out += static_cast<char>(v);
        i += 3;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

bool RunningAsRoot() { return geteuid() == 0; }

bool DropCleanCaches(std::string* err) {
  std::ofstream out("/proc/sys/vm/drop_caches");
  if (!out) {
    *err = std::string("cannot drop caches: ") + strerror(errno);
    return false;
  }
  out << "3\n";
  out.flush();
  if (!out) {
    *err = "cannot drop caches: write to /proc/sys/vm/drop_caches failed";
    return false;
  }
  return true;
}

std::string SelfExecutablePath() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("elevbench") : p.string();
}

}  // namespace elevbench
