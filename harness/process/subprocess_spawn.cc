// Starting a child (subprocess.h): its descriptors, the fork, the exec in the child with its
// process group, death signal and clean descriptor table, and the exec's report through the
// status pipe. ChildProcess (subprocess.cc) runs and reaps what this starts.

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/interrupt.h"
#include "harness/process/subprocess.h"
#include "harness/process/subprocess_internal.h"

namespace elevbench::subprocess_internal {
namespace {

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
enum ChildStage : int { kStageStdio = 1, kStageChdir = 2, kStageExec = 3, kStagePlacement = 4 };
struct ChildReport {
  int stage;
  int error;
};

constexpr unsigned kCloseRangeCloexec = 1U << 2;  // CLOSE_RANGE_CLOEXEC (linux/close_range.h)
constexpr int kIoprioWhoProcess = 1;              // IOPRIO_WHO_PROCESS (linux/ioprio.h)

// The child's ProcessPlacement, as the forked child reads it: no allocation after fork.
struct ChildPlacement {
  int ioprio = -1;
  const char* const* cgroup_procs = nullptr;  // null-terminated
};

// Runs in the forked child: moves it into each cgroup (writing "0", itself, to cgroup.procs)
// and sets its I/O priority. Only async-signal-safe calls. 0, or the errno of the failure.
int PlaceChild(const ChildPlacement& placement) {
  for (const char* const* p = placement.cgroup_procs; p != nullptr && *p != nullptr; ++p) {
    const int fd = open(*p, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    const bool ok = write(fd, "0", 1) == 1;
    const int e = errno;
    close(fd);
    if (!ok) return e;
  }
  if (placement.ioprio >= 0 &&
      syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, placement.ioprio) != 0) {
    return errno;
  }
  return 0;
}

// Runs in the forked child: only async-signal-safe calls until exec.
[[noreturn]] void ExecChild(char* const* argv, const char* dir, const ChildPlacement& placement,
                            pid_t parent, int devnull, int out_fd, int err_fd, int status_fd) {
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
  } else if (const int e = PlaceChild(placement); e != 0) {
    report = {kStagePlacement, e};
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
  std::vector<const char*> procs;
  for (const std::string& p : options.placement.cgroup_procs) procs.push_back(p.c_str());
  procs.push_back(nullptr);
  const ChildPlacement placement{options.placement.ioprio, procs.data()};
  const pid_t parent = getpid();

  // Block every signal around fork: the child must not run elevbench's handlers before it resets
  // them, and the group is registered for forwarding before any handler can run here.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  *start = MonotonicSeconds();
  const pid_t pid = fork();
  if (pid == 0) {
    ExecChild(cargv.data(), dir, placement, parent, fds->devnull.get(), fds->out_write.get(),
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
  if (report.stage == kStagePlacement) {
    return "cannot place " + argv[0] +
           " in its cgroups or I/O priority (--controls): " + Errno(report.error);
  }
  return "cannot set up stdin/stdout/stderr for " + argv[0] + ": " + Errno(report.error);
}

}  // namespace

bool SpawnChild(const std::vector<std::string>& argv, const ProcessOptions& options,
                SpawnedChild* child, std::string* err) {
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

  for (UniqueFd* fd : {&fds.out_read, &fds.err_read}) {
    if (fd->get() >= 0) fcntl(fd->get(), F_SETFL, fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
  }
  child->pid = pid;
  child->started_at = start;
  child->out_fd = fds.out_read.Release();
  child->err_fd = fds.err_read.Release();
  return true;
}

}  // namespace elevbench::subprocess_internal
