// Interrupt forwarding to several child process groups at once, and children stopped promptly
// when an interrupt arrives while elevbench waits for them.

#include "harness/core/interrupt.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Installs the interrupt handlers for one test and puts the previous dispositions back.
class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], nullptr, &saved_[i]);
    ResetInterruptForTesting();
    InstallInterruptHandlers();
  }
  void TearDown() override {
    for (size_t i = 0; i < kSignals.size(); ++i) sigaction(kSignals[i], &saved_[i], nullptr);
    ResetInterruptForTesting();
  }

 private:
  const std::vector<int> kSignals = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
  struct sigaction saved_[4]{};
};

TEST(InterruptRegistryTest, HoldsUpToTheLimit) {
  const pid_t base = 4194304 + 100;  // above any pid_max
  ASSERT_EQ(RegisteredChildGroupCount(), 0);
  for (int i = 0; i < kMaxChildGroups; ++i) EXPECT_TRUE(RegisterChildGroup(base + i));
  EXPECT_FALSE(RegisterChildGroup(base + kMaxChildGroups));
  EXPECT_EQ(RegisteredChildGroupCount(), kMaxChildGroups);
  UnregisterChildGroup(base + kMaxChildGroups);  // not registered: no effect
  EXPECT_EQ(RegisteredChildGroupCount(), kMaxChildGroups);
  UnregisterChildGroup(base + 3);
  EXPECT_TRUE(RegisterChildGroup(base + kMaxChildGroups));  // the freed slot is reused
  for (int i = 0; i <= kMaxChildGroups; ++i) UnregisterChildGroup(base + i);
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
  EXPECT_FALSE(RegisterChildGroup(0));
}

TEST_F(InterruptTest, SigtermIsForwardedToEveryRunningChild) {
  ChildProcess load, probe;
  std::string err;
  ASSERT_TRUE(load.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
  ASSERT_TRUE(probe.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
  EXPECT_EQ(RegisteredChildGroupCount(), 2);
  raise(SIGTERM);
  EXPECT_EQ(InterruptSignal(), SIGTERM);
  // Clear the flag so that Wait does not stop the children itself: only the forwarded signal can
  // end them now.
  ResetInterruptForTesting();
  ASSERT_TRUE(load.Wait(5, &err)) << err;
  ASSERT_TRUE(probe.Wait(5, &err)) << err;
  EXPECT_EQ(load.result().term_signal, SIGTERM);
  EXPECT_EQ(probe.result().term_signal, SIGTERM);
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
}

// Issue #18: a fault the run finds itself (its disk's daemon died) stops it as a signal would,
// but with no signal recorded, so the run exits 1 and not 130.
TEST_F(InterruptTest, AFaultStopEndsChildrenWithoutASignal) {
  ChildProcess load;
  std::string err;
  ASSERT_TRUE(load.Start({"sleep", "60"}, ProcessOptions{}, &err)) << err;
  RequestFaultStop();
  EXPECT_TRUE(InterruptRequested());
  EXPECT_TRUE(FaultStopRequested());
  EXPECT_EQ(InterruptSignal(), 0);
  ResetInterruptForTesting();
  ASSERT_TRUE(load.Wait(5, &err)) << err;
  EXPECT_EQ(load.result().term_signal, SIGTERM);
  EXPECT_FALSE(FaultStopRequested());
}

TEST_F(InterruptTest, RunProcessStopsItsChildPromptly) {
  // Another child sends SIGTERM to elevbench 0.3 s after the waited-for child started ignoring
  // SIGTERM; that child writes nowhere, so only the wait loop noticing the flag (and SIGKILL
  // after the grace) ends it.
  testing::ScopedTempDir dir;
  const std::string marker = dir.path() + "/ignoring";
  ChildProcess sender;
  std::string err;
  ASSERT_TRUE(sender.Start({"sh", "-c",
                            "while [ ! -e " + marker + " ]; do sleep 0.01; done; sleep 0.3; " +
                                "kill -TERM " + std::to_string(getpid())},
                           ProcessOptions{}, &err))
      << err;
  ProcessOptions opts;
  opts.stdout_path = "/dev/null";
  opts.capture_stderr = false;
  opts.kill_grace_seconds = 0.5;
  ProcessResult r;
  ASSERT_TRUE(
      RunProcess({"sh", "-c", "trap '' TERM; touch " + marker + "; sleep 60"}, opts, &r, &err))
      << err;
  EXPECT_TRUE(InterruptRequested());
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.term_signal, SIGKILL);
  EXPECT_GE(r.usage.elapsed_seconds, 0.8);  // 0.3 s until the signal + the grace
  EXPECT_LT(r.usage.elapsed_seconds, 3.0);
  ASSERT_TRUE(sender.Wait(5, &err)) << err;
}

TEST_F(InterruptTest, RunningStopsABackgroundChildWithTheGrace) {
  // A load polled with running() (never waited for) is stopped too: SIGTERM (ignored here), then
  // SIGKILL after its kill_grace_seconds.
  ChildProcess load;
  ProcessOptions opts;
  opts.kill_grace_seconds = 0.2;
  std::string err;
  ASSERT_TRUE(load.Start({"sh", "-c", "trap '' TERM; echo ready; sleep 60"}, opts, &err)) << err;
  std::string out;
  for (int i = 0; out.empty() && i < 500; ++i) {
    EXPECT_FALSE(load.Wait(0.02, &err));
    out = load.result().output;
  }
  ASSERT_EQ(out, "ready\n");  // SIGTERM is ignored from here on
  raise(SIGINT);
  EXPECT_EQ(InterruptSignal(), SIGINT);
  bool running = true;
  for (int i = 0; running && i < 500; ++i) {
    running = load.running();
    if (running) usleep(10000);
  }
  ASSERT_FALSE(running);
  EXPECT_TRUE(load.result().interrupted);
  EXPECT_EQ(load.result().term_signal, SIGKILL);
  EXPECT_LT(load.result().usage.elapsed_seconds, 2.0);
}

}  // namespace
}  // namespace elevbench
