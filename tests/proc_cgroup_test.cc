#include "harness/process/proc_cgroup.h"

#include <gtest/gtest.h>

#include <string>

namespace elevbench {
namespace {

TEST(ProcCgroupTest, EachHierarchysLineIsFoundByAControllerItNames) {
  const std::string text = "9:name=systemd:/\n7:blkio:/user/7\n4:cpu,cpuacct:/a\n0::/init.scope\n";
  std::string path;
  ASSERT_TRUE(CgroupPathOf(text, "blkio", &path));
  EXPECT_EQ(path, "/user/7");
  ASSERT_TRUE(CgroupPathOf(text, "cpuacct", &path));
  EXPECT_EQ(path, "/a");
  ASSERT_TRUE(CgroupPathOf(text, "name=systemd", &path));
  EXPECT_EQ(path, "/");
  ASSERT_TRUE(CgroupPathOf(text, "", &path));  // cgroup v2's line
  EXPECT_EQ(path, "/init.scope");
  EXPECT_FALSE(CgroupPathOf(text, "memory", &path));
  EXPECT_FALSE(CgroupPathOf("3:memory:relative\n", "memory", &path));
  EXPECT_FALSE(CgroupPathOf("", "", &path));
}

}  // namespace
}  // namespace elevbench
