#include "harness/process/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

#include "harness/core/atomic_file.h"
#include "harness/core/interrupt.h"
#include "harness/core/stuck_io.h"
#include "harness/process/bounded_call.h"

namespace elevbench {
namespace {

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
constexpr double kRunCheckedTimeoutSeconds = 600;  // mkfs, mount, losetup: never without a bound

double MonotonicSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

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

std::string Errno(int e) { return strerror(e); }

// Owns one descriptor; closes it unless released. Keeps Start's error paths leak-free.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { Reset(); }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  int get() const { return fd_; }
  int Release() { return std::exchange(fd_, -1); }
  void Reset(int fd = -1) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

bool MakePipe(UniqueFd* read_end, UniqueFd* write_end, std::string* err) {
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    *err = "pipe: " + Errno(errno);
    return false;
  }
  read_end->Reset(fds[0]);
  write_end->Reset(fds[1]);
  return true;
}

// What the child reports through the CLOEXEC status pipe when it cannot exec. EOF means exec
// succeeded (the pipe closed on exec).
enum ChildStage : int { kStageStdio = 1, kStageChdir = 2, kStageExec = 3 };
struct ChildReport {
  int stage;
  int error;
};

constexpr unsigned kCloseRangeCloexec = 1U << 2;  // CLOSE_RANGE_CLOEXEC (linux/close_range.h)

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void ExecChild(char* const* argv, const char* dir, pid_t parent, int devnull,
                            int out_fd, int err_fd, int status_fd) {
  // If elevbench dies (even by SIGKILL), its children go too: a fio left running would keep the
  // scratch filesystem busy and block the restore. A parent that died before prctl shows as a
  // changed parent pid.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(126);
  setpgid(0, 0);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(sig, &dfl, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);  // the parent blocked everything around fork

  ChildReport report{kStageStdio, 0};
  // Move every source above 2 first, so the dup2s below cannot overwrite one another.
  for (int* fd : {&devnull, &out_fd, &err_fd, &status_fd}) {
    if (*fd >= 0 && *fd <= STDERR_FILENO) *fd = fcntl(*fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
  }
  if (devnull < 0 || out_fd < 0 || dup2(devnull, STDIN_FILENO) < 0 ||
      dup2(out_fd, STDOUT_FILENO) < 0 || dup2(err_fd >= 0 ? err_fd : devnull, STDERR_FILENO) < 0) {
    report.error = errno;
  } else if (syscall(SYS_close_range, 3U, ~0U, kCloseRangeCloexec) != 0 && errno != ENOSYS &&
             errno != EINVAL) {
    // Only stdin, stdout and stderr reach the program: not the run's lock files, journal, pipes
    // or a descriptor of the disk (CLOEXEC, so the status pipe still reports a failed exec).
    report.error = errno;
  } else if (dir != nullptr && chdir(dir) != 0) {
    report = {kStageChdir, errno};
  } else {
    execvp(argv[0], argv);
    report = {kStageExec, errno};
  }
  ssize_t ignored = write(status_fd, &report, sizeof report);
  (void)ignored;
  _exit(127);
}

// Reads the child's report: 0 bytes (exec succeeded) or a whole ChildReport.
ssize_t ReadReport(int fd, ChildReport* report) {
  size_t got = 0;
  auto* p = reinterpret_cast<char*>(report);
  while (got < sizeof *report) {
    ssize_t n = read(fd, p + got, sizeof *report - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(got);
}

void ReapBlocking(pid_t pid, int* status, rusage* usage) {
  while (wait4(pid, status, 0, usage) < 0 && errno == EINTR) {
  }
}

// The child's descriptors: its stdout (a file or a pipe), its stderr (a pipe when captured),
// /dev/null for stdin, and the status pipe of ExecChild's report. All CLOEXEC.
struct ChildFds {
  UniqueFd out_read, out_write, err_read, err_write, devnull, status_read, status_write;
};

bool OpenChildFds(const ProcessOptions& options, ChildFds* fds, std::string* err) {
  if (!options.stdout_path.empty()) {
    fds->out_write.Reset(
        open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    if (fds->out_write.get() < 0) {
      *err = "cannot write " + options.stdout_path + ": " + Errno(errno);
      return false;
    }
  } else if (!MakePipe(&fds->out_read, &fds->out_write, err)) {
    return false;
  }
  if (options.capture_stderr && !MakePipe(&fds->err_read, &fds->err_write, err)) return false;
  fds->devnull.Reset(open("/dev/null", O_RDWR | O_CLOEXEC));
  if (fds->devnull.get() < 0) {
    *err = "cannot open /dev/null: " + Errno(errno);
    return false;
  }
  return MakePipe(&fds->status_read, &fds->status_write, err);
}

// Forks and execs argv. Returns the child's pid, or -1 with *err when fork fails; *start is
// the time just before the fork, *registered whether its group is registered for signal
// forwarding. On success the parent's copies of the child's ends are closed.
pid_t ForkChild(const std::vector<std::string>& argv, const ProcessOptions& options, ChildFds* fds,
                double* start, bool* registered, std::string* err) {
  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);
  const char* dir = options.working_directory.empty() ? nullptr : options.working_directory.c_str();
  const pid_t parent = getpid();

  // Block every signal around fork: the child must not run elevbench's handlers before it resets
  // them, and the group is registered for forwarding before any handler can run here.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  *start = MonotonicSeconds();
  const pid_t pid = fork();
  if (pid == 0) {
    ExecChild(cargv.data(), dir, parent, fds->devnull.get(), fds->out_write.get(),
              fds->err_write.get(), fds->status_write.get());
  }
  if (pid < 0) {
    const int e = errno;
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    *err = "fork: " + Errno(e);
    return -1;
  }
  setpgid(pid, pid);  // also in the parent, to win the race with the child
  *registered = RegisterChildGroup(pid);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  fds->out_write.Reset();
  fds->err_write.Reset();
  fds->devnull.Reset();
  fds->status_write.Reset();
  return pid;
}

// A child that did not start (it reported a failure, or its group could not be registered):
// unregisters it, kills it if it is executing, reaps it; returns the one-line error.
std::string AbandonChild(pid_t pid, bool registered, ssize_t got, const ChildReport& report,
                         const std::vector<std::string>& argv, const ProcessOptions& options) {
  if (registered) UnregisterChildGroup(pid);
  if (got == 0) kill(-pid, SIGKILL);  // it is executing; registry full
  int status = 0;
  rusage usage{};
  ReapBlocking(pid, &status, &usage);
  if (!registered) {
    return "too many children (" + std::to_string(kMaxChildGroups) + ") to forward signals to";
  }
  if (got != static_cast<ssize_t>(sizeof report)) {
    return "cannot start " + argv[0] + ": short report from the child";
  }
  if (report.stage == kStageChdir) {
    return "cannot enter working directory " + options.working_directory + " for " + argv[0] +
           ": " + Errno(report.error);
  }
  if (report.stage == kStageExec) return "cannot execute " + argv[0] + ": " + Errno(report.error);
  return "cannot set up stdin/stdout/stderr for " + argv[0] + ": " + Errno(report.error);
}

}  // namespace

bool ProgramInPath(const std::string& program) {
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* path = getenv("PATH");
  std::string dirs = path ? path : "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string candidate = dirs.substr(start, end - start) + "/" + program;
    if (access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::string LastLine(const std::string& text) {
  size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  size_t begin = text.rfind('\n', end);
  begin = begin == std::string::npos ? 0 : begin + 1;
  return text.substr(begin, end - begin + 1);
}

// ---- ChildProcess ----

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

  ChildFds fds;
  if (!OpenChildFds(options, &fds, err)) return false;
  double start = 0;
  bool registered = false;
  const pid_t pid = ForkChild(argv, options, &fds, &start, &registered, err);
  if (pid < 0) return false;

  ChildReport report{};
  const ssize_t got = ReadReport(fds.status_read.get(), &report);
  if (got != 0 || !registered) {
    *err = AbandonChild(pid, registered, got, report, argv, options);
    return false;
  }

  pid_ = pid;
  state_ = State::kRunning;
  started_at_ = start;
  timeout_seconds_ = options.timeout_seconds;
  kill_grace_seconds_ = options.kill_grace_seconds;
  for (UniqueFd* fd : {&fds.out_read, &fds.err_read}) {
    if (fd->get() >= 0) fcntl(fd->get(), F_SETFL, fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
  }
  out_fd_ = fds.out_read.Release();
  err_fd_ = fds.err_read.Release();
  // Optional: without a pidfd (kernels before 5.3) Wait polls for the exit on a short timer.
  // (The syscall directly: glibc 2.36's <sys/pidfd.h> lacks extern "C".)
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
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

// ---- RunProcess / RunChecked ----

bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                ProcessResult* result, std::string* err) {
  *result = ProcessResult{};
  ChildProcess child;
  if (!child.Start(argv, options, err)) return false;
  const bool ok = child.Wait(-1, err);
  *result = child.result();
  return ok;
}

bool RunChecked(const std::vector<std::string>& argv, std::string* output, std::string* err) {
  ProcessResult r;
  ProcessOptions options;
  options.timeout_seconds = kRunCheckedTimeoutSeconds;
  if (!RunProcess(argv, options, &r, err)) return false;
  if (r.timed_out) {
    char seconds[32];
    snprintf(seconds, sizeof seconds, "%g", kRunCheckedTimeoutSeconds);
    *err = argv[0] + " did not finish within " + seconds + " s";
    return false;
  }
  if (output) *output = r.output;
  if (r.exit_code != 0) {
    std::string why = LastLine(r.error_output);
    if (why.empty()) why = LastLine(r.output);
    *err = argv[0] + " failed" +
           (r.term_signal ? " (signal " + std::to_string(r.term_signal) + ")"
                          : " (exit " + std::to_string(r.exit_code) + ")") +
           (why.empty() ? "" : ": " + why);
    return false;
  }
  return true;
}

std::string HowItEnded(const ProcessResult& result) {
  return result.term_signal != 0 ? "signal " + std::to_string(result.term_signal)
                                 : "exit " + std::to_string(result.exit_code);
}

uint64_t ProcessReadChars(pid_t pid) {
  std::string text, ignored;
  if (!ReadWholeFile("/proc/" + std::to_string(pid) + "/io", &text, &ignored)) return 0;
  unsigned long long rchar = 0;
  const size_t at = text.find("rchar:");
  if (at == std::string::npos || std::sscanf(text.c_str() + at, "rchar: %llu", &rchar) != 1) {
    return 0;
  }
  return rchar;
}

}  // namespace elevbench
