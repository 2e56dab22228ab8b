// Child processes: timeouts without pipes, no descriptor leaks on failed starts, exec failure
// reported apart from exit code 127, the exact stderr tail, and the asynchronous ChildProcess.

#include "harness/process/subprocess.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "harness/core/interrupt.h"
#include "harness/process/bounded_call.h"
#include "test_util.h"

namespace elevbench {
namespace {

double Now() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

// The open descriptors of this process (fcntl, so it works without /proc access too).
std::set<int> OpenFds() {
  std::set<int> fds;
  for (int fd = 0; fd < 4096; ++fd) {
    if (fcntl(fd, F_GETFD) != -1) fds.insert(fd);
  }
  return fds;
}

// True if no exited child of this process waits to be reaped.
bool NoZombieChildren() {
  siginfo_t info{};
  int rc = waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT);
  return (rc < 0 && errno == ECHILD) || (rc == 0 && info.si_pid == 0);
}

// Gone, or a zombie of some other parent (e.g. re-parented to a container init that never reaps).
bool GoneOrZombie(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  if (!in) return true;
  std::string stat;
  std::getline(in, stat);
  size_t paren = stat.rfind(')');
  return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] == 'Z';
}

const std::vector<std::string> kTrue = {"true"};

// A shell that ignores SIGTERM (and passes that on to its sleep) and says so on stdout.
const std::vector<std::string> kIgnoresTerm = {"sh", "-c", "trap '' TERM; echo ready; sleep 60"};

// Waits until the child's captured stdout contains `text` (at most 10 s).
bool WaitForOutput(ChildProcess* child, const std::string& text) {
  std::string err;
  for (double t0 = Now(); Now() - t0 < 10;) {
    if (child->result().output.find(text) != std::string::npos) return true;
    if (child->Wait(0.02, &err)) return false;  // exited
  }
  return false;
}

TEST(SubprocessTest, TimeoutKillsAChildThatIgnoresTermAndClosedItsPipes) {
  ProcessOptions opts;
  opts.timeout_seconds = 0.5;
  opts.kill_grace_seconds = 0.5;
  ProcessResult r;
  std::string err;
  double t0 = Now();
  ASSERT_TRUE(
      RunProcess({"sh", "-c", "trap '' TERM; exec >/dev/null 2>&1; sleep 60"}, opts, &r, &err))
      << err;
  double elapsed = Now() - t0;
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.term_signal, SIGKILL);
  EXPECT_EQ(r.exit_code, -1);
  EXPECT_GE(elapsed, 0.95);  // timeout + grace
  EXPECT_LT(elapsed, 5.0);   // not the 60 s of the sleep
  EXPECT_NEAR(r.usage.elapsed_seconds, elapsed, 0.2);
}

TEST(SubprocessTest, TimeoutFiresWhenStdoutGoesToAFile) {
  ProcessOptions opts;
  opts.stdout_path = "/dev/null";
  opts.capture_stderr = false;
  opts.timeout_seconds = 0.3;
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess({"sleep", "60"}, opts, &r, &err)) << err;
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.term_signal, SIGTERM);  // sleep obeys SIGTERM: no grace needed
  EXPECT_GE(r.usage.elapsed_seconds, 0.3);
  EXPECT_LT(r.usage.elapsed_seconds, 3.0);
}

TEST(SubprocessTest, StdoutFileReceivesTheOutput) {
  testing::ScopedTempDir dir;
  ProcessOptions opts;
  opts.stdout_path = dir.path() + "/out.txt";
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess({"sh", "-c", "echo hello; echo oops >&2"}, opts, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.output, "");
  EXPECT_EQ(r.error_output, "oops\n");
  EXPECT_EQ(testing::ReadTestFile(opts.stdout_path), "hello\n");
}

// Restores RLIMIT_NOFILE when it goes out of scope.
class NofileLimit {
 public:
  NofileLimit() { getrlimit(RLIMIT_NOFILE, &saved_); }
  ~NofileLimit() { setrlimit(RLIMIT_NOFILE, &saved_); }
  // Lowers the soft limit so that exactly `free_slots` descriptor numbers are still free.
  bool LeaveFree(int free_slots) {
    std::set<int> open = OpenFds();
    int limit = 0, free_below = 0;
    while (free_below < free_slots || open.count(limit) > 0) {
      if (open.count(limit) == 0) ++free_below;
      ++limit;
    }
    rlimit lowered = saved_;
    lowered.rlim_cur = static_cast<rlim_t>(limit);
    return setrlimit(RLIMIT_NOFILE, &lowered) == 0;
  }

 private:
  rlimit saved_{};
};

TEST(SubprocessTest, FailedStartsCloseEveryDescriptor) {
  // Start needs 7 descriptors (stdout pipe, stderr pipe, /dev/null, status pipe; the pidfd is
  // optional). With 0..6 free, each of its opens fails in turn with EMFILE.
  for (int free_slots = 0; free_slots <= 7; ++free_slots) {
    SCOPED_TRACE("free descriptors: " + std::to_string(free_slots));
    const std::set<int> before = OpenFds();
    ChildProcess child;
    std::string err;
    bool started;
    {
      NofileLimit limit;
      ASSERT_TRUE(limit.LeaveFree(free_slots));
      started = child.Start(kTrue, ProcessOptions{}, &err);
    }
    if (free_slots < 7) {
      EXPECT_FALSE(started);
      EXPECT_NE(err.find(strerror(EMFILE)), std::string::npos) << err;
    } else {
      ASSERT_TRUE(started) << err;  // no pidfd: Wait polls on a timer
      ASSERT_TRUE(child.Wait(5, &err)) << err;
      EXPECT_EQ(child.result().exit_code, 0);
    }
    EXPECT_EQ(OpenFds(), before);
  }
}

TEST(SubprocessTest, FailedForkClosesEveryDescriptor) {
  // fork fails with EAGAIN under RLIMIT_NPROC = 0, which root ignores: the check runs in a
  // helper process that drops to nobody first.
  pid_t helper = fork();
  ASSERT_GE(helper, 0);
  if (helper == 0) {
    if (geteuid() == 0 && setuid(65534) != 0) _exit(77);
    rlimit none{0, 0};
    if (setrlimit(RLIMIT_NPROC, &none) != 0) _exit(77);
    const std::set<int> before = OpenFds();
    ChildProcess child;
    std::string err;
    if (child.Start(kTrue, ProcessOptions{}, &err)) _exit(1);
    if (err != std::string("fork: ") + strerror(EAGAIN)) _exit(2);
    if (OpenFds() != before) _exit(3);
    if (RegisteredChildGroupCount() != 0) _exit(4);
    _exit(0);
  }
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(helper, 300, &status))
      << "pid " << helper << " still running after 300 s";
  ASSERT_TRUE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 77) GTEST_SKIP() << "cannot drop privileges to provoke EAGAIN";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: started, 2: wrong message, 3: fd leak, 4: registered";
}

TEST(SubprocessTest, FullForwardingRegistryRefusesTheStart) {
  const std::set<int> before = OpenFds();
  std::vector<pid_t> fake;  // above any pid_max, so a stray forward hits nothing
  for (int i = 0; i < kMaxChildGroups; ++i) {
    if (RegisterChildGroup(4194304 + 1 + i)) fake.push_back(4194304 + 1 + i);
  }
  ChildProcess child;
  std::string err;
  EXPECT_FALSE(child.Start({"sleep", "60"}, ProcessOptions{}, &err));
  EXPECT_NE(err.find("too many children"), std::string::npos) << err;
  for (pid_t pgid : fake) UnregisterChildGroup(pgid);
  EXPECT_EQ(OpenFds(), before);
  EXPECT_TRUE(NoZombieChildren());
}

TEST(SubprocessTest, ExitCode127IsTheChildsOwn) {
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess({"sh", "-c", "exit 127"}, ProcessOptions{}, &r, &err)) << err;
  EXPECT_EQ(r.exit_code, 127);
  EXPECT_EQ(r.term_signal, 0);
}

TEST(SubprocessTest, ExecFailureIsAStartFailureWithErrno) {
  testing::ScopedTempDir dir;
  const std::string script = dir.path() + "/not-executable";
  { std::ofstream(script) << "#!/bin/sh\nexit 0\n"; }
  ASSERT_EQ(chmod(script.c_str(), 0644), 0);
  const std::set<int> before = OpenFds();
  ProcessResult r;
  std::string err;
  EXPECT_FALSE(RunProcess({script}, ProcessOptions{}, &r, &err));
  EXPECT_EQ(err, "cannot execute " + script + ": " + strerror(EACCES));
  EXPECT_FALSE(RunProcess({"elevbench-no-such-program"}, ProcessOptions{}, &r, &err));
  EXPECT_EQ(err, std::string("cannot execute elevbench-no-such-program: ") + strerror(ENOENT));
  EXPECT_EQ(OpenFds(), before);
  EXPECT_TRUE(NoZombieChildren());
}

TEST(SubprocessTest, BadWorkingDirectoryIsAStartFailureWithErrno) {
  const std::set<int> before = OpenFds();
  ProcessOptions opts;
  opts.working_directory = "/nonexistent/elevbench-dir";
  ProcessResult r;
  std::string err;
  EXPECT_FALSE(RunProcess(kTrue, opts, &r, &err));
  EXPECT_EQ(err, "cannot enter working directory /nonexistent/elevbench-dir for true: " +
                     std::string(strerror(ENOENT)));
  EXPECT_EQ(OpenFds(), before);
  EXPECT_TRUE(NoZombieChildren());
}

TEST(SubprocessTest, KeepsTheLast64KiBOfStderrExactly) {
  // 32768 lines of 64 bytes = 2 MiB, more than the old 1 MiB capture cap.
  ProcessResult r;
  std::string err;
  ASSERT_TRUE(RunProcess({"awk",
                          "BEGIN { for (i = 1; i <= 32768; i++) "
                          "printf \"line %08d %049d\\n\", i, 0 > \"/dev/stderr\" }"},
                         ProcessOptions{}, &r, &err))
      << err;
  ASSERT_EQ(r.exit_code, 0) << LastLine(r.error_output);
  const std::string zeros(49, '0');
  ASSERT_EQ(r.error_output.size(), 64u * 1024u);
  EXPECT_EQ(r.error_output.substr(0, 64), "line 00031745 " + zeros + "\n");  // 32768 - 1024 + 1
  EXPECT_EQ(LastLine(r.error_output), "line 00032768 " + zeros);
}

TEST(ChildProcessTest, RunsInTheBackgroundAndReportsRusage) {
  ChildProcess child;
  std::string err;
  ASSERT_TRUE(child.Start({"sleep", "0.3"}, ProcessOptions{}, &err)) << err;
  EXPECT_GT(child.pid(), 0);
  EXPECT_EQ(getpgid(child.pid()), child.pid());
  EXPECT_TRUE(child.running());
  EXPECT_FALSE(child.Wait(0.05, &err));
  EXPECT_NE(err.find("still running"), std::string::npos) << err;
  EXPECT_TRUE(child.running());
  ASSERT_TRUE(child.Wait(10, &err)) << err;
  EXPECT_FALSE(child.running());
  const ProcessResult& r = child.result();
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_GE(r.usage.elapsed_seconds, 0.3);
  EXPECT_LT(r.usage.elapsed_seconds, 3.0);
  EXPECT_GT(r.usage.minor_faults, 0u);
  EXPECT_GE(r.usage.voluntary_switches, 1u);  // sleeping is a voluntary switch
  EXPECT_TRUE(child.Wait(0, &err)) << "an exited child stays exited";
}

TEST(ChildProcessTest, AChildReapedBehindItsBackIsAWaitErrorWithItsWallTime) {
  ChildProcess child;
  std::string err;
  ASSERT_TRUE(child.Start({"sleep", "0.2"}, ProcessOptions{}, &err)) << err;
  int status = 0;
  pid_t reaped = 0;  // reaped here, so nothing is left for the child's own waitid
  for (int i = 0; i < 1000 && reaped == 0; ++i) {
    reaped = waitpid(child.pid(), &status, WNOHANG);
    if (reaped == 0) usleep(10'000);
  }
  ASSERT_EQ(reaped, child.pid());
  EXPECT_FALSE(child.Wait(10, &err));
  EXPECT_NE(err.find("wait for pid"), std::string::npos) << err;
  EXPECT_FALSE(child.running());
  EXPECT_GE(child.result().usage.elapsed_seconds, 0.2) << "the wall time up to the failed wait";
}

TEST(ChildProcessTest, AwaitAnyExitWakesAtTheFirstExitAndWaitsNoLongerThanAsked) {
  ChildProcess quick, slow;
  std::string err;
  ASSERT_TRUE(slow.Start({"sleep", "30"}, ProcessOptions{}, &err)) << err;
  ASSERT_TRUE(quick.Start({"sleep", "0.1"}, ProcessOptions{}, &err)) << err;
  const auto start = std::chrono::steady_clock::now();
  ChildProcess::AwaitAnyExit({&slow, &quick}, 60);
  const double woke =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(woke, 20.0) << "woke at the quick child's exit, not after 60 s";
  EXPECT_FALSE(quick.running()) << "exited; running() reaps it";
  EXPECT_TRUE(slow.running());
  const auto again = std::chrono::steady_clock::now();
  ChildProcess::AwaitAnyExit({&slow, &quick}, 0.05);  // only the slow one runs: the time is up
  EXPECT_TRUE(slow.running());
  EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - again).count(), 0.04);
  ASSERT_TRUE(slow.Stop(1, &err)) << err;
  const auto none = std::chrono::steady_clock::now();
  ChildProcess::AwaitAnyExit({&slow, &quick}, 60);  // none runs: returns at once
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - none).count(), 5.0);
}

TEST(ChildProcessTest, CountsBlockIo) {
  testing::ScopedTempDir dir("/var/tmp");
  struct statfs fs {};
  ASSERT_EQ(statfs(dir.path().c_str(), &fs), 0);
  if (fs.f_type == 0x01021994 /* tmpfs */) GTEST_SKIP() << "/var/tmp is tmpfs: no block I/O";
  const std::string file = dir.path() + "/blocks";
  ProcessResult w, r;
  std::string err;
  ASSERT_TRUE(RunProcess({"dd", "if=/dev/zero", "of=" + file, "bs=64k", "count=16", "oflag=direct"},
                         ProcessOptions{}, &w, &err))
      << err;
  ASSERT_EQ(w.exit_code, 0) << LastLine(w.error_output);
  ASSERT_TRUE(RunProcess({"dd", "if=" + file, "of=/dev/null", "bs=64k", "iflag=direct"},
                         ProcessOptions{}, &r, &err))
      << err;
  ASSERT_EQ(r.exit_code, 0) << LastLine(r.error_output);
  EXPECT_GE(w.usage.block_output_ops, 2048u);  // 1 MiB in 512-byte units
  EXPECT_GE(r.usage.block_input_ops, 2048u);
}

TEST(ChildProcessTest, StopSendsTermThenKillAfterTheGrace) {
  ChildProcess obeys, ignores;
  std::string err;
  ASSERT_TRUE(obeys.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
  ASSERT_TRUE(ignores.Start(kIgnoresTerm, ProcessOptions{}, &err)) << err;
  ASSERT_TRUE(WaitForOutput(&ignores, "ready"));
  double t0 = Now();
  ASSERT_TRUE(obeys.Stop(5, &err)) << err;
  EXPECT_EQ(obeys.result().term_signal, SIGTERM);
  EXPECT_LT(Now() - t0, 2.0);
  t0 = Now();
  ASSERT_TRUE(ignores.Stop(0.3, &err)) << err;
  EXPECT_EQ(ignores.result().term_signal, SIGKILL);
  EXPECT_GE(Now() - t0, 0.3);
  EXPECT_LT(Now() - t0, 3.0);
  EXPECT_FALSE(ignores.result().timed_out);
  EXPECT_FALSE(ignores.result().interrupted);
}

TEST(ChildProcessTest, StopKillsGroupMembersLeftBehind) {
  // The shell dies of SIGTERM; the sleep it started ignores SIGTERM and is killed with the group.
  ChildProcess child;
  std::string err;
  ASSERT_TRUE(child.Start({"sh", "-c", "trap '' TERM; sleep 60 & echo $!; trap - TERM; wait"},
                          ProcessOptions{}, &err))
      << err;
  std::string line;
  for (double t0 = Now(); line.empty() && Now() - t0 < 5;) {
    EXPECT_FALSE(child.Wait(0.05, &err));
    line = LastLine(child.result().output);
  }
  ASSERT_FALSE(line.empty());
  const pid_t straggler = std::stoi(line);
  ASSERT_TRUE(child.Stop(5, &err)) << err;
  EXPECT_EQ(child.result().term_signal, SIGTERM);
  bool gone = false;
  for (double t0 = Now(); !gone && Now() - t0 < 5; usleep(10000)) gone = GoneOrZombie(straggler);
  EXPECT_TRUE(gone);
}

TEST(ChildProcessTest, DestructorKillsAndReaps) {
  pid_t pid = 0;
  {
    ChildProcess child;
    std::string err;
    ASSERT_TRUE(child.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
    pid = child.pid();
  }
  EXPECT_EQ(kill(pid, 0), -1);  // reaped: not even a zombie is left
  EXPECT_EQ(errno, ESRCH);
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
}

TEST(ChildProcessTest, MovesOwnership) {
  ChildProcess a;
  std::string err;
  ASSERT_TRUE(a.Start({"sh", "-c", "echo moved"}, ProcessOptions{}, &err)) << err;
  const pid_t pid = a.pid();
  ChildProcess b(std::move(a));
  EXPECT_EQ(b.pid(), pid);
  ChildProcess c;
  c = std::move(b);
  ASSERT_TRUE(c.Wait(10, &err)) << err;
  EXPECT_EQ(c.result().output, "moved\n");
  EXPECT_FALSE(c.Start({}, ProcessOptions{}, &err));
  EXPECT_EQ(err, "no command given");
}

TEST(ChildProcessTest, RefusesASecondStartWhileRunning) {
  ChildProcess child;
  std::string err;
  ASSERT_TRUE(child.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
  EXPECT_FALSE(child.Start(kTrue, ProcessOptions{}, &err));
  EXPECT_NE(err.find("still running"), std::string::npos) << err;
  ASSERT_TRUE(child.Stop(5, &err)) << err;
  ASSERT_TRUE(child.Start(kTrue, ProcessOptions{}, &err)) << err;  // reusable once reaped
  ASSERT_TRUE(child.Wait(10, &err)) << err;
  EXPECT_EQ(child.result().exit_code, 0);
}

}  // namespace
}  // namespace elevbench
