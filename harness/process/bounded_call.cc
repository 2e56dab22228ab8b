#include "harness/process/bounded_call.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

#include "harness/core/stuck_io.h"

namespace elevbench {
namespace {

using BoundedClock = std::chrono::steady_clock;

std::string BoundedSecondsText(double s) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", s);
  return text;
}

}  // namespace

bool ReapChildWithin(pid_t pid, double seconds, int* status) {
  const auto deadline = BoundedClock::now() + std::chrono::duration<double>(seconds);
  auto slice = std::chrono::milliseconds(1);
  for (;;) {
    const pid_t w = waitpid(pid, status, WNOHANG);
    if (w == pid) return true;
    if (w < 0 && errno != EINTR) return true;  // not our child (any more)
    if (BoundedClock::now() >= deadline) return false;
    std::this_thread::sleep_for(slice);
    slice = std::min(slice * 2, std::chrono::milliseconds(50));
  }
}

bool RunBounded(const std::string& what, const std::function<int()>& call,
                const BoundedCallLimits& limits, int* call_error, std::string* err) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // Every signal stays blocked (a terminal's Ctrl-C is the caller's to handle); SIGKILL still
    // ends the child if it is not in an uninterruptible wait.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(ECHILD);
    // None of the caller's descriptors: a call still in an uninterruptible wait when the caller
    // is SIGKILLed (a syncfs of dirty data) must not hold the run's journal lock, which would
    // make `elevbench restore` refuse until it ends (seen: "lock … is held by a leftover child").
    syscall(SYS_close_range, 3U, ~0U, 0U);
    _exit(call() & 0xff);
  }
  const int fork_errno = errno;
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (pid < 0) {
    *err = what + ": fork: " + strerror(fork_errno);
    return false;
  }
  int status = 0;
  bool done = ReapChildWithin(pid, limits.deadline_seconds, &status);
  if (!done && limits.break_stuck_io) {
    BreakStuckIo(what, limits.deadline_seconds);
    done = ReapChildWithin(pid, limits.after_break_seconds, &status);
  }
  if (!done) {
    kill(pid, SIGKILL);
    done = ReapChildWithin(pid, 1, &status);
  }
  if (!done) {
    *err = what + " did not finish within " +
           BoundedSecondsText(limits.deadline_seconds + limits.after_break_seconds) +
           " s, even after its disk's stuck I/O was broken; left behind as pid " +
           std::to_string(pid);
    return false;
  }
  if (WIFSIGNALED(status)) {
    *err = what + " was killed by signal " + std::to_string(WTERMSIG(status));
    return false;
  }
  *call_error = WIFEXITED(status) ? WEXITSTATUS(status) : 0;
  return true;
}

bool SyncPathBounded(const std::string& path, const BoundedCallLimits& limits, std::string* err) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    *err = "cannot sync " + path + ": " + strerror(errno);
    return false;
  }
  const bool device = S_ISBLK(st.st_mode);
  const char* p = path.c_str();
  int call_error = 0;
  const std::string what = (device ? "fsync " : "syncfs ") + path;
  if (!RunBounded(
          what,
          [p, device]() -> int {
            const int fd = open(p, (device ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
            if (fd < 0) return errno;
            const int rc = device ? fsync(fd) : syncfs(fd);
            const int e = rc == 0 ? 0 : errno;
            close(fd);
            return e;
          },
          limits, &call_error, err)) {
    return false;
  }
  if (call_error != 0) {
    *err = what + ": " + strerror(call_error);
    return false;
  }
  return true;
}

bool UnmountBounded(const std::string& path, int flags, const BoundedCallLimits& limits,
                    int* call_error, std::string* err) {
  const char* p = path.c_str();
  return RunBounded(
      "umount " + path, [p, flags]() -> int { return umount2(p, flags) == 0 ? 0 : errno; }, limits,
      call_error, err);
}

}  // namespace elevbench
