// contest's mem_load and process_load iterations: they do their work, count it, refuse bad
// arguments and leave no process behind; and the hidden CLI that runs them.

#include "scenarios/contest/contest_workers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <sstream>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

// The pids whose parent is this process, running or not yet reaped, from /proc. The ring's
// leftovers are the ones that appear across a ring; a child another test of this binary has
// not reaped yet is not the ring's (seen once under ASan in CI: `waitpid(-1, WNOHANG)` found
// one and failed this test although the ring had reaped all of its own).
std::set<pid_t> ChildrenOfThisProcess() {
  std::set<pid_t> children;
  const std::string self = std::to_string(getpid());
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = testing::ReadFileOrEmpty(entry.path().string() + "/stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    std::string state, ppid;
    fields >> state >> ppid;
    if (ppid == self) children.insert(static_cast<pid_t>(std::stoi(name)));
  }
  return children;
}

TEST(MemLoadTest, TouchesEveryPageOfEveryPass) {
  uint64_t touched = 0;
  std::string err;
  ASSERT_TRUE(RunMemLoadIteration({.bytes = 8 << 20, .passes = 3}, &touched, &err)) << err;
  EXPECT_EQ(touched, 3u * (8u << 20) / 4096);
}

TEST(MemLoadTest, ATinyRegionIsOnePage) {
  uint64_t touched = 0;
  std::string err;
  ASSERT_TRUE(RunMemLoadIteration({.bytes = 1, .passes = 2}, &touched, &err)) << err;
  EXPECT_EQ(touched, 2u);
}

TEST(ProcessRingTest, PassesTheChunksRoundAndReapsEveryProcess) {
  const std::set<pid_t> before = ChildrenOfThisProcess();
  std::string err;
  ASSERT_TRUE(RunProcessRingIteration({.processes = 4, .chunks = 2, .hops = 2000}, &err)) << err;
  std::set<pid_t> left;
  for (pid_t pid : ChildrenOfThisProcess()) {
    if (before.count(pid) == 0) left.insert(pid);
  }
  EXPECT_TRUE(left.empty()) << left.size() << " process(es) of the ring not reaped";
}

TEST(ProcessRingTest, RefusesARingThatCannotWork) {
  std::string err;
  EXPECT_FALSE(RunProcessRingIteration({.processes = 1, .chunks = 1, .hops = 10}, &err));
  EXPECT_FALSE(RunProcessRingIteration({.processes = 4, .chunks = 0, .hops = 10}, &err));
  EXPECT_FALSE(RunProcessRingIteration({.processes = 4, .chunks = 5, .hops = 4}, &err));
  EXPECT_NE(err.find("at least 2 processes"), std::string::npos) << err;
}

TEST(InternalCliTest, RunsTheIterationsAndIsNotInTheHelp) {
  std::string err;
  ProcessResult r;
  ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "internal", "process-ring", "--processes", "3",
                          "--chunks", "1", "--hops", "300"},
                         {}, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  ASSERT_TRUE(
      RunProcess({ELEVBENCH_BINARY, "internal", "mem-load", "--bytes", "1048576"}, {}, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 0) << r.error_output;
  ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "internal", "process-ring", "--processes", "3",
                          "--chunks", "4", "--hops", "2"},
                         {}, &r, &err))
      << err;
  EXPECT_EQ(r.exit_code, 2);
  ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "--help"}, {}, &r, &err)) << err;
  EXPECT_EQ(r.output.find("internal"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
