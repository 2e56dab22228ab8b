// The restore journal (harness/device/restore_journal.h) on the real machine, as root: a loop
// device taken through every scheduler and back, and a mount unmounted.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/scratch_device.h"
#include "restore_journal_fixture.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

using testing::MakeTempDir;

TEST(RestoreJournalRootTest, LoopDeviceThroughEverySchedulerAndBack) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to create a loop device: uid " << geteuid();
  if (access("/dev/loop-control", F_OK) != 0) {
    GTEST_SKIP() << "needs root to create a loop device: no /dev/loop-control";
  }
  std::string dir = MakeTempDir("loop");
  ASSERT_FALSE(dir.empty());
  std::string image = dir + "/disk.img";
  { std::ofstream(image).close(); }
  fs::resize_file(image, 16 << 20);
  Sysfs live;
  std::string vda_before;
  std::string err;
  bool have_vda = live.Read("/sys/block/vda/queue/scheduler", &vda_before, &err);

  RestoreJournal j(live);
  ASSERT_TRUE(j.Open(dir + "/state", "root integration test", &err)) << err;
  struct Cleanup {  // detaches and removes everything even when an ASSERT bails out
    RestoreJournal* journal;
    std::string dir;
    ~Cleanup() {
      std::vector<std::string> log;
      std::string e;
      if (!journal->entries().empty()) (void)journal->RestoreAll(&log, &e);
      fs::remove_all(dir);
    }
  } cleanup{&j, dir};
  // A loop device of its own (created, then removed by the journal), as elevbench's own targets
  // are: attaching a free loop0..7 of the machine would leave the queue settings that attaching
  // and switching change (rotational, read_ahead_kb, write_cache, discard) on a device the test
  // does not own.
  std::string device;
  ASSERT_TRUE(AttachLoopDevice(image, &j, &device, &err)) << err;
  std::string sched = "/sys/block/" + device.substr(5) + "/queue/scheduler";
  std::string line;
  std::vector<std::string> available;
  std::string original;
  ASSERT_TRUE(live.Read(sched, &line, &err)) << err;
  ASSERT_TRUE(ParseSchedulerLine(line, &available, &original, &err)) << err;
  ASSERT_TRUE(j.RecordSysfsValue(sched, &err)) << err;
  std::string last;
  for (const std::string& name : available) {
    EXPECT_TRUE(live.WriteVerified(sched, name, &err)) << err;
    last = name;
  }
  if (last == original && available.size() > 1) {
    EXPECT_TRUE(live.WriteVerified(sched, available.front(), &err)) << err;
  }
  std::vector<std::string> log;
  EXPECT_TRUE(j.RestoreAll(&log, &err)) << err;
  ASSERT_EQ(log.size(), 3u);
  EXPECT_EQ(log[0], "restored " + sched + " to '" + original + "'");
  EXPECT_EQ(log[1], "detached " + device + " (" + image + ")");
  EXPECT_EQ(log[2], "removed loop device " + device);
  EXPECT_FALSE(fs::exists("/sys/block/" + device.substr(5))) << device << " is still there";
  if (have_vda) {
    std::string vda_after;
    ASSERT_TRUE(live.Read("/sys/block/vda/queue/scheduler", &vda_after, &err)) << err;
    EXPECT_EQ(vda_after, vda_before);
  }
}

TEST(RestoreJournalRootTest, MountIsUnmounted) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to mount: uid " << geteuid();
  std::string dir = MakeTempDir("mount");
  ASSERT_FALSE(dir.empty());
  std::string mnt = dir + "/mnt";
  fs::create_directory(mnt);
  RestoreJournal j{Sysfs()};
  std::string err;
  ASSERT_TRUE(j.Open(dir + "/state", "mount test", &err)) << err;
  ASSERT_TRUE(j.Record(JournalEntry::Mount(mnt), &err)) << err;
  ASSERT_EQ(mount("elevbench-test", mnt.c_str(), "tmpfs", 0, "size=1m"), 0) << strerror(errno);
  std::vector<std::string> log;
  EXPECT_TRUE(j.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, std::vector<std::string>{"unmounted " + mnt});
  EXPECT_EQ(umount2(mnt.c_str(), 0), -1);  // nothing left mounted there
  fs::remove_all(dir);
}

}  // namespace
}  // namespace elevbench
