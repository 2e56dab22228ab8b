// StartDetachedDaemon under interrupts: the kill-point sweep (scripts/killsweep) sent SIGTERM
// while the emulated disk's daemon was starting; the parent's read of the daemon's pid returned
// EINTR, the start was reported failed though the daemon ran, and it was never journaled (it
// wrote its log into the scratch directory after the restore had emptied it).

#include "harness/disk/daemon_start.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/time.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include "test_util.h"

namespace elevbench {
namespace {

// SIGALRM every 50 µs, caught by a handler installed without SA_RESTART as the run's are, so
// every blocking call in the start sees EINTR. The old code failed 28 of 50 starts under this.
class InterruptStorm {
 public:
  InterruptStorm() {
    struct sigaction sa {};
    sa.sa_handler = [](int) {};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, &old_);
    itimerval every{{0, 50}, {0, 50}};
    setitimer(ITIMER_REAL, &every, nullptr);
  }
  ~InterruptStorm() {
    itimerval off{};
    setitimer(ITIMER_REAL, &off, nullptr);
    sigaction(SIGALRM, &old_, nullptr);
  }

 private:
  struct sigaction old_ {};
};

TEST(DaemonStartTest, DeliversThePidOfEveryStartedDaemonUnderInterrupts) {
  testing::ScopedTempDir dir;
  int failed = 0;
  std::string first_err;
  {
    InterruptStorm storm;
    for (int i = 0; i < 50; ++i) {
      pid_t pid = 0;
      std::string err;
      if (!StartDetachedDaemon({"/bin/true"}, dir.path() + "/log", &pid, &err) || pid <= 0) {
        if (failed++ == 0) first_err = err;
      }
    }
  }
  EXPECT_EQ(failed, 0) << first_err;
}

TEST(DaemonStartTest, TheDaemonRunsInItsOwnSessionWithItsOutputInTheLog) {
  testing::ScopedTempDir dir;
  const std::string log = dir.path() + "/log";
  pid_t pid = 0;
  std::string err;
  ASSERT_TRUE(StartDetachedDaemon(
      {"/bin/sh", "-c", "cut -d' ' -f6 /proc/$$/stat; echo out; echo err >&2"}, log, &pid, &err))
      << err;
  std::string text;
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(log);
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (text.find("err") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Its own session (the one the intermediate child made), not the test's: a terminal's Ctrl-C
  // to the run's session does not reach it.
  long sid = 0;
  try {
    sid = std::stol(text);
  } catch (...) {
  }
  EXPECT_GT(pid, 0);
  EXPECT_GT(sid, 0) << text;
  EXPECT_NE(sid, static_cast<long>(getsid(0))) << text;
  EXPECT_NE(text.find("out\n"), std::string::npos) << text;
  EXPECT_NE(text.find("err\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace elevbench
