// The emulated ide-2003 disk as a whole: build the stack (tmpfs backing, FUSE daemon, loop device
// with direct I/O, filesystem), run two streaming O_DIRECT readers under mq-deadline and under
// bfq:low_latency=0, and check that the real kernel schedulers now differ the way 2003's deadline
// and anticipatory schedulers did. Then tear down and check nothing is left. Root + /dev/fuse only.

#include "harness/disk/emulated_stack.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/device/device_control.h"
#include "harness/fio/fio_runner.h"
#include "harness/process/subprocess.h"
#include "harness/core/system_info.h"
#include "test_util.h"

#ifndef ELEVBENCH_BINARY
#define ELEVBENCH_BINARY "build/elevbench"
#endif

namespace elevbench {
namespace {

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Combined MiB/s of two O_DIRECT streaming readers, each on its own 256 MiB file (Nick's
// 1 GB file sets put streams hundreds of MB apart; with 64 MiB files the seeks are so short that
// the gap shrinks to about 1.5x).
double TwoReaders(const std::string& dir, const std::string& work, std::string* err) {
  StreamSpec s;
  s.name = "reader";
  s.rw = "read";
  s.directory = dir;
  s.file_size_bytes = 256ULL << 20;
  s.block_size_bytes = 256 * 1024;
  s.numjobs = 2;
  s.direct = true;
  FioInvocation inv;
  inv.streams = {s};
  inv.work_dir = work;
  inv.label = "two-readers";
  inv.timeout_seconds = 300;
  FioRunResult r;
  if (!RunFio(inv, &r, err)) return -1;
  uint64_t bytes = 0, slowest_ms = 0;
  for (const FioJobResult& j : r.jobs) {
    bytes += j.read.io_bytes;
    slowest_ms = std::max<uint64_t>(slowest_ms, j.read.runtime_ms);
  }
  return slowest_ms ? static_cast<double>(bytes) / (1 << 20) / (slowest_ms / 1000.0) : -1;
}

// Gone, or a zombie waiting for init to reap it (the daemon is double-forked, not our child).
bool ProcessGone(pid_t pid) {
  for (int i = 0; i < 50; ++i) {
    std::string stat = Slurp("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (stat.empty() ||
        (paren != std::string::npos && stat.size() > paren + 2 && stat[paren + 2] == 'Z')) {
      return true;
    }
    usleep(100 * 1000);
  }
  return false;
}

TEST(EmulatedStackTest, BfqWithoutLowLatencyAnticipatesOnTheEmulatedDisk) {
  if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0) {
    GTEST_SKIP() << "needs root and /dev/fuse to build the emulated disk";
  }
  if (!ProgramInPath("fio") || !ProgramInPath("losetup")) GTEST_SKIP() << "needs fio and losetup";
  testing::ScopedTempDir temp;
  const std::string tmp = temp.path();
  std::string err;
  EmulatedStack stack;
  std::vector<std::string> log;
  {
    RestoreJournal journal;
    ASSERT_TRUE(journal.Open(tmp + "/state", "emulated stack test", &err)) << err;
    EmulatedOptions options;
    options.profile_name = "ide-2003";
    options.size_bytes = 1ULL << 30;
    options.self_exe = ELEVBENCH_BINARY;
    bool built = CreateEmulatedStack(options, &journal, &stack, &err);
    EXPECT_TRUE(built) << err;
    double dl = -1, bfq = -1;
    if (built) {
      Sysfs sysfs;
      DeviceControl control(sysfs, &journal, {stack.loop_name});
      ASSERT_TRUE(control.PinQueueAttrs(EmulatedQueueAttrs(stack.profile), &err)) << err;
      // Lay the two files out first, one after the other, so the streams are 256 MiB apart.
      std::vector<StreamSpec> writers;
      for (int k = 0; k < 2; ++k) {
        StreamSpec w;
        w.name = "writer" + std::to_string(k);
        w.filename = "reader." + std::to_string(k) + ".0";
        w.rw = "write";
        w.directory = stack.mountpoint;
        w.file_size_bytes = 256ULL << 20;
        w.block_size_bytes = 1 << 20;
        w.direct = true;
        w.stonewall = k > 0;
        writers.push_back(w);
      }
      FioInvocation inv;
      inv.streams = writers;
      inv.work_dir = tmp;
      inv.label = "layout";
      FioRunResult wr;
      ASSERT_TRUE(RunFio(inv, &wr, &err)) << err;
      std::vector<SchedulerConfig> configs;
      ASSERT_TRUE(ParseSchedulerList("mq-deadline,bfq:low_latency=0", &configs, &err)) << err;
      ASSERT_TRUE(control.Apply(configs[0], &err)) << err;
      dl = TwoReaders(stack.mountpoint, tmp, &err);
      EXPECT_GT(dl, 0) << err;
      ASSERT_TRUE(control.Apply(configs[1], &err)) << err;
      bfq = TwoReaders(stack.mountpoint, tmp, &err);
      EXPECT_GT(bfq, 0) << err;
      std::printf(
          "two O_DIRECT readers on ide-2003: mq-deadline %.1f MiB/s, "
          "bfq:low_latency=0 %.1f MiB/s (%.2fx)\n",
          dl, bfq, bfq / dl);
      EXPECT_GE(bfq, 1.8 * dl) << "the emulated disk should make anticipation pay, as in 2003";
    }
    EXPECT_TRUE(journal.RestoreAll(&log, &err)) << err;
  }
  // Nothing is left: daemon, mounts, loop device, backing file, work directory, journal.
  EXPECT_TRUE(ProcessGone(stack.daemon_pid)) << "the disk daemon is still running";
  const std::string mounts = Slurp("/proc/mounts");
  EXPECT_EQ(mounts.find(stack.work_dir.empty() ? "/nonexistent" : stack.work_dir),
            std::string::npos)
      << mounts;
  std::string losetup;
  ASSERT_TRUE(RunChecked({"losetup", "-a"}, &losetup, &err)) << err;
  if (!stack.work_dir.empty()) {
    EXPECT_EQ(losetup.find(stack.work_dir), std::string::npos) << losetup;
  }
  EXPECT_FALSE(std::filesystem::exists(stack.work_dir));
  EXPECT_FALSE(std::filesystem::exists(tmp + "/state/journal.json"));
}

}  // namespace
}  // namespace elevbench
