#include "harness/core/mountinfo.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace elevbench {
namespace {

TEST(MountinfoTest, EachLineGivesItsFieldsUnescapedAndAMalformedOneIsSkipped) {
  const std::string text =
      "36 35 98:0 /root /mnt/my\\040disk rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"
      "37 30 0:33 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
      "38 30 0:34 / /broken rw\n"
      "39 25 0:50 / /sys/fs/fuse/connections rw - fusectl fusectl\n";
  const std::vector<MountinfoEntry> m = ParseMountinfo(text);
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].devno, "98:0");
  EXPECT_EQ(m[0].root, "/root");
  EXPECT_EQ(m[0].mount_point, "/mnt/my disk");
  EXPECT_EQ(m[0].fstype, "ext3");
  EXPECT_EQ(m[0].source, "/dev/root");
  EXPECT_EQ(m[0].super_options, (std::vector<std::string>{"rw", "errors=continue"}));
  EXPECT_EQ(m[1].super_options, (std::vector<std::string>{"rw", "blkio"}));
  EXPECT_EQ(m[2].mount_point, "/sys/fs/fuse/connections");
  EXPECT_TRUE(m[2].super_options.empty());
  EXPECT_TRUE(ParseMountinfo("").empty());
}

}  // namespace
}  // namespace elevbench
