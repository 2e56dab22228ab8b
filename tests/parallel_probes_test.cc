// Several probes started together (Morton's #1 and #5): they start within moments of each other,
// each is timed on its own, a probe past its timeout is a DNF while the others finish, and no
// probe or descendant is left running when the call returns, on success or on error.

#include "harness/engine/parallel_probes.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

ParallelProbeSpec Sh(const std::string& script, double timeout = 0) {
  ParallelProbeSpec s;
  s.argv = {"sh", "-c", script};
  s.timeout_seconds = timeout;
  return s;
}

bool GroupGone(pid_t pgid) { return kill(-pgid, 0) != 0 && errno == ESRCH; }

// A killed descendant is reparented and reaped by init, asynchronously: until then it is a
// zombie, still a member of the group but not running. Waits up to 2 s for the group to vanish.
bool GroupVanishesSoon(pid_t pgid) {
  for (int i = 0; i < 40 && !GroupGone(pgid); ++i) usleep(50000);
  return GroupGone(pgid);
}

// True when, within 2 s, no process's command line (NULs as spaces) contains `needle`.
bool NoProcessRunsSoon(const std::string& needle) {
  for (int i = 0; i < 40; ++i) {
    bool found = false;
    for (const auto& e : std::filesystem::directory_iterator("/proc")) {
      const std::string name = e.path().filename().string();
      if (name.find_first_not_of("0123456789") != std::string::npos) continue;
      std::string cmd = testing::ReadFileOrEmpty(e.path().string() + "/cmdline");
      for (char& c : cmd) c = c == '\0' ? ' ' : c;
      found = found || cmd.find(needle) != std::string::npos;
    }
    if (!found) return true;
    usleep(50000);
  }
  return false;
}

TEST(ParallelProbesTest, StartTogetherAndAreTimedEachOnItsOwn) {
  const auto start = std::chrono::steady_clock::now();
  std::vector<ParallelProbeOutcome> out;
  std::string err;
  ASSERT_TRUE(RunParallelProbes({Sh("sleep 1.2"), Sh("sleep 0.4"), Sh("sleep 0.8")}, &out, &err))
      << err;
  const double total =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_EQ(out.size(), 3u);
  EXPECT_LT(total, 2.0);  // together: 1.2 s and a little, never 2.4 s one after the other
  for (const ParallelProbeOutcome& o : out) {
    EXPECT_GT(o.pid, 0);
    EXPECT_TRUE(GroupGone(o.pid));
    EXPECT_FALSE(o.dnf);
    EXPECT_EQ(o.process.exit_code, 0);
    EXPECT_LT(o.start_offset_seconds, 0.2);
  }
  EXPECT_EQ(out[0].start_offset_seconds, 0);
  // Each is timed to its own end: never shorter than its sleep, and in the sleeps' order (timed
  // together, all three would end with the longest). No upper bound per probe: a loaded machine
  // may delay any of them, but not reorder sleeps 0.4 s apart.
  const double first = out[0].process.usage.elapsed_seconds;
  const double second = out[1].process.usage.elapsed_seconds;
  const double third = out[2].process.usage.elapsed_seconds;
  EXPECT_GE(first, 1.2);
  EXPECT_GE(second, 0.4);
  EXPECT_GE(third, 0.8);
  EXPECT_LT(second, third);
  EXPECT_LT(third, first);
}

TEST(ParallelProbesTest, EachProbeHasItsOwnRusageAndReadBytes) {
  testing::ScopedTempDir dir;
  const std::string file = dir.path() + "/data";
  std::ofstream(file) << std::string(4 << 20, 'x');
  std::vector<ParallelProbeOutcome> out;
  std::string err;
  // A reader of 4 MiB and a busy loop: bytes read and CPU time belong to the one that spent them.
  ASSERT_TRUE(RunParallelProbes({Sh("cat " + file + " > /dev/null; sleep 0.3"),
                                 Sh("i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done")},
                                &out, &err))
      << err;
  EXPECT_GE(out[0].bytes_read, 4u << 20);
  EXPECT_LT(out[1].bytes_read, 1u << 20);
  EXPECT_GT(out[1].process.usage.user_seconds + out[1].process.usage.system_seconds,
            out[0].process.usage.user_seconds + out[0].process.usage.system_seconds);
}

TEST(ParallelProbesTest, AProbePastItsTimeoutIsDnfAndTheOthersFinish) {
  std::vector<ParallelProbeOutcome> out;
  std::string err;
  ASSERT_TRUE(
      RunParallelProbes({Sh("sleep 30", 0.5), Sh("sleep 0.8", 5), Sh("exit 3", 5)}, &out, &err))
      << err;
  EXPECT_TRUE(out[0].dnf);
  EXPECT_NEAR(out[0].process.usage.elapsed_seconds, 0.5,
              0.3);  // stopped at its timeout, not at 30 s
  EXPECT_FALSE(out[1].dnf);
  EXPECT_EQ(out[1].process.exit_code, 0);
  EXPECT_GE(out[1].process.usage.elapsed_seconds, 0.75);  // ran on after the first one was stopped
  EXPECT_FALSE(out[2].dnf);
  EXPECT_EQ(out[2].process.exit_code, 3);  // a failing probe is an outcome, not an error
}

TEST(ParallelProbesTest, NothingIsLeftRunningAfterATimeoutNotEvenADescendant) {
  testing::ScopedTempDir dir;
  const std::string pids = dir.path() + "/pids";
  std::vector<ParallelProbeOutcome> out;
  std::string err;
  // The shell starts a background sleep in its own group (the probe's) and waits.
  ASSERT_TRUE(RunParallelProbes({Sh("sleep 60 & echo $! > " + pids + "; wait", 0.5)}, &out, &err))
      << err;
  EXPECT_TRUE(out[0].dnf);
  EXPECT_TRUE(GroupVanishesSoon(out[0].pid)) << "the probe's process group still has members";
  pid_t grandchild = 0;
  std::ifstream(pids) >> grandchild;
  ASSERT_GT(grandchild, 0);
  // SIGKILL is asynchronous for the reparented grandchild: give it a moment.
  for (int i = 0; i < 40 && kill(grandchild, 0) == 0; ++i) usleep(50000);
  EXPECT_NE(kill(grandchild, 0), 0) << "the probe's background sleep survived";
}

TEST(ParallelProbesTest, AProbeThatCannotStartStopsTheOnesAlreadyStarted) {
  testing::ScopedTempDir dir;
  const std::string pids = dir.path() + "/pid";
  std::vector<ParallelProbeOutcome> out = {ParallelProbeOutcome{}};
  std::string err;
  ParallelProbeSpec missing;
  missing.argv = {"/nonexistent/elevbench-no-such-program"};
  const auto start = std::chrono::steady_clock::now();
  // A sleep no other process has: whether or not probe 1 wrote its pid before it was stopped,
  // no process may be left running it (issue 58 §7: the check ran only when the pid was there).
  const std::string marker = "60." + std::to_string(getpid());
  EXPECT_FALSE(
      RunParallelProbes({Sh("echo $$ > " + pids + "; exec sleep " + marker), missing}, &out, &err));
  EXPECT_NE(err.find("probe 2"), std::string::npos) << err;
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5);
  EXPECT_EQ(out.size(), 1u);  // untouched on failure
  pid_t first = 0;
  std::ifstream(pids) >> first;
  if (first > 0) {
    EXPECT_TRUE(GroupVanishesSoon(first)) << "probe 1 still runs";
  }
  EXPECT_TRUE(NoProcessRunsSoon("sleep " + marker)) << "probe 1's sleep " << marker << " runs";
}

TEST(ParallelProbesTest, RefusesNoProbesAndTooMany) {
  std::vector<ParallelProbeOutcome> out;
  std::string err;
  EXPECT_FALSE(RunParallelProbes({}, &out, &err));
  EXPECT_NE(err.find("0 probes"), std::string::npos) << err;
  std::vector<ParallelProbeSpec> many(kMaxParallelProbes + 1, Sh("true"));
  EXPECT_FALSE(RunParallelProbes(many, &out, &err));
  EXPECT_NE(err.find("13 probes"), std::string::npos) << err;
}

}  // namespace
}  // namespace elevbench
