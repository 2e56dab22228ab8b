// The dependent replayer's engine on a device the test makes: a 64 MiB loop device on a file in
// /dev/shm (tmpfs). Root only (loop devices); every losetup has a deadline, and the engine its
// own timeout.

#include "scenarios/replay/replay_engine.h"

#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>

#include "test_util.h"

namespace elevbench {
namespace {

using testing::RunDeviceCommandWithin;

constexpr uint64_t kEngineDeviceBytes = 64 << 20;

class ReplayEngineRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    struct statfs shm;
    if (geteuid() != 0 || !ProgramInPath("losetup") || statfs("/dev/shm", &shm) != 0 ||
        shm.f_type != TMPFS_MAGIC) {
      GTEST_SKIP() << "needs root, losetup and a tmpfs on /dev/shm";
    }
    image_dir_ = std::make_unique<testing::ScopedTempDir>("/dev/shm");
    const std::string image = image_dir_->path() + "/disk.img";
    std::ofstream(image, std::ios::binary).flush();
    std::filesystem::resize_file(image, kEngineDeviceBytes);
    std::string out, err;
    ASSERT_TRUE(RunDeviceCommandWithin({"losetup", "--find", "--show", image}, 30, &out, &err))
        << err;
    device_ = out.substr(0, out.find('\n'));
    ASSERT_EQ(device_.rfind("/dev/loop", 0), 0u) << out;
  }

  void TearDown() override {
    if (device_.empty()) return;
    std::string err;
    EXPECT_TRUE(RunDeviceCommandWithin({"losetup", "--detach", device_}, 30, nullptr, &err)) << err;
  }

  std::unique_ptr<testing::ScopedTempDir> image_dir_;
  std::string device_;  // "/dev/loopN"; empty until attached
};

// A buffered writer that writes until the readers end stops when cat has read, not when the
// flusher of its own pages reads a bitmap 4 s later (docs/replay.md §3, "how much"): that job is
// writer_writeback. Its read is still replayed, at its time.
TEST_F(ReplayEngineRootTest, ABufferedWriterDoesNotWaitForItsOwnWritebacksRead) {
  ReplayEngineInput input;
  input.device = device_;
  input.writes = true;
  ReplayStep read;
  read.bytes = 4096;
  ReplayStep second_read = read;  // cat reads for half a second: the writer writes meanwhile
  second_read.offset = 4096;
  second_read.us = 500000;
  ReplayStep late_read = read;
  late_read.offset = 40 << 20;
  late_read.us = 4000000;
  ReplayBufferedWriter writer;
  writer.bytes = 1 << 20;
  writer.until_readers_end = true;
  writer.extents = {{8 << 20, 8 << 20}};
  input.jobs = {{"p42_cat", 1, {read, second_read}, std::nullopt, false, {}, {}, {}, {}, false},
                {"p7_kworker", 1, {late_read}, std::nullopt, true, {}, {}, {}, {}, false},
                {"p50_dd", 1, {}, writer, false, {}, {}, {}, {}, false}};
  ReplayEngineResult result;
  std::string err;
  ASSERT_TRUE(RunReplayEngine(input, 60, &result, &err)) << err;
  ASSERT_EQ(result.jobs.size(), 3u);
  EXPECT_EQ(result.jobs[1].read.ios, 1u) << "the flusher's read was replayed";
  EXPECT_GE(result.seconds, 4.0) << "at its time";
  EXPECT_GT(result.jobs[2].write.bytes, 0u);
  EXPECT_EQ(result.jobs[2].sync_ios, 1u);
  // It ended with cat's last read (0.5 s in), seconds before the flusher's read was due.
  EXPECT_LT(result.jobs[2].write.runtime_seconds, 3.0) << "the writer waited for the flusher";
}

}  // namespace
}  // namespace elevbench
