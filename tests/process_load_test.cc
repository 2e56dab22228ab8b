// The repeated-command load: iterations counted, their rusage summed, the running iteration
// killed on stop with its whole process group (nothing left behind), failures counted, a
// command that cannot start refused, and the load beside a foreground probe.

#include "harness/engine/process_load.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "harness/core/interrupt.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::ScopedTempDir;

void SleepSeconds(double s) { std::this_thread::sleep_for(std::chrono::duration<double>(s)); }

// True while group `pgid` has a live member: a process in it that is not a zombie. (A killed
// grandchild is re-parented to init and stays a zombie of the group until init reaps it.)
bool GroupAlive(pid_t pgid) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream in(entry.path() / "stat");
    std::string line;
    if (!std::getline(in, line)) continue;
    // pid (comm) state ppid pgrp ...: comm may hold spaces, so parse after the last ')'.
    std::istringstream rest(line.substr(line.rfind(')') + 1));
    char state = 0;
    long ppid = 0, group = 0;
    if (rest >> state >> ppid >> group && group == pgid && state != 'Z') return true;
  }
  return false;
}

// True when group `pgid` has no live member within a second.
bool NoLiveMemberSoon(pid_t pgid) {
  for (int i = 0; i < 100 && GroupAlive(pgid); ++i) SleepSeconds(0.01);
  return !GroupAlive(pgid);
}

TEST(RepeatedCommandLoadTest, CountsCompletedIterationsAndTheirCpu) {
  RepeatedCommandLoad load;
  RepeatedCommandSpec spec;
  // Each iteration burns a little CPU and ends at once.
  spec.argv = {"sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done"};
  std::string err;
  ASSERT_TRUE(load.Start(spec, &err)) << err;
  EXPECT_TRUE(load.Running());
  SleepSeconds(0.8);
  EXPECT_GT(load.Completed(), 0u);
  RepeatedCommandResult r;
  ASSERT_TRUE(load.Stop(&r, &err)) << err;
  EXPECT_FALSE(load.Running());
  EXPECT_GE(r.completed, 2u);
  EXPECT_EQ(r.failed, 0u);
  // Every started iteration either completed or was the one cut short by the stop.
  EXPECT_EQ(r.started, r.completed + (r.cut_short ? 1 : 0));
  EXPECT_GT(r.usage.user_seconds + r.usage.system_seconds, 0.0);
  EXPECT_GE(r.usage.elapsed_seconds, 0.8);
  EXPECT_LT(r.usage.elapsed_seconds, 5.0);
  EXPECT_GT(r.usage.minor_faults, 0u);
}

TEST(RepeatedCommandLoadTest, StopKillsTheRunningIterationAndItsChildren) {
  ScopedTempDir dir;
  const std::string pid_file = dir.path() + "/pid";
  RepeatedCommandLoad load;
  RepeatedCommandSpec spec;
  // The iteration's shell starts a grandchild and waits: both must go on stop.
  spec.argv = {"sh", "-c", "echo $$ > " + pid_file + "; sleep 30 & wait"};
  spec.kill_grace_seconds = 1;
  std::string err;
  ASSERT_TRUE(load.Start(spec, &err)) << err;
  pid_t pgid = 0;
  for (int i = 0; i < 100 && pgid == 0; ++i) {
    SleepSeconds(0.02);
    std::ifstream(pid_file) >> pgid;
  }
  ASSERT_GT(pgid, 0);
  EXPECT_TRUE(GroupAlive(pgid));
  const auto before = std::chrono::steady_clock::now();
  RepeatedCommandResult r;
  ASSERT_TRUE(load.Stop(&r, &err)) << err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count(), 3.0);
  EXPECT_TRUE(NoLiveMemberSoon(pgid));  // no leftovers: the sleep went with its shell
  EXPECT_EQ(r.started, 1u);
  EXPECT_EQ(r.completed, 0u);
  EXPECT_TRUE(r.cut_short);
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
}

TEST(RepeatedCommandLoadTest, FailedIterationsAreCountedNotCompleted) {
  RepeatedCommandLoad load;
  RepeatedCommandSpec spec;
  spec.argv = {"sh", "-c", "echo broken >&2; exit 3"};
  std::string err;
  ASSERT_TRUE(load.Start(spec, &err)) << err;
  SleepSeconds(0.5);
  RepeatedCommandResult r;
  ASSERT_TRUE(load.Stop(&r, &err)) << err;
  EXPECT_EQ(r.completed, 0u);
  EXPECT_GE(r.failed, 1u);
  // Fast failures are paced (0.1 s), so the load does not spin.
  EXPECT_LE(r.failed, 8u);
  EXPECT_EQ(r.last_failure_exit_code, 3);
  EXPECT_EQ(r.last_failure_output, "broken");
}

TEST(RepeatedCommandLoadTest, ExtraSuccessCodesCount) {
  RepeatedCommandLoad load;
  RepeatedCommandSpec spec;
  spec.argv = {"sh", "-c", "exit 1"};
  spec.success_exit_codes = {0, 1};
  std::string err;
  ASSERT_TRUE(load.Start(spec, &err)) << err;
  SleepSeconds(0.3);
  RepeatedCommandResult r;
  ASSERT_TRUE(load.Stop(&r, &err)) << err;
  EXPECT_GE(r.completed, 1u);
  EXPECT_EQ(r.failed, 0u);
}

TEST(RepeatedCommandLoadTest, ACommandThatCannotStartIsRefused) {
  RepeatedCommandLoad load;
  RepeatedCommandSpec spec;
  spec.argv = {"/nonexistent/elevbench-no-such-program"};
  std::string err;
  EXPECT_FALSE(load.Start(spec, &err));
  EXPECT_NE(err.find("cannot execute"), std::string::npos) << err;
  EXPECT_FALSE(load.Running());
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
}

TEST(RepeatedCommandLoadTest, TheDestructorStopsARunningLoad) {
  ScopedTempDir dir;
  const std::string pid_file = dir.path() + "/pid";
  pid_t pgid = 0;
  {
    RepeatedCommandLoad load;
    RepeatedCommandSpec spec;
    spec.argv = {"sh", "-c", "echo $$ > " + pid_file + "; exec sleep 30"};
    std::string err;
    ASSERT_TRUE(load.Start(spec, &err)) << err;
    for (int i = 0; i < 100 && pgid == 0; ++i) {
      SleepSeconds(0.02);
      std::ifstream(pid_file) >> pgid;
    }
  }
  ASSERT_GT(pgid, 0);
  EXPECT_TRUE(NoLiveMemberSoon(pgid));
}

TEST(RunCommandLoadWithProbeTest, TheProbeRunsAfterTheWarmUpAndTheLoadStopsAfterIt) {
  RepeatedCommandSpec load;
  load.argv = {"sh", "-c", "sleep 0.05"};
  ProbeSpec probe;
  probe.argv = {"sh", "-c", "sleep 0.4"};
  probe.warmup_seconds = 0.3;
  RepeatedCommandResult load_result;
  ProbeOutcome outcome;
  std::string err;
  ASSERT_TRUE(RunCommandLoadWithProbe(load, probe, &load_result, &outcome, &err)) << err;
  EXPECT_GE(outcome.warmup_seconds, 0.3);
  EXPECT_FALSE(outcome.dnf);
  EXPECT_EQ(outcome.process.exit_code, 0);
  EXPECT_GE(outcome.process.usage.elapsed_seconds, 0.4);
  // The load ran through the warm-up and the probe: its own elapsed time covers both.
  EXPECT_GE(load_result.usage.elapsed_seconds, 0.7);
  // 0.05 s iterations over 0.7 s: at most 14; at least a few even on a busy machine.
  EXPECT_GE(load_result.completed, 2u);
  EXPECT_LE(load_result.completed, 14u);
}

TEST(RunCommandLoadWithProbeTest, AProbeTimeoutIsADnfAndTheLoadIsStopped) {
  RepeatedCommandSpec load;
  load.argv = {"sleep", "30"};
  ProbeSpec probe;
  probe.argv = {"sleep", "30"};
  probe.timeout_seconds = 0.3;
  RepeatedCommandResult load_result;
  ProbeOutcome outcome;
  std::string err;
  ASSERT_TRUE(RunCommandLoadWithProbe(load, probe, &load_result, &outcome, &err)) << err;
  EXPECT_TRUE(outcome.dnf);
  EXPECT_TRUE(load_result.cut_short);
  EXPECT_EQ(RegisteredChildGroupCount(), 0);
}

}  // namespace
}  // namespace elevbench
