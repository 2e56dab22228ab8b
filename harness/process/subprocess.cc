// ChildProcess (subprocess.h): one child run asynchronously, from Start to the reap. Draining
// its captured pipes, the timeout and interrupt rules, SIGTERM then SIGKILL, and the bound on a
// child that outlives SIGKILL. The fork and exec are in subprocess_spawn.cc; RunProcess and the
// other blocking helpers in subprocess_run.cc.

#include "harness/process/subprocess.h"

#include <poll.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <limits>
#include <utility>

#include "harness/core/interrupt.h"
#include "harness/core/stuck_io.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess_internal.h"

namespace elevbench {
namespace {

using subprocess_internal::Errno;
using subprocess_internal::MonotonicSeconds;

constexpr size_t kMaxOutputBytes = 1024 * 1024;  // stdout: the head is kept
constexpr size_t kStderrTailBytes = 64 * 1024;   // stderr: the tail is kept
constexpr size_t kMaxDrainBytes = 1024 * 1024;   // per pipe and round, so a flood cannot starve
constexpr double kPollSliceSeconds = 0.1;        // interrupts are noticed at least this often
constexpr double kNoPidfdSliceSeconds = 0.01;    // exit polling when pidfd_open is unavailable
// After SIGKILL a child can only still be there in an uninterruptible wait (I/O on a disk whose
// FUSE daemon stopped answering): the stuck I/O is broken this long after the kill, and the child
// abandoned this much later again (core/stuck_io.h).
constexpr double kBreakAfterKillSeconds = 10;
constexpr double kAbandonAfterBreakSeconds = 10;

double TimevalSeconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

// wait4's rusage as a ProcessUsage, with the child's wall time.
ProcessUsage UsageOfRusage(double elapsed_seconds, const rusage& r) {
  return {
      .elapsed_seconds = elapsed_seconds,
      .user_seconds = TimevalSeconds(r.ru_utime),
      .system_seconds = TimevalSeconds(r.ru_stime),
      .major_faults = UsageCount(r.ru_majflt),
      .minor_faults = UsageCount(r.ru_minflt),
      .block_input_ops = UsageCount(r.ru_inblock),
      .block_output_ops = UsageCount(r.ru_oublock),
      .voluntary_switches = UsageCount(r.ru_nvcsw),
      .involuntary_switches = UsageCount(r.ru_nivcsw),
  };
}

}  // namespace

ChildProcess::~ChildProcess() { KillAndReap(); }

ChildProcess::ChildProcess(ChildProcess&& other) noexcept { *this = std::move(other); }

ChildProcess& ChildProcess::operator=(ChildProcess&& other) noexcept {
  if (this == &other) return *this;
  KillAndReap();
  state_ = std::exchange(other.state_, State::kIdle);
  pid_ = std::exchange(other.pid_, 0);
  pidfd_ = std::exchange(other.pidfd_, -1);
  out_fd_ = std::exchange(other.out_fd_, -1);
  err_fd_ = std::exchange(other.err_fd_, -1);
  started_at_ = other.started_at_;
  timeout_seconds_ = other.timeout_seconds_;
  kill_grace_seconds_ = other.kill_grace_seconds_;
  stopping_ = other.stopping_;
  killed_ = other.killed_;
  broke_ = other.broke_;
  kill_at_ = other.kill_at_;
  killed_at_ = other.killed_at_;
  name_ = std::move(other.name_);
  wait_error_ = std::move(other.wait_error_);
  result_ = std::move(other.result_);
  return *this;
}

bool ChildProcess::Start(const std::vector<std::string>& argv, const ProcessOptions& options,
                         std::string* err) {
  if (state_ == State::kRunning) {
    *err = "a child (pid " + std::to_string(pid_) + ") is still running";
    return false;
  }
  if (argv.empty()) {
    *err = "no command given";
    return false;
  }
  CloseAll();
  state_ = State::kIdle;
  pid_ = 0;
  stopping_ = killed_ = broke_ = false;
  name_ = argv.empty() ? "" : argv[0];
  wait_error_.clear();
  result_ = ProcessResult{};

  subprocess_internal::SpawnedChild child;
  if (!subprocess_internal::SpawnChild(argv, options, &child, err)) return false;

  pid_ = child.pid;
  state_ = State::kRunning;
  started_at_ = child.started_at;
  timeout_seconds_ = options.timeout_seconds;
  kill_grace_seconds_ = options.kill_grace_seconds;
  out_fd_ = child.out_fd;
  err_fd_ = child.err_fd;
  // Optional: without a pidfd (kernels before 5.3) Wait polls for the exit on a short timer.
  // (The syscall directly: glibc 2.36's <sys/pidfd.h> lacks extern "C".)
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  return true;
}

void ChildProcess::Drain() {
  char buf[16384];
  for (int* fd : {&out_fd_, &err_fd_}) {
    size_t drained = 0;
    while (*fd >= 0 && drained < kMaxDrainBytes) {
      ssize_t got = read(*fd, buf, sizeof buf);
      if (got > 0) {
        const auto n = static_cast<size_t>(got);
        drained += n;
        if (fd == &out_fd_) {
          result_.output.append(buf, std::min(n, kMaxOutputBytes - result_.output.size()));
        } else {
          result_.error_output.append(buf, n);
          if (result_.error_output.size() > 2 * kStderrTailBytes) {
            result_.error_output.erase(0, result_.error_output.size() - kStderrTailBytes);
          }
        }
        continue;
      }
      if (got < 0 && (errno == EAGAIN || errno == EINTR)) break;
      close(*fd);  // EOF, or an error that will not go away
      *fd = -1;
    }
  }
}

void ChildProcess::CloseAll() {
  for (int* fd : {&pidfd_, &out_fd_, &err_fd_}) {
    if (*fd >= 0) close(*fd);
    *fd = -1;
  }
}

void ChildProcess::BeginStop(double grace_seconds, double now) {
  kill(-pid_, SIGTERM);
  stopping_ = true;
  kill_at_ = now + std::max(0.0, grace_seconds);
}

bool ChildProcess::Reap(std::string* err) {
  // The exited leader is still a zombie, so its pid (= the group id) cannot be recycled yet:
  // unregister it and kill stragglers of a stopped group before the reap frees the pid.
  UnregisterChildGroup(pid_);
  if (stopping_) kill(-pid_, SIGKILL);
  int status = 0;
  rusage usage{};
  pid_t w;
  while ((w = wait4(pid_, &status, 0, &usage)) < 0 && errno == EINTR) {
  }
  const int e = errno;
  result_.usage.elapsed_seconds = MonotonicSeconds() - started_at_;
  state_ = State::kExited;
  Drain();  // what the child wrote before it exited
  CloseAll();
  if (result_.error_output.size() > kStderrTailBytes) {
    result_.error_output.erase(0, result_.error_output.size() - kStderrTailBytes);
  }
  if (w != pid_) {
    wait_error_ = "wait for pid " + std::to_string(pid_) + ": " + Errno(e);
    *err = wait_error_;
    return false;
  }
  result_.usage = UsageOfRusage(result_.usage.elapsed_seconds, usage);
  if (WIFEXITED(status)) {
    result_.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result_.term_signal = WTERMSIG(status);
  }
  if (InterruptRequested()) result_.interrupted = true;
  return true;
}

bool ChildProcess::Step(std::string* err) {
  if (state_ != State::kRunning) return true;
  Drain();
  siginfo_t info{};
  if (waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0) {
    if (info.si_pid == pid_) return Reap(err);
  } else if (errno != EINTR) {
    const int e = errno;
    UnregisterChildGroup(pid_);
    state_ = State::kExited;
    result_.usage.elapsed_seconds = MonotonicSeconds() - started_at_;
    CloseAll();
    wait_error_ = "wait for pid " + std::to_string(pid_) + ": " + Errno(e);
    *err = wait_error_;
    return false;
  }
  const double now = MonotonicSeconds();
  if (!stopping_) {
    if (InterruptRequested()) {
      result_.interrupted = true;
      BeginStop(kill_grace_seconds_, now);
    } else if (timeout_seconds_ > 0 && now - started_at_ >= timeout_seconds_) {
      result_.timed_out = true;
      BeginStop(kill_grace_seconds_, now);
    }
  }
  if (stopping_ && !killed_ && now >= kill_at_) {
    kill(-pid_, SIGKILL);
    killed_ = true;
    killed_at_ = now;
  }
  if (killed_ && !broke_ && now >= killed_at_ + kBreakAfterKillSeconds) {
    broke_ = true;
    BreakStuckIo(Describe() + " after SIGKILL", kBreakAfterKillSeconds);
  }
  if (killed_ && now >= killed_at_ + kBreakAfterKillSeconds + kAbandonAfterBreakSeconds) {
    Abandon(err);
    return false;
  }
  return true;
}

std::string ChildProcess::Describe() const {
  return "pid " + std::to_string(pid_) + " (" + name_ + ")";
}

void ChildProcess::Abandon(std::string* err) {
  UnregisterChildGroup(pid_);
  state_ = State::kExited;
  CloseAll();
  result_.term_signal = SIGKILL;
  result_.usage.elapsed_seconds = MonotonicSeconds() - started_at_;
  char seconds[32];
  snprintf(seconds, sizeof seconds, "%g", kBreakAfterKillSeconds + kAbandonAfterBreakSeconds);
  wait_error_ = Describe() + " did not exit " + seconds +
                " s after SIGKILL (an uninterruptible wait); abandoned";
  *err = wait_error_;
}

bool ChildProcess::running() {
  if (state_ != State::kRunning) return false;
  std::string ignored;  // kept in wait_error_ for Wait and Stop
  Step(&ignored);
  return state_ == State::kRunning;
}

bool ChildProcess::Wait(double timeout_seconds, std::string* err) {
  if (state_ == State::kIdle) {
    *err = "no child started";
    return false;
  }
  const double deadline = timeout_seconds < 0 ? std::numeric_limits<double>::infinity()
                                              : MonotonicSeconds() + timeout_seconds;
  for (;;) {
    if (!Step(err)) return false;
    if (state_ == State::kExited) {
      if (wait_error_.empty()) return true;
      *err = wait_error_;
      return false;
    }
    const double now = MonotonicSeconds();
    if (now >= deadline) {
      char seconds[32];
      snprintf(seconds, sizeof seconds, "%g", timeout_seconds);
      *err = "pid " + std::to_string(pid_) + " still running after " + seconds + " s";
      return false;
    }
    double next =
        std::min(deadline, now + (pidfd_ >= 0 ? kPollSliceSeconds : kNoPidfdSliceSeconds));
    if (!stopping_ && timeout_seconds_ > 0) next = std::min(next, started_at_ + timeout_seconds_);
    if (stopping_ && !killed_) next = std::min(next, kill_at_);
    pollfd fds[3];
    nfds_t n = 0;
    for (int fd : {pidfd_, out_fd_, err_fd_}) {
      if (fd >= 0) fds[n++] = {fd, POLLIN, 0};
    }
    const int ms = std::max(1, static_cast<int>(std::ceil((next - now) * 1000)));
    poll(fds, n, ms);  // EINTR (an interrupt) just starts the next round
  }
}

void ChildProcess::AwaitAnyExit(const std::vector<ChildProcess*>& children, double max_seconds) {
  std::vector<pollfd> fds;
  bool unwatched = false;  // a running child without a pidfd
  for (const ChildProcess* child : children) {
    if (child->state_ != State::kRunning) continue;
    if (child->pidfd_ >= 0) {
      fds.push_back({child->pidfd_, POLLIN, 0});
    } else {
      unwatched = true;
    }
  }
  if (fds.empty() && !unwatched) return;
  const double seconds = unwatched ? std::min(max_seconds, kNoPidfdSliceSeconds) : max_seconds;
  const int ms = std::max(0, static_cast<int>(std::ceil(seconds * 1000)));
  poll(fds.data(), fds.size(), ms);  // EINTR (an interrupt): back to the caller's loop
}

bool ChildProcess::Stop(double grace_seconds, std::string* err) {
  if (state_ == State::kIdle) {
    *err = "no child started";
    return false;
  }
  if (state_ == State::kRunning) {
    const double now = MonotonicSeconds();
    if (!stopping_) {
      BeginStop(grace_seconds, now);
    } else {
      kill_at_ = std::min(kill_at_, now + std::max(0.0, grace_seconds));
    }
  }
  return Wait(-1, err);
}

void ChildProcess::KillAndReap() {
  if (state_ == State::kRunning) {
    UnregisterChildGroup(pid_);
    kill(-pid_, SIGKILL);
    int status = 0;
    if (!ReapChildWithin(pid_, kBreakAfterKillSeconds, &status)) {
      BreakStuckIo(Describe() + " after SIGKILL", kBreakAfterKillSeconds);
      if (!ReapChildWithin(pid_, kAbandonAfterBreakSeconds, &status)) {
        std::fprintf(stderr, "elevbench: %s did not exit after SIGKILL; abandoned\n",
                     Describe().c_str());
      }
    }
    state_ = State::kExited;
  }
  CloseAll();
}

}  // namespace elevbench
