#include "harness/disk/daemon_start.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace elevbench {

namespace {

// `head`, the number `value` (0..999) and a newline into `line` (96 bytes), without stdio: the
// watcher is a fork of a threaded process.
size_t FormatDaemonEnd(char* line, const char* head, int value) {
  size_t n = 0;
  while (head[n] != '\0' && n < 80) {
    line[n] = head[n];
    ++n;
  }
  const int v = value < 0 ? 0 : value % 1000;
  if (v >= 100) line[n++] = static_cast<char>('0' + v / 100);
  if (v >= 10) line[n++] = static_cast<char>('0' + v / 10 % 10);
  line[n++] = static_cast<char>('0' + v % 10);
  line[n++] = '\n';
  return n;
}

// In the watcher (a forked copy of the caller, so only async-signal-safe calls): forks the
// daemon, sends its pid on `pipe_out`, waits for it and appends "elevbench disk daemon: killed
// by signal N" or "... exited with status N" to the log. Never returns.
[[noreturn]] void WatchDaemon(std::vector<char*>& cargv, const std::string& log_path,
                              int pipe_out) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGCHLD}) signal(sig, SIG_DFL);
  const int devnull = open("/dev/null", O_RDWR);
  for (int fd = 0; fd <= 2; ++fd) dup2(devnull, fd);
  // Everything above stderr but the pipe: the caller's lock files, sockets, the results file.
  if (pipe_out > 3) syscall(SYS_close_range, 3U, static_cast<unsigned>(pipe_out - 1), 0U);
  syscall(SYS_close_range, static_cast<unsigned>(pipe_out + 1), ~0U, 0U);
  const pid_t daemon = fork();
  if (daemon == 0) {
    const int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (log >= 0) {
      dup2(log, STDOUT_FILENO);
      dup2(log, STDERR_FILENO);
    }
    execv(cargv[0], cargv.data());
    _exit(127);
  }
  ssize_t n;
  do {
    n = write(pipe_out, &daemon, sizeof daemon);
  } while (n < 0 && errno == EINTR);
  close(pipe_out);
  if (daemon <= 0) _exit(1);
  int status = 0;
  while (waitpid(daemon, &status, 0) < 0 && errno == EINTR) {
  }
  // Appended only to a log that is still there (the restore may have removed it already).
  const int log = open(log_path.c_str(), O_WRONLY | O_APPEND);
  if (log >= 0) {
    char line[96];
    const char* head =
        WIFSIGNALED(status) ? kDaemonKilledBySignal : "elevbench disk daemon: exited with status ";
    const size_t len =
        FormatDaemonEnd(line, head, WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
    (void)!write(log, line, len);
    close(log);
  }
  _exit(0);
}

}  // namespace

bool StartDetachedDaemon(const std::vector<std::string>& argv, const std::string& log_path,
                         pid_t* pid, std::string* err) {
  if (argv.empty()) {
    *err = "no daemon command";
    return false;
  }
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (std::string& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  int pipefd[2];
  if (pipe2(pipefd, O_CLOEXEC) != 0) {
    *err = std::string("pipe: ") + strerror(errno);
    return false;
  }
  const pid_t child = fork();
  if (child < 0) {
    *err = std::string("fork: ") + strerror(errno);
    close(pipefd[0]);
    close(pipefd[1]);
    return false;
  }
  if (child == 0) {
    setsid();
    // The watcher: the daemon's parent, which reaps it at once and appends how it ended to the
    // log (only a parent can learn that a SIGKILL ended it). It keeps no descriptor of ours (the
    // journal's lock must not outlive the run in it) and dies by default signals.
    const pid_t watcher = fork();
    if (watcher == 0) WatchDaemon(cargv, log_path, pipefd[1]);
    _exit(watcher > 0 ? 0 : 1);
  }
  close(pipefd[1]);
  pid_t daemon = -1;
  ssize_t n;
  do {
    n = read(pipefd[0], &daemon, sizeof daemon);
  } while (n < 0 && errno == EINTR);
  close(pipefd[0]);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (n != sizeof daemon || daemon <= 0) {
    *err = "could not start " + argv[0];
    return false;
  }
  *pid = daemon;
  return true;
}

}  // namespace elevbench
