// Reading the OOM killer's count of a memory cgroup, v1 and v2.

#include "harness/core/oom_kills.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(OomKillsTest, ReadsTheCountFromEitherFile) {
  uint64_t count = 0;
  EXPECT_TRUE(ParseOomKillCount("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n", &count));
  EXPECT_EQ(count, 3u);
  EXPECT_TRUE(
      ParseOomKillCount("low 0\nhigh 0\nmax 12\noom 2\noom_kill 2\noom_group_kill 0\n", &count));
  EXPECT_EQ(count, 2u);
  EXPECT_FALSE(ParseOomKillCount("oom_kill_disable 0\nunder_oom 0\n", &count));
  EXPECT_FALSE(ParseOomKillCount("oom_kill x\n", &count));
}

TEST(OomKillsTest, FindsTheMemoryCgroupOfV1AndV2) {
  EXPECT_EQ(MemoryCgroupDirFrom("12:cpuset:/a\n4:memory:/elevbench-machine-7\n0::/x\n", "/r"),
            "/r/memory/elevbench-machine-7");
  EXPECT_EQ(MemoryCgroupDirFrom("3:memory:/\n", "/r"), "/r/memory");
  EXPECT_EQ(MemoryCgroupDirFrom("0::/user.slice/s\n", "/r"), "/r/user.slice/s");
  EXPECT_EQ(MemoryCgroupDirFrom("5:cpu,cpuacct:/\n", "/r"), "");
}

}  // namespace
}  // namespace elevbench
