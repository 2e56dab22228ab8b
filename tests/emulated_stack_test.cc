// The emulated ide-2003 disk as a whole: build the stack (tmpfs backing, FUSE daemon, a new loop
// device with direct I/O and 4 driver tags, filesystem), run two streaming O_DIRECT readers under
// mq-deadline and under bfq:low_latency=0, and check that the real kernel schedulers now differ
// the way 2003's deadline and anticipatory schedulers did. Then tear down — always, even when an
// assertion fails — and check nothing is left and no other loop device's queue changed. Root +
// /dev/fuse only. The queue settings themselves (EmulatedQueueAttrs) are unit-tested at the end.

#include "harness/disk/emulated_stack.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "harness/core/system_info.h"
#include "harness/device/device_control.h"
#include "harness/device/driver_tags.h"
#include "harness/fio/fio_runner.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

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
bool DaemonGoneSoon(pid_t pid) {
  for (int i = 0; i < 50; ++i) {
    std::string stat = testing::ReadFileOrEmpty("/proc/" + std::to_string(pid) + "/stat");
    const size_t paren = stat.rfind(')');
    if (stat.empty() ||
        (paren != std::string::npos && stat.size() > paren + 2 && stat[paren + 2] == 'Z')) {
      return true;
    }
    usleep(100 * 1000);
  }
  return false;
}

// What a run may change on a loop device's queue, and must put back.
struct LoopQueueState {
  std::string scheduler;
  std::string nr_requests;
  std::string wbt_lat_usec;
  int driver_tags = -1;
  bool operator==(const LoopQueueState&) const = default;
};

void PrintTo(const LoopQueueState& q, std::ostream* os) {
  *os << "{" << q.scheduler << ", nr_requests " << q.nr_requests << ", wbt_lat_usec "
      << q.wbt_lat_usec << ", driver tags " << q.driver_tags << "}";
}

// Every loop device that is not attached (attached ones belong to someone else's run).
std::map<std::string, LoopQueueState> FreeLoopQueues() {
  std::map<std::string, LoopQueueState> out;
  Sysfs live;
  for (const auto& e : std::filesystem::directory_iterator("/sys/block")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("loop", 0) != 0 || std::filesystem::exists(e.path() / "loop" / "backing_file")) {
      continue;
    }
    LoopQueueState q;
    std::string err;
    if (!live.Read(QueuePath(name, "scheduler"), &q.scheduler, &err) ||
        !live.Read(QueuePath(name, "nr_requests"), &q.nr_requests, &err) ||
        !live.Read(QueuePath(name, "wbt_lat_usec"), &q.wbt_lat_usec, &err)) {
      ADD_FAILURE() << name << ": " << err;
      continue;
    }
    bool no_blk_mq_debugfs = false;  // a kernel that cannot show the tags: the rest is compared
    if (!ReadDriverTags(live, name, &q.driver_tags, &no_blk_mq_debugfs, &err) &&
        !no_blk_mq_debugfs) {
      ADD_FAILURE() << name << ": " << err;
      continue;
    }
    out[name] = q;
  }
  return out;
}

// The most requests `loop` held in flight (/sys/block/<loop>/inflight, read every millisecond)
// while `work` ran.
int MostInFlightWhile(const std::string& loop, const std::function<void()>& work) {
  std::atomic<bool> working{true};
  int most = 0;
  std::thread sampler([&] {
    const std::string path = "/sys/block/" + loop + "/inflight";
    while (working) {
      std::istringstream in(testing::ReadFileOrEmpty(path));
      int reads = 0;
      int writes = 0;
      in >> reads >> writes;
      most = std::max(most, reads + writes);
      usleep(1000);
    }
  });
  work();
  working = false;
  sampler.join();
  return most;
}

// Builds the stack and measures. ASSERTs return from here, never past the caller's teardown.
void TwoReadersOnTheEmulatedDisk(RestoreJournal* journal, const std::string& tmp,
                                 EmulatedStack* stack) {
  std::string err;
  EmulatedOptions options;
  options.profile_name = "ide-2003";
  options.size_bytes = 1ULL << 30;
  options.self_exe = ELEVBENCH_BINARY;
  ASSERT_TRUE(CreateEmulatedStack(options, journal, stack, &err)) << err;
  Sysfs sysfs;
  // The queue as the profile wants it: the elevator, not loop's 128 tags, decides.
  int tags = -1;
  bool no_blk_mq_debugfs = false;
  const bool tags_shown = ReadDriverTags(sysfs, stack->loop_name, &tags, &no_blk_mq_debugfs, &err);
  ASSERT_TRUE(tags_shown || no_blk_mq_debugfs) << err;
  if (tags_shown) {
    EXPECT_EQ(tags, 4);
  }
  const nlohmann::json settings = EmulatedQueueSettingsJson(*stack);
  EXPECT_EQ(settings["driver_tags"], 4) << settings.dump();
  EXPECT_EQ(settings["writeback_throttling"], "off") << settings.dump();
  EXPECT_EQ(settings["wbt_lat_usec"], 0) << settings.dump();
  EXPECT_EQ(settings["read_ahead_kb"], 128) << settings.dump();
  EXPECT_EQ(settings["max_sectors_kb"], 128) << settings.dump();
  DeviceControl control(sysfs, journal, {stack->loop_name});
  ASSERT_TRUE(control.PinQueueAttrs(EmulatedQueueAttrs(*stack), &err)) << err;
  // Lay the two files out first, one after the other, so the streams are 256 MiB apart.
  std::vector<StreamSpec> writers;
  for (int k = 0; k < 2; ++k) {
    StreamSpec w;
    w.name = "writer" + std::to_string(k);
    w.filename = "reader." + std::to_string(k) + ".0";
    w.rw = "write";
    w.directory = stack->mountpoint;
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
  // The check debugfs cannot give on every kernel: each 1 MiB write is split into eight 128 KiB
  // requests, and the loop device holds at most as many in flight (/sys/block/<loop>/inflight:
  // started, waiting on the one-at-a-time disk) as it has driver tags: 4, not loop's 128.
  bool laid_out = false;
  EXPECT_EQ(MostInFlightWhile(stack->loop_name, [&] { laid_out = RunFio(inv, &wr, &err); }), 4)
      << "requests in flight at most on " << stack->loop_name << " under the first scheduler";
  ASSERT_TRUE(laid_out) << err;
  std::vector<SchedulerConfig> configs;
  const std::string second = testing::SecondLiveScheduler();
  ASSERT_TRUE(ParseSchedulerList("mq-deadline," + second, &configs, &err)) << err;
  ASSERT_TRUE(control.Apply(configs[0], &err)) << err;
  const double dl = TwoReaders(stack->mountpoint, tmp, &err);
  EXPECT_GT(dl, 0) << err;
  ASSERT_TRUE(control.Apply(configs[1], &err)) << err;
  // The tags hold across the switch (on any kernel: LoopDeviceRootTest reads them where it can).
  FioInvocation burst = inv;
  burst.streams.resize(1);
  burst.streams[0].filename = "burst";
  burst.streams[0].file_size_bytes = 16 << 20;
  burst.label = "burst";
  bool burst_ok = false;
  EXPECT_EQ(MostInFlightWhile(stack->loop_name, [&] { burst_ok = RunFio(burst, &wr, &err); }), 4)
      << "requests in flight at most on " << stack->loop_name << " under " << second;
  EXPECT_TRUE(burst_ok) << err;
  const double bfq = TwoReaders(stack->mountpoint, tmp, &err);
  EXPECT_GT(bfq, 0) << err;
  if (tags_shown) {
    EXPECT_EQ(control.DriverTags(stack->loop_name), 4);
  }
  std::printf("two O_DIRECT readers on ide-2003: mq-deadline %.1f MiB/s, %s %.1f MiB/s (%.2fx)\n",
              dl, second.c_str(), bfq, bfq / dl);
  // The ratio is a measurement, not a pass/fail line: it depends on the host's load (1.06x
  // with two compilers on the 2 CPUs, 1.8-2.0x idle). Its reproducible measurement is
  // nickbench Bench 3 on the emulated disk (docs/load-probe-suites.md, docs/emulated-disk.md).
  ::testing::Test::RecordProperty(second + "_over_mq_deadline", std::to_string(bfq / dl));
}

// Restores what the journal holds however the measurement ends (an assertion returns early).
struct RestoreOnExit {
  RestoreJournal* journal;
  std::vector<std::string>* log;
  std::string* err;
  bool* restored;
  ~RestoreOnExit() { *restored = journal->RestoreAll(log, err); }
};

TEST(EmulatedStackRootTest, TwoReadersUnderTwoSchedulersAndNothingLeftBehind) {
  if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0) {
    GTEST_SKIP() << "needs root and /dev/fuse to build the emulated disk";
  }
  if (!ProgramInPath("fio") || !ProgramInPath("losetup")) GTEST_SKIP() << "needs fio and losetup";
  testing::ScopedTempDir temp;
  const std::string tmp = temp.path();
  const std::map<std::string, LoopQueueState> before = FreeLoopQueues();
  EmulatedStack stack;
  std::vector<std::string> log;
  std::string restore_err;
  bool restored = false;
  {
    RestoreJournal journal;
    std::string err;
    ASSERT_TRUE(journal.Open(tmp + "/state", "emulated stack test", &err)) << err;
    const RestoreOnExit teardown{&journal, &log, &restore_err, &restored};
    TwoReadersOnTheEmulatedDisk(&journal, tmp, &stack);
  }
  EXPECT_TRUE(restored) << restore_err;
  // Nothing is left: daemon, mounts, loop device, backing file, work directory, journal.
  if (stack.daemon_pid > 0) {
    EXPECT_TRUE(DaemonGoneSoon(stack.daemon_pid)) << "the disk daemon is still running";
  }
  const std::string mounts = testing::ReadFileOrEmpty("/proc/mounts");
  EXPECT_EQ(mounts.find(stack.work_dir.empty() ? "/nonexistent" : stack.work_dir),
            std::string::npos)
      << mounts;
  std::string losetup;
  std::string err;
  EXPECT_TRUE(RunChecked({"losetup", "-a"}, &losetup, &err)) << err;
  if (!stack.work_dir.empty()) {
    EXPECT_EQ(losetup.find(stack.work_dir), std::string::npos) << losetup;
    EXPECT_FALSE(std::filesystem::exists(stack.work_dir));
  }
  if (!stack.loop_name.empty()) {
    EXPECT_FALSE(std::filesystem::exists("/sys/block/" + stack.loop_name))
        << "the loop device created for the stack was not removed";
  }
  EXPECT_FALSE(std::filesystem::exists(tmp + "/state/journal.json"));
  // Every other loop device's queue is as it was (those still free: attached ones are in use by
  // someone else now).
  for (const auto& [name, now] : FreeLoopQueues()) {
    auto it = before.find(name);
    if (it != before.end()) {
      EXPECT_EQ(now, it->second) << name;
    }
  }
}

// The R/W/F column of each line of the daemon's per-request trace, in the order it served them.
std::string TraceKinds(const std::string& path) {
  std::string kinds;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream row(line);
    std::string field;
    for (int column = 0; column < 6 && row >> field; ++column) {
    }
    if (field.size() == 1) kinds += field;
  }
  return kinds;
}

// Issue 59: an ext4 fsync on the emulated drive of today is a jbd2 commit, whose pre-flush and
// FUA commit block reach the loop device as REQ_PREFLUSH and REQ_FUA; the profile with a write
// cache says "write back" so that the kernel sends them, loop passes each to disk.img as fsync,
// and the daemon gives them to the model as flushes: a flush before the commit, and the commit
// block's write followed at once by the flush that makes it durable.
TEST(EmulatedStackRootTest, AJournalCommitsFlushAndFuaReachTheModelAsFlushes) {
  if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0) {
    GTEST_SKIP() << "needs root and /dev/fuse to build the emulated disk";
  }
  if (!ProgramInPath("losetup") || !ProgramInPath("mkfs.ext4")) {
    GTEST_SKIP() << "needs losetup and mkfs.ext4";
  }
  testing::ScopedTempDir temp;
  const std::string tmp = temp.path();
  EmulatedStack stack;
  std::vector<std::string> log;
  std::string restore_err;
  bool restored = false;
  constexpr int kFsyncs = 3;
  int64_t flushes_before = -1;
  int64_t flushes_after = -1;
  {
    RestoreJournal journal;
    std::string err;
    ASSERT_TRUE(journal.Open(tmp + "/state", "journal commit test", &err)) << err;
    const RestoreOnExit teardown{&journal, &log, &restore_err, &restored};
    EmulatedOptions options;
    options.profile_name = "hus728t8";
    options.size_bytes = 1ULL << 30;
    options.trace_path = tmp + "/disk.trace";
    options.self_exe = ELEVBENCH_BINARY;
    ASSERT_TRUE(CreateEmulatedStack(options, &journal, &stack, &err)) << err;
    EXPECT_EQ(testing::ReadFileOrEmpty("/sys/block/" + stack.loop_name + "/queue/write_cache"),
              "write back\n");
    const auto flushes = [&] {
      const nlohmann::json stats = nlohmann::json::parse(
          testing::ReadFileOrEmpty(stack.fuse_dir + "/stats.json"), nullptr, false);
      return stats.is_object() && stats.contains("flushes") ? stats["flushes"].get<int64_t>() : -1;
    };
    {  // What mkfs and mount left for the journal goes first, out of the count.
      const int dir = open(stack.mountpoint.c_str(), O_RDONLY | O_DIRECTORY);
      ASSERT_GE(dir, 0) << std::strerror(errno);
      EXPECT_EQ(syncfs(dir), 0) << std::strerror(errno);
      close(dir);
    }
    flushes_before = flushes();
    const int fd = open((stack.mountpoint + "/appended").c_str(), O_CREAT | O_WRONLY, 0644);
    ASSERT_GE(fd, 0) << std::strerror(errno);
    const std::string block(4096, 'j');
    for (int i = 0; i < kFsyncs; ++i) {
      EXPECT_EQ(pwrite(fd, block.data(), block.size(), static_cast<off_t>(i) * 4096), 4096);
      EXPECT_EQ(fsync(fd), 0) << std::strerror(errno);
    }
    close(fd);
    flushes_after = flushes();
  }
  EXPECT_TRUE(restored) << restore_err;
  ASSERT_GE(flushes_before, 0) << "stats.json has no flushes for a profile with a write cache";
  // Each fsync: the commit's pre-flush and its FUA block's flush, at least.
  EXPECT_GE(flushes_after - flushes_before, 2 * kFsyncs);
  const std::string kinds = TraceKinds(tmp + "/disk.trace");
  size_t write_then_flush = 0;
  for (size_t i = 1; i < kinds.size(); ++i)
    write_then_flush += kinds[i - 1] == 'W' && kinds[i] == 'F';
  EXPECT_GE(write_then_flush, static_cast<size_t>(kFsyncs)) << kinds;
  std::printf("%d fsyncs: %lld flushes reached the model; trace %s\n", kFsyncs,
              static_cast<long long>(flushes_after - flushes_before),
              kinds.substr(kinds.size() > 80 ? kinds.size() - 80 : 0).c_str());
}

// A fake /proc/sys/vm with the kernel's defaults (bytes limits off, ratios in force).
std::string MakeFakeVm(const std::string& dir) {
  const std::string root = dir + "/root";
  std::filesystem::create_directories(root + "/proc/sys/vm");
  for (const auto& [name, value] :
       std::map<std::string, std::string>{{"dirty_bytes", "0"},
                                          {"dirty_background_bytes", "0"},
                                          {"dirty_ratio", "20"},
                                          {"dirty_background_ratio", "10"}}) {
    std::ofstream(root + "/proc/sys/vm/" + name) << value << "\n";
  }
  return root;
}

std::string ReadVm(const std::string& root, const std::string& name) {
  std::string value;
  std::ifstream(root + "/proc/sys/vm/" + name) >> value;
  return value;
}

TEST(VmSettingsTest, JournalsTheRatioInForceThenWritesTheBytesLimits) {
  testing::ScopedTempDir dir;
  const std::string root = MakeFakeVm(dir.path());
  Sysfs sysfs(root);
  RestoreJournal journal(sysfs);
  std::string err;
  ASSERT_TRUE(journal.Open(dir.path() + "/state", "test", &err)) << err;
  ASSERT_TRUE(ApplyVmSettings(sysfs, &journal, EmulatedVmSettings(), &err)) << err;
  EXPECT_EQ(ReadVm(root, "dirty_bytes"), std::to_string(48u << 20));
  EXPECT_EQ(ReadVm(root, "dirty_background_bytes"), std::to_string(16u << 20));
  std::vector<std::string> journaled;
  for (const JournalEntry& e : journal.entries()) journaled.push_back(e.path);
  EXPECT_EQ(journaled, (std::vector<std::string>{"/proc/sys/vm/dirty_ratio",
                                                 "/proc/sys/vm/dirty_background_ratio"}));
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(ReadVm(root, "dirty_ratio"), "20");
}

TEST(VmSettingsTest, RefusedWhileAnotherRunHoldsTheMachineWideLock) {
  testing::ScopedTempDir dir;
  const std::string root = MakeFakeVm(dir.path());
  // Another run: its own open file description of the lock, held.
  const int other = open((root + "/vm-settings.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  ASSERT_GE(other, 0);
  ASSERT_EQ(flock(other, LOCK_EX | LOCK_NB), 0);
  Sysfs sysfs(root);
  RestoreJournal journal(sysfs);
  std::string err;
  ASSERT_TRUE(journal.Open(dir.path() + "/state", "test", &err)) << err;
  EXPECT_FALSE(ApplyVmSettings(sysfs, &journal, EmulatedVmSettings(), &err));
  EXPECT_NE(err.find("another elevbench run"), std::string::npos) << err;
  EXPECT_EQ(ReadVm(root, "dirty_bytes"), "0");  // nothing written, nothing journaled
  EXPECT_TRUE(journal.entries().empty());
  close(other);
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
}

TEST(EmulatedQueueAttrsTest, ReadaheadLastWbtOffUnlessKept) {
  DiskProfile ide;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("ide-2003", &ide, &err)) << err;
  using Attrs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(EmulatedQueueAttrs(ide), (Attrs{{"rotational", "1"},
                                            {"max_sectors_kb", "128"},
                                            {"wbt_lat_usec", "0"},
                                            {"read_ahead_kb", "128"}}));
  EXPECT_EQ(EmulatedQueueAttrs(ide, /*keep_wbt=*/true),
            (Attrs{{"rotational", "1"}, {"max_sectors_kb", "128"}, {"read_ahead_kb", "128"}}));
  DiskProfile ssd;
  ASSERT_TRUE(LookupDiskProfile("ssd", &ssd, &err)) << err;
  EXPECT_EQ(EmulatedQueueAttrs(ssd), (Attrs{{"rotational", "0"}, {"wbt_lat_usec", "0"}}));
  // The order already holds: DeviceControl would not reorder it.
  EXPECT_EQ(OrderQueueAttrs(EmulatedQueueAttrs(ide)), EmulatedQueueAttrs(ide));
}

TEST(EmulatedQueueAttrsTest, SettingsJsonSaysWhatWasApplied) {
  EmulatedStack stack;
  stack.loop_device = "/dev/loop8";
  stack.driver_tags = 4;
  stack.wbt_lat_usec = "0";
  stack.queue_attrs = {{"rotational", "1"},
                       {"max_sectors_kb", "128"},
                       {"wbt_lat_usec", "0"},
                       {"read_ahead_kb", "128"}};
  EXPECT_EQ(EmulatedQueueSettingsJson(stack), (nlohmann::json{{"loop_device", "/dev/loop8"},
                                                              {"driver_tags", 4},
                                                              {"writeback_throttling", "off"},
                                                              {"wbt_lat_usec", 0},
                                                              {"rotational", 1},
                                                              {"max_sectors_kb", 128},
                                                              {"read_ahead_kb", 128}}));
  stack.keep_wbt = true;
  stack.wbt_lat_usec = "2000";
  stack.driver_tags = -1;
  stack.queue_attrs.erase(stack.queue_attrs.begin() + 2);
  const nlohmann::json kept = EmulatedQueueSettingsJson(stack);
  EXPECT_EQ(kept["writeback_throttling"], "kept");
  EXPECT_EQ(kept["wbt_lat_usec"], 2000);
  EXPECT_TRUE(kept["driver_tags"].is_null());
}

}  // namespace
}  // namespace elevbench
