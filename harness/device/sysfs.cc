#include "harness/device/sysfs.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <sstream>

#include "harness/core/strings.h"

namespace elevbench {
namespace {

constexpr size_t kMaxAttributeBytes = 1 << 20;

bool ParseInteger(std::string_view s, long long* out) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

}  // namespace

bool ParseSchedulerLine(std::string_view line, std::vector<std::string>* available,
                        std::string* current, std::string* err) {
  available->clear();
  current->clear();
  std::vector<std::string> words = SplitWords(line);
  if (words.empty()) {
    *err = "empty scheduler line";
    return false;
  }
  for (std::string& w : words) {
    bool open = w.front() == '[';
    bool close = w.back() == ']';
    if (open != close || (open && w.size() < 3)) {
      *err = "malformed scheduler line '" + TrimWhitespace(line) + "'";
      return false;
    }
    if (open) {
      if (!current->empty()) {
        *err = "two current schedulers in '" + TrimWhitespace(line) + "'";
        return false;
      }
      w = w.substr(1, w.size() - 2);
      *current = w;
    }
    if (w.find_first_of("[]") != std::string::npos) {
      *err = "malformed scheduler line '" + TrimWhitespace(line) + "'";
      return false;
    }
    available->push_back(w);
  }
  return true;
}

Sysfs::Sysfs(std::string root) : root_(std::move(root)) {
  if (root_.empty() || root_.back() != '/') root_ += '/';
}

std::string Sysfs::Map(std::string_view system_path) const {
  while (!system_path.empty() && system_path.front() == '/') system_path.remove_prefix(1);
  return root_ + std::string(system_path);
}

bool Sysfs::Read(const std::string& path, std::string* value, std::string* err) const {
  std::string mapped = Map(path);
  int fd = open(mapped.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int saved = errno;
    *err = "read " + path + ": " + strerror(saved);
    errno = saved;
    return false;
  }
  std::string data;
  char buf[4096];
  while (data.size() < kMaxAttributeBytes) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int saved = errno;
      *err = "read " + path + ": " + strerror(saved);
      close(fd);
      errno = saved;
      return false;
    }
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  *value = TrimWhitespace(data);
  return true;
}

bool Sysfs::PlainWrite(const std::string& mapped_path, const std::string& system_path,
                       std::string_view value, std::string* err) {
  int fd = open(mapped_path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) {
    *err = "write " + system_path + ": " + strerror(errno);
    return false;
  }
  ssize_t n;
  do {
    n = write(fd, value.data(), value.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0 || static_cast<size_t>(n) != value.size()) {
    *err = "write " + system_path + ": " + (n < 0 ? strerror(errno) : "short write");
    close(fd);
    return false;
  }
  if (close(fd) != 0) {
    *err = "write " + system_path + ": " + strerror(errno);
    return false;
  }
  return true;
}

bool Sysfs::Write(const std::string& path, std::string_view value, std::string* err) const {
  if (!(StartsWith(path, "/sys/") || StartsWith(path, "/proc/sys/")) ||
      path.find("/../") != std::string::npos || path.find("/./") != std::string::npos) {
    *err = "refusing to write " + path + ": not under /sys/ or /proc/sys/";
    return false;
  }
  if (value.find_first_of("\n\r") != std::string_view::npos) {
    *err = "refusing to write a multi-line value to " + path;
    return false;
  }
  std::string mapped = Map(path);
  if (hook_) return hook_(mapped, path, value, err);
  return PlainWrite(mapped, path, value, err);
}

bool Sysfs::IsSchedulerPath(std::string_view path) {
  constexpr std::string_view kSuffix = "/queue/scheduler";
  return path.size() >= kSuffix.size() && path.substr(path.size() - kSuffix.size()) == kSuffix;
}

namespace {

bool EndsWithName(std::string_view path, std::string_view name) {
  return path.size() > name.size() && path.ends_with(name) &&
         path[path.size() - name.size() - 1] == '/';
}

// A file of one line per disk, "MAJ:MIN key=value …" (cgroup v2's io.cost.qos, io.cost.model):
// `want` ("7:3 enable=0") matches when the disk's line has every pair of it, or when the disk
// has no line and every pair wanted is the kernel's default for a disk never configured.
bool KeyedLineMatches(std::string_view want_text, std::string_view readback) {
  const std::vector<std::string> want = SplitWords(want_text);
  if (want.empty()) return false;
  std::istringstream in{std::string(readback)};
  for (std::string line; std::getline(in, line);) {
    const std::vector<std::string> got = SplitWords(line);
    if (got.empty() || got.front() != want.front()) continue;
    return std::all_of(want.begin() + 1, want.end(), [&](const std::string& pair) {
      return std::find(got.begin() + 1, got.end(), pair) != got.end();
    });
  }
  return std::all_of(want.begin() + 1, want.end(), [](const std::string& pair) {
    return pair == "enable=0" || pair == "ctrl=auto";
  });
}

}  // namespace

bool Sysfs::ValueMatches(std::string_view path, std::string_view wanted,
                         std::string_view readback) {
  if (EndsWithName(path, "io.cost.qos") || EndsWithName(path, "io.cost.model")) {
    return KeyedLineMatches(wanted, readback);
  }
  std::string want = TrimWhitespace(wanted);
  if (IsSchedulerPath(path)) {
    std::vector<std::string> available;
    std::string current;
    std::string ignored;
    if (!ParseSchedulerLine(readback, &available, &current, &ignored)) return false;
    return !current.empty() && current == want;
  }
  std::string got = TrimWhitespace(readback);
  long long a = 0;
  long long b = 0;
  if (ParseInteger(want, &a) && ParseInteger(got, &b)) return a == b;
  return SplitWords(want) == SplitWords(got);
}

bool Sysfs::WriteVerified(const std::string& path, std::string_view value, std::string* err) const {
  std::string want = TrimWhitespace(value);
  if (!Write(path, want, err)) return false;
  std::string got;
  if (!Read(path, &got, err)) return false;
  if (!ValueMatches(path, want, got)) {
    *err = path + ": wrote '" + want + "' but read back '" + got + "'";
    return false;
  }
  return true;
}

bool ReadActiveScheduler(const Sysfs& sysfs, const std::string& disk, std::string* current,
                         std::string* err) {
  std::string line;
  std::vector<std::string> names;
  return sysfs.Read("/sys/block/" + disk + "/queue/scheduler", &line, err) &&
         ParseSchedulerLine(line, &names, current, err);
}

}  // namespace elevbench
