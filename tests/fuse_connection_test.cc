// Finding a FUSE connection in mountinfo (never by a stat of the mount), and the restore's look
// at a journaled daemon whose filesystem is gone.

#include "harness/device/fuse_connection.h"

#include <gtest/gtest.h>
#include <unistd.h>

namespace elevbench {
namespace {

constexpr const char* kMountinfo =
    "22 1 252:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
    "98 22 0:45 / /var/tmp/elevbench-a1/fuse rw,nosuid,nodev,relatime shared:50 - fuse.elevbench "
    "elevbench-disk rw,user_id=0,group_id=0\n"
    "99 22 7:3 / /var/tmp/elevbench-a1/mnt rw,relatime shared:51 - ext2 /dev/loop3 rw\n"
    "100 22 0:46 / /mnt/with\\040space rw shared:52 - fuse sshfs rw\n"
    "101 22 8:17 / /media/usb rw shared:53 - fuseblk /dev/sdb1 rw\n";

TEST(FuseConnectionTest, TheConnectionIsTheSuperblocksDeviceNumber) {
  unsigned conn = 0;
  ASSERT_TRUE(FuseConnectionFromMountinfo(kMountinfo, "/var/tmp/elevbench-a1/fuse", &conn));
  EXPECT_EQ(conn, 45u);
  ASSERT_TRUE(FuseConnectionFromMountinfo(kMountinfo, "/mnt/with space", &conn));
  EXPECT_EQ(conn, 46u);
  ASSERT_TRUE(FuseConnectionFromMountinfo(kMountinfo, "/media/usb", &conn));
  EXPECT_EQ(conn, (8u << 20) | 17u) << "the kernel's dev_t, as fusectl names it";
}

TEST(FuseConnectionTest, OnlyAFuseFilesystemExactlyThereCounts) {
  unsigned conn = 7;
  EXPECT_FALSE(FuseConnectionFromMountinfo(kMountinfo, "/var/tmp/elevbench-a1/mnt", &conn));
  EXPECT_FALSE(FuseConnectionFromMountinfo(kMountinfo, "/var/tmp/elevbench-a1", &conn));
  EXPECT_FALSE(FuseConnectionFromMountinfo(kMountinfo, "/var/tmp/elevbench-a1/fuse/x", &conn));
  EXPECT_FALSE(FuseConnectionFromMountinfo("garbage\n\n 1 2\n", "/", &conn));
  EXPECT_EQ(conn, 7u);
}

TEST(FuseConnectionTest, AJournaledDaemonWhoseFilesystemIsGoneIsLeftAlone) {
  const JournalEntry e =
      JournalEntry::FuseConnection("/var/tmp/elevbench-gone/fuse", 45, getpid(), 1, "elevbench");
  std::string line;
  EXPECT_EQ(UnblockFuseDaemon(e, 1, &line), FuseDaemonCheck::kGone);
  EXPECT_EQ(line, "FUSE connection 45 of /var/tmp/elevbench-gone/fuse is gone");
  EXPECT_EQ(AbortJournaledFuseConnection(e), "") << "nothing of someone else's is aborted";
}

}  // namespace
}  // namespace elevbench
