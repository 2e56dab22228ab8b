#include "harness/device/fuse_connection.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/mountinfo.h"
#include "harness/core/system_info.h"
#include "harness/device/journal_undo.h"
#include "harness/process/bounded_call.h"

namespace elevbench {
namespace {

// The abort file of `connection` and, when fusectl is not mounted on the host, where a private
// namespace mounts it. Writes "1"; returns 0 or an errno. Runs in a forked child.
int WriteAbortInChild(const char* abort_path, bool private_mount) {
  if (private_mount) {
    if (unshare(CLONE_NEWNS) != 0) return errno;
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return errno;
    if (mount("fusectl", kFuseConnectionsDir, "fusectl", MS_NOSUID | MS_NODEV | MS_NOEXEC,
              nullptr) != 0) {
      return errno;
    }
  }
  const int fd = open(abort_path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  const int rc = write(fd, "1", 1) == 1 ? 0 : errno;
  close(fd);
  return rc;
}

// fusectl is mounted when its directory is a mountpoint of its own (not sysfs's directory).
bool FusectlMounted() {
  std::string mountinfo, ignored;
  if (!ReadWholeFile("/proc/self/mountinfo", &mountinfo, &ignored)) return false;
  for (const MountinfoEntry& m : ParseMountinfo(mountinfo)) {
    if (m.mount_point == kFuseConnectionsDir) return true;
  }
  return false;
}

bool ProcessStopped(pid_t pid, uint64_t start_time) {
  uint64_t start = 0;
  std::string comm;
  char state = '?';
  return ReadProcStat(pid, &start, &comm, &state) && start == start_time &&
         (state == 'T' || state == 't');
}

// The entry's connection, if it is still mounted at the entry's path with the journaled number.
bool JournaledConnectionMounted(const JournalEntry& e, unsigned* connection) {
  unsigned now = 0;
  std::string ignored;
  if (!FuseConnectionOf(e.path, &now, &ignored)) return false;
  if (std::to_string(now) != e.original) return false;
  *connection = now;
  return true;
}

}  // namespace

bool FuseConnectionFromMountinfo(std::string_view mountinfo, const std::string& mountpoint,
                                 unsigned* connection) {
  for (const MountinfoEntry& m : ParseMountinfo(mountinfo)) {
    if (m.mount_point != mountpoint) continue;
    const std::string& fstype = m.fstype;
    if (fstype != "fuse" && fstype.rfind("fuse.", 0) != 0 && fstype != "fuseblk" &&
        fstype.rfind("fuseblk.", 0) != 0) {
      continue;
    }
    unsigned major = 0, minor = 0;
    char colon = 0;
    std::istringstream numbers(m.devno);
    if (!(numbers >> major >> colon >> minor) || colon != ':' || major >= (1U << 12) ||
        minor >= (1U << 20)) {
      continue;
    }
    *connection = (major << 20) | minor;
    return true;
  }
  return false;
}

bool FuseConnectionOf(const std::string& mountpoint, unsigned* connection, std::string* err) {
  std::string mountinfo;
  if (!ReadWholeFile("/proc/self/mountinfo", &mountinfo, err)) return false;
  if (!FuseConnectionFromMountinfo(mountinfo, mountpoint, connection)) {
    *err = "no FUSE filesystem is mounted at " + mountpoint;
    return false;
  }
  return true;
}

bool AbortFuseConnection(unsigned connection, std::string* err) {
  const std::string dir = std::string(kFuseConnectionsDir) + "/" + std::to_string(connection);
  const std::string abort_path = dir + "/abort";
  const bool private_mount = !FusectlMounted();
  const char* p = abort_path.c_str();
  int call_error = 0;
  BoundedCallLimits limits;
  limits.deadline_seconds = 5;
  limits.break_stuck_io = false;  // this is what a breaker does
  if (!RunBounded(
          "abort of FUSE connection " + std::to_string(connection),
          [p, private_mount] { return WriteAbortInChild(p, private_mount); }, limits, &call_error,
          err)) {
    return false;
  }
  if (call_error == ENOENT) return true;  // the connection is already gone
  if (call_error != 0) {
    *err = "cannot abort FUSE connection " + std::to_string(connection) + " (" + abort_path +
           (private_mount ? ", fusectl mounted privately" : "") + "): " + strerror(call_error);
    return false;
  }
  return true;
}

bool FuseDaemonAnswers(const std::string& mountpoint, double seconds) {
  const char* p = mountpoint.c_str();
  BoundedCallLimits limits;
  limits.deadline_seconds = seconds;
  limits.break_stuck_io = false;  // the caller decides what to do about a silent daemon
  int call_error = 0;
  std::string err;
  const bool returned = RunBounded(
      "statfs " + mountpoint,
      [p]() -> int {
        struct statfs st {};
        return statfs(p, &st) == 0 ? 0 : errno;
      },
      limits, &call_error, &err);
  return returned && call_error == 0;
}

FuseDaemonCheck UnblockFuseDaemon(const JournalEntry& e, double answer_seconds, std::string* line) {
  const std::string what = "the FUSE daemon of " + e.path + " (pid " + std::to_string(e.pid) + ")";
  unsigned connection = 0;
  if (!JournaledConnectionMounted(e, &connection)) {
    *line = "FUSE connection " + e.original + " of " + e.path + " is gone";
    return FuseDaemonCheck::kGone;
  }
  std::string resumed;
  if (ProcessStopped(e.pid, e.start_time)) {
    kill(e.pid, SIGCONT);
    resumed = " (it was stopped: sent SIGCONT)";
  }
  if (FuseDaemonAnswers(e.path, answer_seconds)) {
    *line = what + " answers" + resumed;
    return FuseDaemonCheck::kAnswering;
  }
  std::string err;
  if (!AbortFuseConnection(connection, &err)) {
    *line = "FAILED " + what + " does not answer and " + err;
    return FuseDaemonCheck::kFailed;
  }
  char seconds[32];
  snprintf(seconds, sizeof seconds, "%g", answer_seconds);
  *line = what + " did not answer within " + seconds + " s" + resumed +
          ": aborted its FUSE connection " + std::to_string(connection);
  return FuseDaemonCheck::kAborted;
}

std::string AbortJournaledFuseConnection(const JournalEntry& e) {
  unsigned connection = 0;
  if (!JournaledConnectionMounted(e, &connection)) return "";
  std::string err;
  if (!AbortFuseConnection(connection, &err)) return "could not abort: " + err;
  return "aborted the FUSE connection " + std::to_string(connection) + " of " + e.path;
}

}  // namespace elevbench
