// Integration test of the emulated disk daemon: mounts it for real (root and
// /dev/fuse needed), replays a fixed request pattern on disk.img, then checks
// stats.json and, from the trace, that every request was charged exactly what
// an independent DiskModel predicts and completed on time.
#include "harness/disk/disk_daemon.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness/disk/disk_engine.h"
#include "harness/disk/disk_model.h"
#include "harness/process/bounded_call.h"

namespace elevbench {
namespace {

constexpr uint64_t kImageBytes = 64ULL << 20;
constexpr size_t kMaxIo = 128 * 1024;

struct TraceLine {
  int64_t arrival_ns, start_ns, end_ns;
  uint64_t offset, length;
  bool is_write;
  bool is_flush;  // An F line: a flush (issue 59), from a profile with a write cache or dies.
  uint64_t seek_distance;
  int64_t modelled_ns, achieved_ns;
};

struct Op {
  uint64_t offset;
  uint64_t length;
  bool is_write;
  int pause_us;  // Think time before the request (exercises the stream cache).
};

bool IsMounted(const std::string& dir) {
  std::ifstream in("/proc/self/mounts");
  std::string dev, mnt, rest;
  while (in >> dev >> mnt && std::getline(in, rest)) {
    if (mnt == dir) return true;
  }
  return false;
}

std::vector<TraceLine> ReadTrace(const std::string& path) {
  std::vector<TraceLine> lines;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream row(text);
    TraceLine t{};
    char rw = 0;
    row >> t.arrival_ns >> t.start_ns >> t.end_ns >> t.offset >> t.length >> rw >>
        t.seek_distance >> t.modelled_ns >> t.achieved_ns;
    t.is_write = rw == 'W';
    t.is_flush = rw == 'F';
    if (row) lines.push_back(t);
  }
  return lines;
}

// Deterministic pattern (fixed LCG seed): sequential 128 KiB reads with and
// without think time, random 4 KiB reads, sequential writes, mixed sizes.
std::vector<Op> FixedPattern() {
  std::vector<Op> ops;
  uint64_t lcg = 12345;
  auto next = [&lcg] {
    lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
    return lcg >> 33;
  };
  for (uint64_t i = 0; i < 24; ++i)
    ops.push_back({i * kMaxIo, kMaxIo, false, i % 4 == 0 ? 800 : 0});
  for (int i = 0; i < 40; ++i)
    ops.push_back({(next() % (kImageBytes / 4096)) * 4096, 4096, false, 0});
  const uint64_t base = 32ULL << 20;
  for (uint64_t i = 0; i < 16; ++i) ops.push_back({base + i * 65536, 65536, true, 0});
  for (uint64_t i = 0; i < 16; ++i) ops.push_back({base + i * 65536, 65536, false, 0});
  for (int i = 0; i < 24; ++i) {
    const uint64_t len = 4096ULL << (next() % 6);  // 4 KiB .. 128 KiB.
    ops.push_back({(next() % ((kImageBytes - len) / 4096)) * 4096, len, next() % 3 == 0, 0});
  }
  return ops;
}

class DiskDaemonRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0 || access("/dev/fuse", R_OK | W_OK) != 0) {
      GTEST_SKIP() << "needs root and /dev/fuse: mounts a FUSE filesystem";
    }
    std::string templ = std::filesystem::is_directory("/dev/shm")
                            ? "/dev/shm/elevbench-disk-test-XXXXXX"
                            : (std::filesystem::temp_directory_path() / "elevbench-disk-XXXXXX");
    ASSERT_NE(mkdtemp(templ.data()), nullptr) << std::strerror(errno);
    dir_ = templ;
    mnt_ = dir_ + "/mnt";
    backing_ = dir_ + "/backing.img";
    trace_ = dir_ + "/trace.txt";
    ASSERT_EQ(mkdir(mnt_.c_str(), 0755), 0);
    const int fd = open(backing_.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kImageBytes)), 0);
    close(fd);
  }

  void TearDown() override {
    if (child_ > 0) StopChild(/*use_umount=*/false);
    if (!mnt_.empty() && IsMounted(mnt_)) umount2(mnt_.c_str(), MNT_DETACH);
    if (!dir_.empty()) {
      std::error_code ec;
      std::filesystem::remove_all(dir_, ec);
    }
  }

  // Forks a child that runs the daemon; returns once disk.img is visible.
  void StartDaemon(const DiskProfile& profile) {
    DiskDaemonOptions options;
    options.backing_path = backing_;
    options.mountpoint = mnt_;
    options.profile = profile;
    options.trace_path = trace_;
    child_ = fork();
    ASSERT_GE(child_, 0);
    if (child_ == 0) {
      std::string err;
      const int rc = RunDiskDaemon(options, &err);
      if (rc != 0) std::fprintf(stderr, "daemon: %s\n", err.c_str());
      _exit(rc);
    }
    for (int i = 0; i < 500 && !IsMounted(mnt_); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ASSERT_TRUE(IsMounted(mnt_)) << "daemon did not mount " << mnt_;
  }

  // Stops the daemon (SIGTERM, or an external umount) and returns its exit
  // status; SIGKILL after 10 s so that a hung daemon cannot hang the test.
  int StopChild(bool use_umount) {
    if (use_umount) {
      umount2(mnt_.c_str(), 0);
    } else {
      kill(child_, SIGTERM);
    }
    int status = -1;
    for (int i = 0; i < 1000; ++i) {
      if (waitpid(child_, &status, WNOHANG) == child_) {
        child_ = -1;
        return status;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(child_, SIGKILL);
    (void)ReapChildWithin(child_, 60, &status);
    child_ = -1;
    return -1;
  }

  int OpenImage() {
    const std::string path = mnt_ + "/disk.img";
    int fd = open(path.c_str(), O_RDWR | O_DIRECT | O_CLOEXEC);
    if (fd < 0 && errno == EINVAL) fd = open(path.c_str(), O_RDWR | O_CLOEXEC);  // direct_io.
    return fd;
  }

  nlohmann::json ReadStats() {
    std::ifstream in(mnt_ + "/stats.json");
    std::stringstream text;
    text << in.rdbuf();
    return nlohmann::json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  }

  // The tolerance of CheckTrace: 2%, or 100 us for requests under 5 ms (2% of a 4 KiB cache hit
  // is a few microseconds, below what any sleep can promise).
  static int64_t LatenessSlack(int64_t modelled_ns) {
    return std::max<int64_t>(modelled_ns / 50, 100'000);
  }

  // How many of the trace's service times this host itself cannot sleep on time: a thread
  // like the daemon's (SCHED_FIFO at the daemon's priority, its spin before each deadline)
  // sleeps each modelled time in turn, and a wake-up later than the slack is counted. What the
  // host cannot do is not the daemon's fault; anything beyond it is.
  static size_t HostLateSleeps(const std::vector<TraceLine>& trace) {
    const DiskDaemonOptions defaults;
    size_t late = 0;
    std::thread sleeper([&] {
      sched_param param{};
      param.sched_priority = defaults.rt_priority;
      pthread_setschedparam(pthread_self(), SCHED_FIFO, &param);  // EPERM: as the daemon does
      for (const TraceLine& t : trace) {
        const int64_t deadline = MonotonicNowNs() + t.modelled_ns;
        SleepUntilNs(deadline, int64_t{defaults.spin_us} * 1000);
        if (MonotonicNowNs() - deadline > LatenessSlack(t.modelled_ns)) ++late;
      }
    });
    sleeper.join();
    return late;
  }

  // Checks each trace line against a fresh model replaying the same order
  // and arrivals, and the achieved time against the modelled one.
  void CheckTrace(const std::vector<TraceLine>& trace, const DiskProfile& profile) {
    DiskModel model(profile);
    int64_t last_end = 0;
    int64_t modelled_sum = 0;
    int64_t achieved_sum = 0;
    size_t late = 0;
    for (size_t i = 0; i < trace.size(); ++i) {
      const TraceLine& t = trace[i];
      DiskRequest req;
      req.offset = t.offset;
      req.length = t.length;
      req.is_write = t.is_write;
      req.flush = t.is_flush;
      req.arrival_ns = std::max(t.arrival_ns, last_end);
      const DiskService svc = model.Serve(req);
      EXPECT_EQ(svc.start_ns, t.start_ns) << "line " << i;
      EXPECT_EQ(svc.service_ns, t.modelled_ns) << "line " << i;
      EXPECT_EQ(svc.seek_distance, t.seek_distance) << "line " << i;
      EXPECT_EQ(t.achieved_ns, t.end_ns - t.start_ns) << "line " << i;
      // Completions are never early: the daemon waits for the deadline.
      EXPECT_GE(t.achieved_ns, t.modelled_ns) << "line " << i;
      const int64_t slack = LatenessSlack(t.modelled_ns);
      if (std::llabs(t.achieved_ns - t.modelled_ns) > slack) {
        ++late;
        std::printf("late: line %zu modelled %lld achieved %lld\n", i,
                    static_cast<long long>(t.modelled_ns), static_cast<long long>(t.achieved_ns));
      } else {
        // The aggregate is over the requests within tolerance: the late ones are the host's
        // hiccups, already budgeted above, and one 20 ms stall would otherwise decide it.
        modelled_sum += t.modelled_ns;
        achieved_sum += t.achieved_ns;
      }
      last_end = t.end_ns;
    }
    // Even a SCHED_FIFO thread doing nothing but timed sleeps wakes more than 100 us late now
    // and then on a 2-vCPU VM: 0 to 6 of these 100 sleeps on an idle one (HostLateSleeps,
    // measured here), more beside a compile; host scheduling, outside the daemon's control.
    // Allow 5 % of the requests (at least 3), plus twice what the host missed itself on the
    // same sleeps just now. A daemon that is late by design (a deadline off, a slow path of
    // its own) is late in most requests, and the aggregate error below catches a drift.
    const size_t host_late = HostLateSleeps(trace);
    EXPECT_LE(late, std::max<size_t>(3, trace.size() / 20) + 2 * host_late)
        << "the host itself woke late in " << host_late << " of the same sleeps";
    ASSERT_GT(modelled_sum, 0);
    const double error = static_cast<double>(achieved_sum - modelled_sum) / modelled_sum;
    EXPECT_LT(std::abs(error), 0.01) << "aggregate achieved/modelled error of the on-time requests";
    std::printf(
        "fidelity: %zu requests, aggregate error %.4f%%, %zu outside tolerance (host: %zu)\n",
        trace.size(), 100 * error, late, host_late);
  }

  std::string dir_, mnt_, backing_, trace_;
  pid_t child_ = -1;
};

TEST_F(DiskDaemonRootTest, ReplayedPatternMatchesModel) {
  DiskProfile profile;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("ide-2003", &profile, &err)) << err;
  StartDaemon(profile);

  const int fd = OpenImage();
  ASSERT_GE(fd, 0) << std::strerror(errno);
  void* mem = nullptr;
  ASSERT_EQ(posix_memalign(&mem, 4096, kMaxIo), 0);
  char* buf = static_cast<char*>(mem);
  const std::vector<Op> ops = FixedPattern();
  uint64_t reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    const Op& op = ops[i];
    if (op.pause_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(op.pause_us));
    std::memset(buf, static_cast<int>('a' + i % 26), op.length);
    const ssize_t n = op.is_write ? pwrite(fd, buf, op.length, static_cast<off_t>(op.offset))
                                  : pread(fd, buf, op.length, static_cast<off_t>(op.offset));
    ASSERT_EQ(n, static_cast<ssize_t>(op.length)) << "op " << i << ": " << std::strerror(errno);
    (op.is_write ? writes : reads) += 1;
    (op.is_write ? bytes_written : bytes_read) += op.length;
  }
  // The 16 reads after the 16 writes at 32 MiB must see what was written.
  ASSERT_EQ(pread(fd, buf, 65536, static_cast<off_t>((32ULL << 20) + 15 * 65536)), 65536);
  const char expected = static_cast<char>('a' + (24 + 40 + 15) % 26);
  EXPECT_EQ(buf[0], expected);
  EXPECT_EQ(buf[65535], expected);
  reads += 1;
  bytes_read += 65536;
  free(mem);
  close(fd);

  const nlohmann::json stats = ReadStats();
  ASSERT_FALSE(stats.is_discarded()) << "stats.json does not parse";
  EXPECT_EQ(stats["requests"], reads + writes);
  EXPECT_EQ(stats["reads"], reads);
  EXPECT_EQ(stats["writes"], writes);
  EXPECT_EQ(stats["bytes_read"], bytes_read);
  EXPECT_EQ(stats["bytes_written"], bytes_written);
  EXPECT_EQ(stats["max_queue_depth"], 1);
  EXPECT_EQ(stats["profile"]["name"], "ide-2003");
  EXPECT_TRUE(stats["backing_on_tmpfs"].get<bool>());
  EXPECT_FALSE(stats.contains("flushes"));  // No write cache: flushes never reach its model.

  const int status = StopChild(/*use_umount=*/false);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  EXPECT_FALSE(IsMounted(mnt_));

  const std::vector<TraceLine> trace = ReadTrace(trace_);
  ASSERT_EQ(trace.size(), reads + writes);
  uint64_t seeks = 0;
  int64_t modelled = 0;
  for (size_t i = 0; i < ops.size(); ++i) {  // Served in issue order.
    EXPECT_EQ(trace[i].offset, ops[i].offset) << i;
    EXPECT_EQ(trace[i].length, ops[i].length) << i;
    EXPECT_EQ(trace[i].is_write, ops[i].is_write) << i;
  }
  for (const TraceLine& t : trace) {
    seeks += t.seek_distance != 0;
    modelled += t.modelled_ns;
  }
  EXPECT_EQ(stats["seeks"], seeks);
  EXPECT_EQ(stats["modelled_ns"], modelled);
  CheckTrace(trace, profile);
}

TEST_F(DiskDaemonRootTest, NcqQueueReordersAndStopsOnUnmount) {
  DiskProfile profile;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("sata-7200", &profile, &err)) << err;
  ASSERT_TRUE(ApplyDiskOverride("queue_depth=4", &profile, &err)) << err;
  StartDaemon(profile);

  constexpr int kThreads = 4;
  constexpr int kPerThread = 25;
  std::vector<std::thread> threads;
  std::vector<int> failures(kThreads, 0);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([this, t, &failures] {
      const int fd = OpenImage();
      void* mem = nullptr;
      if (fd < 0 || posix_memalign(&mem, 4096, 4096) != 0) {
        failures[t] = kPerThread;
        if (fd >= 0) close(fd);
        return;
      }
      uint64_t lcg = 777 + static_cast<uint64_t>(t);
      for (int i = 0; i < kPerThread; ++i) {
        lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
        const off_t off = static_cast<off_t>(((lcg >> 33) % (kImageBytes / 4096)) * 4096);
        if (pread(fd, mem, 4096, off) != 4096) ++failures[t];
      }
      free(mem);
      close(fd);
    });
  }
  for (std::thread& th : threads) th.join();
  for (int f : failures) EXPECT_EQ(f, 0);

  const nlohmann::json stats = ReadStats();
  ASSERT_FALSE(stats.is_discarded()) << "stats.json does not parse";
  EXPECT_EQ(stats["requests"], kThreads * kPerThread);
  EXPECT_EQ(stats["reads"], kThreads * kPerThread);
  EXPECT_GE(stats["max_queue_depth"].get<int>(), 2);
  EXPECT_EQ(stats["profile"]["queue_depth"], 4);

  const int status = StopChild(/*use_umount=*/true);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;
  const std::vector<TraceLine> trace = ReadTrace(trace_);
  ASSERT_EQ(trace.size(), static_cast<size_t>(kThreads * kPerThread));
  // The trace is in service order; NCQ must have served some request before
  // an older one (4 random streams, 4 slots: every choice is positional).
  size_t reordered = 0;
  for (size_t i = 1; i < trace.size(); ++i)
    reordered += trace[i].arrival_ns < trace[i - 1].arrival_ns;
  EXPECT_GT(reordered, 0u);
  std::printf("ncq: %zu of %zu requests overtook an older one\n", reordered, trace.size());
  CheckTrace(trace, profile);
}

// Issue 59: the loop device passes the kernel's flushes (and a FUA write's post-flush) to its
// backing file as fsync; over FUSE that is FUSE_FSYNC on disk.img, which the daemon sends to the
// model as a flush when the profile has a write cache: it waits for the cached writes' destage.
TEST_F(DiskDaemonRootTest, AnFsyncOfTheImageIsAFlushForAProfileWithAWriteCache) {
  DiskProfile profile;
  std::string err;
  ASSERT_TRUE(LookupDiskProfile("hus728t8", &profile, &err)) << err;
  // The image as the whole stroke: every destage is a real positioning.
  ASSERT_TRUE(ApplyDiskOverride("capacity_bytes=" + std::to_string(kImageBytes), &profile, &err))
      << err;
  ASSERT_TRUE(ValidateDiskProfile(profile, &err)) << err;
  StartDaemon(profile);

  const int fd = OpenImage();
  ASSERT_GE(fd, 0) << std::strerror(errno);
  void* mem = nullptr;
  ASSERT_EQ(posix_memalign(&mem, 4096, 4096), 0);
  std::memset(mem, 'f', 4096);
  constexpr int kWrites = 8;
  const int64_t before_writes = MonotonicNowNs();
  for (int i = 0; i < kWrites; ++i) {
    const off_t off = static_cast<off_t>(((i * 7919 + 13) % (kImageBytes / 4096)) * 4096);
    ASSERT_EQ(pwrite(fd, mem, 4096, off), 4096) << std::strerror(errno);
  }
  const int64_t before_fsync = MonotonicNowNs();
  ASSERT_EQ(fsync(fd), 0) << std::strerror(errno);
  const int64_t after_fsync = MonotonicNowNs();
  free(mem);
  close(fd);

  const nlohmann::json stats = ReadStats();
  ASSERT_FALSE(stats.is_discarded()) << "stats.json does not parse";
  EXPECT_EQ(stats["writes"], kWrites);
  EXPECT_EQ(stats["flushes"], 1);
  const int status = StopChild(/*use_umount=*/false);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "status " << status;

  const std::vector<TraceLine> trace = ReadTrace(trace_);
  ASSERT_EQ(trace.size(), static_cast<size_t>(kWrites + 1));
  const TraceLine& flush = trace.back();
  ASSERT_TRUE(flush.is_flush);
  // The writes went into the cache; the flush waited for most of their destage (several
  // positionings of milliseconds each), and fsync returned no earlier.
  EXPECT_GT(flush.modelled_ns, 5'000'000);
  EXPECT_GE(flush.achieved_ns, flush.modelled_ns);
  EXPECT_GE(after_fsync - before_fsync, flush.modelled_ns);
  std::printf("8 cached writes in %.2f ms, then fsync %.2f ms (modelled flush %.2f ms)\n",
              (before_fsync - before_writes) / 1e6, (after_fsync - before_fsync) / 1e6,
              flush.modelled_ns / 1e6);
}

}  // namespace
}  // namespace elevbench
