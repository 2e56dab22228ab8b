#include "harness/disk/daemon_start.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace elevbench {

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
    const pid_t daemon = fork();
    if (daemon == 0) {
      int devnull = open("/dev/null", O_RDWR);
      int log = open(log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(devnull, STDIN_FILENO);
      dup2(log >= 0 ? log : devnull, STDOUT_FILENO);
      dup2(log >= 0 ? log : devnull, STDERR_FILENO);
      signal(SIGINT, SIG_DFL);
      signal(SIGTERM, SIG_DFL);
      signal(SIGHUP, SIG_DFL);
      signal(SIGPIPE, SIG_DFL);
      execv(cargv[0], cargv.data());
      _exit(127);
    }
    ssize_t n;
    do {
      n = write(pipefd[1], &daemon, sizeof daemon);
    } while (n < 0 && errno == EINTR);
    _exit(n == sizeof daemon && daemon > 0 ? 0 : 1);
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
