#include "harness/process/self_placement.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <string>
#include <thread>

#include "test_util.h"

namespace elevbench {
namespace {

constexpr char kV1MountInfo[] =
    "25 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n"
    "30 25 0:26 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "31 30 0:27 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
    "37 30 0:33 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n"
    "40 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n";
constexpr char kV1Cgroup[] = "9:name=systemd:/\n7:blkio:/user/7\n3:cpu:/\n";

TEST(SelfPlacementTest, AV1CgroupsWayBackIsThisProcesssCgroupInTheSameHierarchy) {
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/blkio/elevbench-ab-probe/cgroup.procs",
                                kV1MountInfo, kV1Cgroup),
            "/sys/fs/cgroup/blkio/user/7/cgroup.procs");
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/cpu/elevbench-ab-probe/cgroup.procs", kV1MountInfo,
                                kV1Cgroup),
            "/sys/fs/cgroup/cpu/cgroup.procs");
  // Not under a cgroup mount, or no line for the hierarchy: no way back, so no move.
  EXPECT_EQ(CurrentProcsFileFor("/tmp/x/cgroup.procs", kV1MountInfo, kV1Cgroup), "");
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/blkio/x/cgroup.procs", kV1MountInfo, "3:cpu:/\n"),
            "");
}

TEST(SelfPlacementTest, ACgroupUnderItsMountIsWhatFioPrefixesWithTheMountPoint) {
  EXPECT_EQ(CgroupUnderItsMount("/sys/fs/cgroup/blkio/user/elevbench-ab-probe/cgroup.procs",
                                kV1MountInfo),
            "user/elevbench-ab-probe");
  EXPECT_EQ(CgroupUnderItsMount("/sys/fs/cgroup/blkio/cgroup.procs", kV1MountInfo), "");
  EXPECT_EQ(CgroupUnderItsMount("/sys/fs/cgroup/blkio/x/tasks", kV1MountInfo), "");
  EXPECT_EQ(CgroupUnderItsMount("/tmp/x/cgroup.procs", kV1MountInfo), "");
}

TEST(SelfPlacementTest, AV2CgroupsWayBackFollowsTheUnifiedLineAndTheMountsRoot) {
  const std::string info =
      "25 1 254:0 / / rw - ext4 /dev/vda rw\n"
      "30 25 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n";
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/elevbench-ab-load/cgroup.procs", info,
                                "0::/init.scope\n"),
            "/sys/fs/cgroup/init.scope/cgroup.procs");
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/elevbench-ab-load/cgroup.procs", info, "0::/\n"),
            "/sys/fs/cgroup/cgroup.procs");
  // A mount of a subtree (a container's view): the path is taken from the mount's root.
  const std::string sub = "30 25 0:26 /box /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n";
  EXPECT_EQ(CurrentProcsFileFor("/sys/fs/cgroup/e/cgroup.procs", sub, "0::/box/app\n"),
            "/sys/fs/cgroup/app/cgroup.procs");
}

// The thread's I/O priority is the placement's inside the scope and its own after it; run on a
// thread of its own so that a failure leaves the test binary's main thread as it was.
TEST(SelfPlacementTest, TheThreadTakesThePrioritySoLongAsTheScopeLives) {
  long before = -1, inside = -1, after = -1;
  std::string err;
  bool applied = false;
  std::thread([&] {
    before = syscall(SYS_ioprio_get, 1, 0);
    {
      ScopedSelfPlacement placed;
      ProcessPlacement p;
      p.ioprio = 3 << 13;  // idle: any process may take it
      applied = placed.Apply(p, &err);
      inside = syscall(SYS_ioprio_get, 1, 0);
    }
    after = syscall(SYS_ioprio_get, 1, 0);
  }).join();
  ASSERT_TRUE(applied) << err;
  EXPECT_EQ(inside, 3 << 13);
  EXPECT_EQ(after, before);
}

TEST(SelfPlacementTest, AMissingCgroupFailsTheApplyAndChangesNothing) {
  testing::ScopedTempDir temp;
  ScopedSelfPlacement placed;
  ProcessPlacement p;
  p.ioprio = 3 << 13;
  p.cgroup_procs = {temp.path() + "/cgroup.procs"};  // under no cgroup mount
  std::string err;
  const long before = syscall(SYS_ioprio_get, 1, 0);
  EXPECT_FALSE(placed.Apply(p, &err));
  EXPECT_NE(err.find("cannot find the cgroup this process is in"), std::string::npos) << err;
  EXPECT_EQ(syscall(SYS_ioprio_get, 1, 0), before);
}

// On the machine's own I/O hierarchy (cgroup v2's root with io, else v1's blkio): the process
// goes into a cgroup made for the test and comes back, and the cgroup can then be removed.
TEST(SelfPlacementRootTest, TheProcessMovesIntoTheCgroupAndBack) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to make a cgroup";
  struct stat st {};
  std::string hierarchy = "/sys/fs/cgroup";
  if (stat("/sys/fs/cgroup/cgroup.controllers", &st) != 0) hierarchy = "/sys/fs/cgroup/blkio";
  if (stat((hierarchy + "/cgroup.procs").c_str(), &st) != 0) {
    GTEST_SKIP() << "no cgroup v2 root and no v1 blkio hierarchy at " << hierarchy;
  }
  const std::string dir = hierarchy + "/elevbench-test-self-" + std::to_string(getpid());
  ASSERT_EQ(mkdir(dir.c_str(), 0755), 0) << dir;
  const std::string self_before = testing::ReadFileOrEmpty("/proc/self/cgroup");
  std::string err;
  bool applied = false;
  std::string self_inside;
  {
    ScopedSelfPlacement placed;
    ProcessPlacement p;
    p.cgroup_procs = {dir + "/cgroup.procs"};
    applied = placed.Apply(p, &err);
    self_inside = testing::ReadFileOrEmpty("/proc/self/cgroup");
  }
  EXPECT_EQ(testing::ReadFileOrEmpty("/proc/self/cgroup"), self_before);
  EXPECT_EQ(rmdir(dir.c_str()), 0) << "the cgroup is still busy: " << dir;
  ASSERT_TRUE(applied) << err;
  EXPECT_NE(self_inside.find("/elevbench-test-self-"), std::string::npos) << self_inside;
}

}  // namespace
}  // namespace elevbench
