// `capture --device` on a disk the test makes: a 16 MiB loop device on a file in /dev/shm
// (tmpfs), filled with known random bytes. A capture of a command that only reads the device
// must record those reads and leave every byte as it was; an --out on the device is refused.
// Root only (loop devices, tracefs); every losetup, checksum and elevbench call has a deadline.

#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "harness/device/block_device.h"
#include "harness/process/subprocess.h"
#include "harness/trace/block_trace_file.h"
#include "test_util.h"

namespace elevbench {
namespace {

using testing::RunDeviceCommandWithin;

constexpr uint64_t kDeviceBytes = 16 << 20;

// sha256 of the whole device or file, as sha256sum prints it; "" (and a failure) on error.
std::string Sha256Of(const std::string& path) {
  std::string out, err;
  EXPECT_TRUE(RunDeviceCommandWithin({"sha256sum", path}, 60, &out, &err)) << err;
  return out.substr(0, out.find(' '));
}

// A loop device on a tmpfs file of known random bytes, detached (bounded) when the test ends.
class CaptureDeviceRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    struct statfs shm;
    if (geteuid() != 0 || !ProgramInPath("losetup") || !ProgramInPath("sha256sum") ||
        statfs("/dev/shm", &shm) != 0 || shm.f_type != TMPFS_MAGIC) {
      GTEST_SKIP() << "needs root, losetup, sha256sum and a tmpfs on /dev/shm";
    }
    image_dir_ = std::make_unique<testing::ScopedTempDir>("/dev/shm");
    image_ = image_dir_->path() + "/disk.img";
    std::string bytes(kDeviceBytes, '\0');
    std::mt19937_64 random(31);  // fixed seed: the same bytes every run
    for (size_t i = 0; i < bytes.size(); i += 8) {
      const uint64_t v = random();
      std::memcpy(&bytes[i], &v, 8);
    }
    std::ofstream(image_, std::ios::binary) << bytes;
    ASSERT_EQ(std::filesystem::file_size(image_), kDeviceBytes);
    image_sha_ = Sha256Of(image_);
    std::string out, err;
    ASSERT_TRUE(RunDeviceCommandWithin({"losetup", "--find", "--show", image_}, 30, &out, &err))
        << err;
    device_ = out.substr(0, out.find('\n'));
    ASSERT_EQ(device_.rfind("/dev/loop", 0), 0u) << out;
    name_ = device_.substr(5);
  }

  void TearDown() override {
    if (device_.empty()) return;
    std::string err;
    EXPECT_TRUE(RunDeviceCommandWithin({"losetup", "--detach", device_}, 30, nullptr, &err)) << err;
    // The bytes behind the device, after it let go of them.
    EXPECT_EQ(Sha256Of(image_), image_sha_) << "the image changed";
  }

  std::unique_ptr<testing::ScopedTempDir> image_dir_;
  std::string image_, image_sha_;
  std::string device_;  // "/dev/loopN"; empty until attached
  std::string name_;    // "loopN"
};

TEST_F(CaptureDeviceRootTest, CaptureOfAReaderRecordsItsReadsAndChangesNoByte) {
  ASSERT_EQ(Sha256Of(device_), image_sha_);
  testing::ScopedTempDir out_dir("/var/tmp");
  const std::string trace = out_dir.path() + "/read.trace";
  const ProcessResult cap = testing::RunElevbenchCli(
      {"capture", "--device", device_, "--out", trace, "--", "dd", "if=" + device_, "of=/dev/null",
       "bs=64k", "count=16", "iflag=direct", "status=none"},
      120);
  ASSERT_EQ(cap.exit_code, 0) << cap.error_output;
  EXPECT_EQ(Sha256Of(device_), image_sha_) << "capture --device changed the device";

  BlockTrace t;
  std::string err;
  ASSERT_TRUE(ReadBlockTraceFile(trace, &t, &err)) << err;
  EXPECT_EQ(t.header.device, name_);
  EXPECT_EQ(t.header.device_bytes, kDeviceBytes);
  EXPECT_EQ(t.header.lost_events, 0u);
  uint64_t dd_read = 0, written = 0;
  for (const BlockTraceRecord& r : t.records) {
    if (r.op == BlockTraceOp::kRead && r.comm == "dd") dd_read += r.sectors * 512ULL;
    if (r.op == BlockTraceOp::kWrite || r.op == BlockTraceOp::kDiscard) {
      written += r.sectors * 512ULL;
    }
  }
  EXPECT_EQ(dd_read, 16u * 65536) << "every 64 KiB O_DIRECT read of dd is in the trace";
  EXPECT_EQ(written, 0u) << "nothing wrote to the traced device";
  EXPECT_FALSE(std::filesystem::exists(trace + ".raw"));
}

TEST_F(CaptureDeviceRootTest, AnOutOnTheTracedDeviceIsRefusedBeforeAnythingIsCreated) {
  ASSERT_EQ(Sha256Of(device_), image_sha_);
  // The check must see the device node as the device, or the CLI below would write over it.
  bool on = false;
  std::string err;
  ASSERT_TRUE(PathIsOnDisk(device_, name_, SystemPaths{}, &on, &err)) << err;
  ASSERT_TRUE(on) << device_;
  const ProcessResult r = testing::RunElevbenchCli(
      {"capture", "--device", name_, "--duration", "1", "--out", device_}, 60);
  EXPECT_EQ(r.exit_code, 2) << r.error_output;
  EXPECT_NE(r.error_output.find("the disk --device traces"), std::string::npos) << r.error_output;
  EXPECT_FALSE(std::filesystem::exists(device_ + ".raw"));
  EXPECT_EQ(Sha256Of(device_), image_sha_);
}

}  // namespace
}  // namespace elevbench
