#include "harness/device/driver_tags.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <vector>

#include "harness/core/strings.h"

namespace elevbench {
namespace {

constexpr const char* kDebugfsMount = "/sys/kernel/debug";
constexpr const char* kDebugfsBlock = "/sys/kernel/debug/block";

std::string SchedulerPath(const std::string& disk) {
  return "/sys/block/" + disk + "/queue/scheduler";
}

std::string NrRequestsPath(const std::string& disk) {
  return "/sys/block/" + disk + "/queue/nr_requests";
}

// What the child reports through the pipe before the file's bytes: which step failed and errno.
struct ChildStatus {
  int step = 0;  // 0 = success; 1 unshare, 2 private propagation, 3 mount, 4 open, 5 read
  int error = 0;
};

// Reads `path` (under /sys/kernel/debug) in a child with its own mount namespace in which debugfs
// is mounted. fork() gives a single-threaded child, which unshare(CLONE_NEWNS) needs; the child
// calls nothing but system calls. *open_errno is the errno of a failed open of `path` (else 0).
bool ReadDebugfsInPrivateNamespace(const std::string& path, std::string* text, int* open_errno,
                                   std::string* err) {
  *open_errno = 0;
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + strerror(errno);
    return false;
  }
  const char* cpath = path.c_str();
  pid_t pid = fork();
  if (pid < 0) {
    *err = std::string("fork: ") + strerror(errno);
    close(pipefd[0]);
    close(pipefd[1]);
    return false;
  }
  if (pid == 0) {
    close(pipefd[0]);
    ChildStatus st;
    char buf[4096];
    ssize_t n = 0;
    int fd = -1;
    if (unshare(CLONE_NEWNS) != 0) {
      st = {1, errno};
    } else if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) {
      st = {2, errno};
    } else if (mount("debugfs", kDebugfsMount, "debugfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
                     nullptr) != 0) {
      st = {3, errno};
    } else if ((fd = open(cpath, O_RDONLY | O_CLOEXEC)) < 0) {
      st = {4, errno};
    } else if ((n = read(fd, buf, sizeof buf)) < 0) {
      st = {5, errno};
    }
    ssize_t w = write(pipefd[1], &st, sizeof st);
    if (st.step == 0 && w == static_cast<ssize_t>(sizeof st) && n > 0) {
      w = write(pipefd[1], buf, static_cast<size_t>(n));
    }
    _exit(w < 0 ? 1 : 0);
  }
  close(pipefd[1]);
  std::string data;
  char buf[4096];
  while (true) {
    ssize_t n = read(pipefd[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(pipefd[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ChildStatus st;
  if (data.size() < sizeof st) {
    *err = "read " + path + " (private debugfs mount): the reader process failed";
    return false;
  }
  std::memcpy(&st, data.data(), sizeof st);
  if (st.step == 4) *open_errno = st.error;
  if (st.step != 0) {
    static constexpr const char* kSteps[] = {
        "", "unshare(CLONE_NEWNS)", "make / private", "mount", "open", "read"};
    *err = "read " + path +
           " (private debugfs mount): " + kSteps[st.step >= 1 && st.step <= 5 ? st.step : 0] +
           ": " + strerror(st.error);
    return false;
  }
  *text = data.substr(sizeof st);
  return true;
}

bool DebugfsMounted() {
  struct stat st {};
  return stat(kDebugfsBlock, &st) == 0 && S_ISDIR(st.st_mode);
}

// The active scheduler; a bio-based device has none, and no driver tags either.
bool SchedulerOfTaggedDisk(const Sysfs& sysfs, const std::string& disk, std::string* current,
                           std::string* err) {
  if (!ReadActiveScheduler(sysfs, disk, current, err)) return false;
  if (current->empty()) {
    *err = disk + " has no I/O scheduler (bio-based): it has no driver tags to resize";
    return false;
  }
  return true;
}

}  // namespace

std::string DriverTagsDebugfsPath(const std::string& disk) {
  return std::string(kDebugfsMount) + "/block/" + disk + "/hctx0/tags";
}

bool ParseTagsDepth(std::string_view text, int* depth, std::string* err) {
  size_t from = text.find("bitmap_tags:");
  from = from == std::string_view::npos ? 0 : from;
  size_t pos = from;
  while ((pos = text.find("depth=", pos)) != std::string_view::npos) {
    // Only a "depth=" at the start of a line ("min_shallow_depth=" is another field).
    if (pos == 0 || text[pos - 1] == '\n') break;
    ++pos;
  }
  if (pos == std::string_view::npos) {
    *err = "no depth= line in the debugfs tags file";
    return false;
  }
  const char* begin = text.data() + pos + 6;
  const char* end = text.data() + text.size();
  int value = 0;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin || (ptr != end && *ptr != '\n') || value < 0) {
    *err = "malformed depth= line in the debugfs tags file";
    return false;
  }
  *depth = value;
  return true;
}

bool ReadDriverTags(const Sysfs& sysfs, const std::string& disk, int* depth, std::string* err) {
  bool no_blk_mq_debugfs = false;
  return ReadDriverTags(sysfs, disk, depth, &no_blk_mq_debugfs, err);
}

bool ReadDriverTags(const Sysfs& sysfs, const std::string& disk, int* depth,
                    bool* no_blk_mq_debugfs, std::string* err) {
  *no_blk_mq_debugfs = false;
  const std::string path = DriverTagsDebugfsPath(disk);
  std::error_code ec;
  const bool disk_exists = std::filesystem::exists(sysfs.Map("/sys/block/" + disk), ec);
  std::string text;
  if (sysfs.root() != "/" || DebugfsMounted()) {
    if (!sysfs.Read(path, &text, err)) {
      *no_blk_mq_debugfs = disk_exists && !std::filesystem::exists(sysfs.Map(path), ec) &&
                           std::filesystem::is_directory(sysfs.Map(kDebugfsBlock), ec);
      return false;
    }
  } else {
    int open_errno = 0;
    if (!ReadDebugfsInPrivateNamespace(path, &text, &open_errno, err)) {
      *no_blk_mq_debugfs = disk_exists && open_errno == ENOENT;
      return false;
    }
  }
  if (!ParseTagsDepth(text, depth, err)) {
    *err = path + ": " + *err;
    return false;
  }
  return true;
}

bool ReadTagSetDepth(const Sysfs& sysfs, const std::string& disk, int* depth, std::string* err) {
  const std::string path = "/sys/block/" + disk + "/mq/0/nr_tags";
  std::string text;
  if (!sysfs.Read(path, &text, err)) return false;
  text = std::string(TrimWhitespace(text));
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, *depth);
  if (ec != std::errc() || ptr != end || text.empty() || *depth < 1) {
    *err = path + ": expected a positive number, got '" + text + "'";
    return false;
  }
  return true;
}

bool ResizeDriverTags(const Sysfs& sysfs, const std::string& disk, int depth, std::string* err) {
  if (depth < kMinDriverTags) {
    *err = "driver tags of " + disk + ": " + std::to_string(depth) + " is below the kernel's " +
           "minimum of " + std::to_string(kMinDriverTags);
    return false;
  }
  std::string previous;
  if (!SchedulerOfTaggedDisk(sysfs, disk, &previous, err)) return false;
  if (previous != "none" && !sysfs.WriteVerified(SchedulerPath(disk), "none", err)) return false;
  std::string shown;
  if (!sysfs.Read(NrRequestsPath(disk), &shown, err)) return false;
  const std::string want = std::to_string(depth);
  if (Sysfs::ValueMatches(NrRequestsPath(disk), want, shown)) {
    // The kernel skips a write of the value nr_requests shows, even when the tags differ.
    const int other = depth > kMinDriverTags ? depth - 1 : depth + 1;
    if (!sysfs.WriteVerified(NrRequestsPath(disk), std::to_string(other), err)) return false;
  }
  if (!sysfs.WriteVerified(NrRequestsPath(disk), want, err)) {
    *err = "driver tags of " + disk + ": " + *err;
    return false;
  }
  int now = 0;
  std::string debugfs_err;
  if (ReadDriverTags(sysfs, disk, &now, &debugfs_err) && now != depth) {
    *err = "driver tags of " + disk + ": wrote nr_requests=" + want + " under none but debugfs " +
           "shows depth=" + std::to_string(now);
    return false;
  }
  if (previous != "none" && !sysfs.WriteVerified(SchedulerPath(disk), previous, err)) return false;
  return true;
}

}  // namespace elevbench
