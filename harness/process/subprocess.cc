#include "harness/process/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "harness/core/interrupt.h"

namespace elevbench {
namespace {

constexpr size_t kMaxCapturedBytes = 64 * 1024;

double MonotonicSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

double TimevalSeconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

void AppendCapped(std::string* dst, const char* data, size_t n) {
  if (dst->size() >= kMaxCapturedBytes * 16) return;
  dst->append(data, n);
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

bool RunProcess(const std::vector<std::string>& argv, const ProcessOptions& options,
                ProcessResult* result, std::string* err) {
  *result = ProcessResult{};
  if (argv.empty()) {
    *err = "no command given";
    return false;
  }
  if (!ProgramInPath(argv[0])) {
    *err = argv[0] + " not found in PATH";
    return false;
  }
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  int out_fd = -1;
  if (!options.stdout_path.empty()) {
    out_fd = open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (out_fd < 0) {
      *err = "cannot write " + options.stdout_path + ": " + strerror(errno);
      return false;
    }
  } else if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + strerror(errno);
    return false;
  }
  if (options.capture_stderr && pipe2(err_pipe, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + strerror(errno);
    return false;
  }

  std::vector<char*> cargv;
  for (const std::string& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
  cargv.push_back(nullptr);

  double start = MonotonicSeconds();
  pid_t pid = fork();
  if (pid < 0) {
    *err = std::string("fork: ") + strerror(errno);
    return false;
  }
  if (pid == 0) {
    // If elevbench dies (even by SIGKILL), its children go too: a fio left running would keep
    // the scratch filesystem busy and block the restore.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() == 1) _exit(126);
    setpgid(0, 0);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, STDIN_FILENO);
    dup2(out_fd >= 0 ? out_fd : out_pipe[1], STDOUT_FILENO);
    dup2(options.capture_stderr ? err_pipe[1] : devnull, STDERR_FILENO);
    if (!options.working_directory.empty() && chdir(options.working_directory.c_str()) != 0) {
      _exit(126);
    }
    execvp(cargv[0], cargv.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also in the parent, to win the race with the child
  SetForegroundChild(pid);
  if (out_fd >= 0) close(out_fd);
  if (out_pipe[1] >= 0) close(out_pipe[1]);
  if (err_pipe[1] >= 0) close(err_pipe[1]);

  bool sent_term = false;
  double kill_at = 0;
  char buf[16384];
  int open_fds = (out_pipe[0] >= 0) + (err_pipe[0] >= 0);
  int status = 0;
  rusage usage{};
  for (;;) {
    // Drain output without blocking the child on a full pipe.
    if (open_fds > 0) {
      pollfd fds[2];
      int n = 0;
      if (out_pipe[0] >= 0) fds[n++] = {out_pipe[0], POLLIN, 0};
      if (err_pipe[0] >= 0) fds[n++] = {err_pipe[0], POLLIN, 0};
      int rc = poll(fds, static_cast<nfds_t>(n), 200);
      for (int i = 0; rc > 0 && i < n; ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t got = read(fds[i].fd, buf, sizeof buf);
        bool is_out = fds[i].fd == out_pipe[0];
        if (got > 0) {
          AppendCapped(is_out ? &result->output : &result->error_output, buf,
                       static_cast<size_t>(got));
        } else if (got == 0 || (got < 0 && errno != EINTR)) {
          close(fds[i].fd);
          (is_out ? out_pipe[0] : err_pipe[0]) = -1;
          --open_fds;
        }
      }
    }
    pid_t w = wait4(pid, &status, open_fds > 0 ? WNOHANG : 0, &usage);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      *err = std::string("wait4: ") + strerror(errno);
      SetForegroundChild(0);
      return false;
    }
    double now = MonotonicSeconds();
    bool timeout = options.timeout_seconds > 0 && now - start > options.timeout_seconds;
    if ((InterruptRequested() || timeout) && !sent_term) {
      result->timed_out = timeout && !InterruptRequested();
      result->interrupted = InterruptRequested();
      kill(-pid, SIGTERM);
      sent_term = true;
      kill_at = now + 5.0;
    } else if (sent_term && now > kill_at) {
      kill(-pid, SIGKILL);
      kill_at = now + 3600;
    }
    if (open_fds == 0 && w == 0) {
      timespec ts{0, 20 * 1000 * 1000};
      nanosleep(&ts, nullptr);
    }
  }
  SetForegroundChild(0);
  if (out_pipe[0] >= 0) close(out_pipe[0]);
  if (err_pipe[0] >= 0) close(err_pipe[0]);
  if (result->error_output.size() > kMaxCapturedBytes) {
    result->error_output.erase(0, result->error_output.size() - kMaxCapturedBytes);
  }
  result->wall_seconds = MonotonicSeconds() - start;
  result->user_seconds = TimevalSeconds(usage.ru_utime);
  result->system_seconds = TimevalSeconds(usage.ru_stime);
  if (WIFEXITED(status)) {
    result->exit_code = WEXITSTATUS(status);
    if (result->exit_code == 127) {
      *err = "could not execute " + argv[0];
      return false;
    }
  } else if (WIFSIGNALED(status)) {
    result->term_signal = WTERMSIG(status);
  }
  if (InterruptRequested()) result->interrupted = true;
  return true;
}

bool RunChecked(const std::vector<std::string>& argv, std::string* output, std::string* err) {
  ProcessResult r;
  if (!RunProcess(argv, ProcessOptions{}, &r, err)) return false;
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

}  // namespace elevbench
