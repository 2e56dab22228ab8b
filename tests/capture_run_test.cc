// The capture's checks and its header's facts (harness/run/capture_run.h) on a fake sysfs;
// the capture itself runs as root in CaptureReplayRootTest and CaptureDeviceRootTest.

#include "harness/run/capture_run.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

class CaptureRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    paths_.root = dir_.path();
    Disk("sdb", "8:16", "mq-deadline kyber [bfq] none", "4096");
    Disk("dm-0", "253:0", "none", "512");
    Put("sys/block/sdb/sdb1/partition", "1\n");
  }
  void Put(const std::string& rel, const std::string& content) {
    fs::create_directories(fs::path(dir_.path() + "/" + rel).parent_path());
    std::ofstream(dir_.path() + "/" + rel) << content;
  }
  void Disk(const std::string& name, const std::string& devno, const std::string& scheduler,
            const std::string& logical_block) {
    const std::string s = "sys/block/" + name;
    Put(s + "/dev", devno + "\n");
    Put(s + "/size", "2048\n");
    Put(s + "/queue/scheduler", scheduler + "\n");
    Put(s + "/queue/logical_block_size", logical_block + "\n");
  }
  testing::ScopedTempDir dir_;
  SystemPaths paths_;
};

TEST_F(CaptureRunTest, ADeviceIsAWholeDiskByNameOrPath) {
  std::string name, err;
  ASSERT_TRUE(CheckCaptureDevice("/dev/sdb", paths_, &name, &err)) << err;
  EXPECT_EQ(name, "sdb");
  ASSERT_TRUE(CheckCaptureDevice("sdb", paths_, &name, &err)) << err;
  EXPECT_EQ(name, "sdb");
  for (const char* partition : {"sdb1", "/dev/sdb1"}) {
    EXPECT_FALSE(CheckCaptureDevice(partition, paths_, &name, &err)) << partition;
    EXPECT_EQ(err, "--device " + std::string(partition) +
                       ": not a whole disk (name the disk, not a partition; see `elevbench "
                       "devices`)");
  }
  // #45: a name that names nothing is "no such disk", as `run --device` says it.
  for (const char* bad : {"sdz", "", "../sdb", "/dev/", ".."}) {
    EXPECT_FALSE(CheckCaptureDevice(bad, paths_, &name, &err)) << bad;
    EXPECT_EQ(err, "--device " + std::string(bad) +
                       ": no such disk (a name such as sdb; see `elevbench devices`)");
  }
}

TEST_F(CaptureRunTest, TheHeaderHasTheDisksFactsAndItsActiveScheduler) {
  BlockTraceHeader h;
  uint32_t major = 0, minor = 0;
  std::string err;
  ASSERT_TRUE(DescribeTracedDisk("sdb", paths_, &h, &major, &minor, &err)) << err;
  EXPECT_EQ(major, 8u);
  EXPECT_EQ(minor, 16u);
  EXPECT_EQ(h.device, "sdb");
  EXPECT_EQ(h.device_bytes, 2048u * 512);
  EXPECT_EQ(h.logical_block_bytes, 4096u);
  EXPECT_EQ(h.scheduler, "bfq");
  EXPECT_FALSE(h.kernel.empty());
  EXPECT_FALSE(h.captured_at.empty());
  // A bio-based disk lists "none" alone, without brackets: that is its scheduler.
  ASSERT_TRUE(DescribeTracedDisk("dm-0", paths_, &h, &major, &minor, &err)) << err;
  EXPECT_EQ(h.scheduler, "none");
  EXPECT_EQ(h.logical_block_bytes, 512u);
  EXPECT_FALSE(DescribeTracedDisk("sdz", paths_, &h, &major, &minor, &err));
  EXPECT_EQ(err.rfind("cannot describe sdz: ", 0), 0u) << err;
}

}  // namespace
}  // namespace elevbench
