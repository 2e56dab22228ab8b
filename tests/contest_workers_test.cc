// contest's mem_load and process_load iterations: they do their work, count it, refuse bad
// arguments and leave no process behind; and the hidden CLI that runs them.

#include "scenarios/contest/contest_workers.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cerrno>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

// True when this process has a child that is not reaped (a leftover of the ring).
bool HasChildren() {
  errno = 0;
  return waitpid(-1, nullptr, WNOHANG) >= 0 || errno != ECHILD;
}

TEST(MemLoadTest, TouchesEveryPageOfEveryPass) {
  uint64_t touched = 0;
  std::string err;
  ASSERT_TRUE(RunMemLoadIteration(8 << 20, 3, &touched, &err)) << err;
  EXPECT_EQ(touched, 3u * (8u << 20) / 4096);
}

TEST(MemLoadTest, ATinyRegionIsOnePage) {
  uint64_t touched = 0;
  std::string err;
  ASSERT_TRUE(RunMemLoadIteration(1, 2, &touched, &err)) << err;
  EXPECT_EQ(touched, 2u);
}

TEST(ProcessRingTest, PassesTheChunksRoundAndReapsEveryProcess) {
  std::string err;
  ASSERT_TRUE(RunProcessRingIteration(4, 2, 2000, &err)) << err;
  EXPECT_FALSE(HasChildren());
}

TEST(ProcessRingTest, RefusesARingThatCannotWork) {
  std::string err;
  EXPECT_FALSE(RunProcessRingIteration(1, 1, 10, &err));
  EXPECT_FALSE(RunProcessRingIteration(4, 0, 10, &err));
  EXPECT_FALSE(RunProcessRingIteration(4, 5, 4, &err));
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
