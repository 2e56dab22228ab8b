// The load-vs-probe engine with a fake fio and real probe commands: warm-up, DNF at the timeout
// with the work done, the load stopped on every path, first-end runs, in-process foregrounds.

#include "harness/engine/load_probe.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <fstream>

#include "fakes.h"
#include "harness/process/bounded_call.h"
#include "test_util.h"

namespace elevbench {
namespace {

// Every stream of the load ran 2 s: a reader read 20 MiB, a writer wrote 10 MiB, at 5 MiB/s
// in each of its two bandwidth-log intervals.
void MeasureTwoSecondLoad(const FioInvocation& inv, double, FioRunResult* result) {
  for (const StreamSpec& s : inv.streams) {
    FioJobResult job;
    job.name = s.name;
    job.job_runtime_ms = 2000;
    job.read.io_bytes = s.rw == "read" ? 20 << 20 : 0;
    job.write.io_bytes = s.rw == "write" ? 10 << 20 : 0;
    job.bw_kib_s = {5120, 5120};
    result->jobs.push_back(job);
  }
}

LoadSpec OneReader() {
  LoadSpec load;
  StreamSpec s;
  s.name = "reader";
  s.rw = "read";
  s.filename = "f";
  load.streams = {s};
  return load;
}

class LoadProbeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fio_.measure = MeasureTwoSecondLoad;
    fio_.bytes_per_second = 10e6;  // the load moves 10 MB/s while it runs
  }
  testing::ScopedTempDir dir_;
  testing::FakeFio fio_;
  LoadProbeResult result_;
  std::string err_;
};

TEST_F(LoadProbeTest, ProbeStartsAfterTheWarmUpAndTheLoadIsStopped) {
  ProbeSpec probe;
  probe.argv = {"true"};
  probe.warmup_seconds = 0.3;
  bool evicted = false;
  probe.evict = [&](std::string*) {
    evicted = true;
    return true;
  };
  ASSERT_TRUE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_))
      << err_;
  EXPECT_TRUE(evicted);
  ASSERT_EQ(fio_.starts.size(), 1u);
  EXPECT_TRUE(fio_.starts[0].stopped);
  EXPECT_GE(result_.probe.warmup_seconds, 0.3);
  EXPECT_FALSE(result_.probe.dnf);
  EXPECT_EQ(result_.probe.process.exit_code, 0);
  ASSERT_EQ(result_.load.size(), 1u);
  EXPECT_EQ(result_.load[0].bytes_read, 20u << 20);
  EXPECT_EQ(result_.load[0].throughput_kib_s.size(), 2u);
  EXPECT_EQ(result_.load[0].throughput_interval_ms, 1000u);
}

TEST_F(LoadProbeTest, WarmUpInBytesWaitsForTheLoad) {
  ProbeSpec probe;
  probe.argv = {"true"};
  probe.warmup_bytes = 5'000'000;  // half a second of the fake load
  ASSERT_TRUE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_))
      << err_;
  EXPECT_GE(result_.probe.warmup_seconds, 0.45);
}

TEST_F(LoadProbeTest, AProbePastItsTimeoutIsDnfWithTheWorkItHadDone) {
  const std::string file = dir_.path() + "/data";
  std::ofstream(file) << std::string(300000, 'x');
  ProbeSpec probe;
  // tail reads the whole file, then waits for more: it never ends by itself.
  probe.argv = {"tail", "-c", "+1", "-f", file};
  probe.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  ASSERT_TRUE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_))
      << err_;
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_TRUE(result_.probe.dnf);
  EXPECT_TRUE(result_.probe.process.timed_out);
  EXPECT_LT(took, 4.0);
  EXPECT_GE(result_.probe.process.usage.elapsed_seconds, 0.5);
  EXPECT_GE(result_.probe.bytes_read, 300000u);
  ASSERT_EQ(fio_.starts.size(), 1u);
  EXPECT_TRUE(fio_.starts[0].stopped);
}

// The probe's wall time ends at its exit, not at the next sample of its reads: with a sample
// every 10 s, a 0.2 s probe reaped at a sample would read 10 s.
TEST(ForegroundProbeTest, TheWallTimeEndsAtTheExitNotAtTheNextSample) {
  ProbeSpec probe;
  probe.argv = {"sleep", "0.2"};
  probe.sample_seconds = 10;
  ProbeOutcome outcome;
  std::string err;
  ASSERT_TRUE(RunForegroundProbe(probe, &outcome, &err)) << err;
  EXPECT_EQ(outcome.process.exit_code, 0);
  EXPECT_GE(outcome.process.usage.elapsed_seconds, 0.2);
  EXPECT_LT(outcome.process.usage.elapsed_seconds, 5.0);
}

TEST_F(LoadProbeTest, AFailingProbeIsReportedNotAnError) {
  ProbeSpec probe;
  probe.argv = {"sh", "-c", "exit 3"};
  ASSERT_TRUE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_))
      << err_;
  EXPECT_EQ(result_.probe.process.exit_code, 3);
  EXPECT_FALSE(result_.probe.dnf);
}

TEST_F(LoadProbeTest, AProbeThatCannotStartStillStopsTheLoad) {
  ProbeSpec probe;
  probe.argv = {"/nonexistent/elevbench-probe"};
  EXPECT_FALSE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_));
  EXPECT_NE(err_.find("probe"), std::string::npos) << err_;
  ASSERT_EQ(fio_.starts.size(), 1u);
  EXPECT_TRUE(fio_.starts[0].stopped);
}

TEST_F(LoadProbeTest, ALoadThatEndsDuringTheWarmUpFailsWithoutRunningTheProbe) {
  fio_.backgrounds_end = true;
  ProbeSpec probe;
  probe.argv = {"true"};
  probe.warmup_seconds = 1;
  bool evicted = false;
  probe.evict = [&](std::string*) {
    evicted = true;
    return true;
  };
  EXPECT_FALSE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_));
  EXPECT_NE(err_.find("warm-up"), std::string::npos) << err_;
  EXPECT_FALSE(evicted);
}

TEST_F(LoadProbeTest, ALoadThatCannotStartIsAnError) {
  fio_.start_error = "cannot start fio";
  ProbeSpec probe;
  probe.argv = {"true"};
  EXPECT_FALSE(RunLoadWithProbe(&fio_, OneReader(), probe, dir_.path(), "t", &result_, &err_));
  EXPECT_EQ(err_, "cannot start fio");
}

TEST_F(LoadProbeTest, StreamsHaveOneJobEach) {
  LoadSpec load = OneReader();
  load.streams[0].numjobs = 2;
  ProbeSpec probe;
  probe.argv = {"true"};
  EXPECT_FALSE(RunLoadWithProbe(&fio_, load, probe, dir_.path(), "t", &result_, &err_));
  EXPECT_TRUE(fio_.starts.empty());
}

TEST_F(LoadProbeTest, AForegroundRunsAfterTheWarmUpWhileTheLoadRuns) {
  bool load_running_then = false;
  double ran_at = 0;
  const auto start = std::chrono::steady_clock::now();
  std::vector<StreamResult> streams;
  double warmup = 0;
  ASSERT_TRUE(RunLoadAround(
      &fio_, OneReader(), 0.3, 0,
      [&](std::string*) {
        load_running_then = fio_.starts.size() == 1 && !fio_.starts[0].stopped;
        ran_at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return true;
      },
      dir_.path(), "t", &streams, &warmup, &err_))
      << err_;
  EXPECT_TRUE(load_running_then);
  EXPECT_GE(ran_at, 0.3);
  EXPECT_GE(warmup, 0.3);
  ASSERT_EQ(fio_.starts.size(), 1u);
  EXPECT_TRUE(fio_.starts[0].stopped);
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams[0].bytes_read, 20u << 20);
}

TEST_F(LoadProbeTest, AFailingForegroundStillStopsTheLoadAndItsErrorComesFirst) {
  std::vector<StreamResult> streams;
  double warmup = 0;
  EXPECT_FALSE(RunLoadAround(
      &fio_, OneReader(), 0, 0,
      [](std::string* e) {
        *e = "save 2: fsync f: No space left on device";
        return false;
      },
      dir_.path(), "t", &streams, &warmup, &err_));
  EXPECT_EQ(err_, "save 2: fsync f: No space left on device");
  ASSERT_EQ(fio_.starts.size(), 1u);
  EXPECT_TRUE(fio_.starts[0].stopped);
  EXPECT_TRUE(streams.empty());
}

TEST_F(LoadProbeTest, AForegroundIsNotRunWhenTheLoadEndsDuringItsWarmUp) {
  fio_.backgrounds_end = true;
  bool ran = false;
  std::vector<StreamResult> streams;
  double warmup = 0;
  EXPECT_FALSE(RunLoadAround(
      &fio_, OneReader(), 1, 0,
      [&](std::string*) {
        ran = true;
        return true;
      },
      dir_.path(), "t", &streams, &warmup, &err_));
  EXPECT_FALSE(ran);
  EXPECT_NE(err_.find("warm-up"), std::string::npos) << err_;
}

TEST_F(LoadProbeTest, FirstEndRunsSetExitallAndTakeTheLongestRuntime) {
  LoadSpec load = OneReader();
  StreamSpec w;
  w.name = "writer";
  w.rw = "write";
  w.filename = "g";
  load.streams.push_back(w);
  std::vector<StreamResult> streams;
  double elapsed = 0;
  ASSERT_TRUE(RunLoadToFirstEnd(&fio_, load, dir_.path(), "t", 0, &streams, &elapsed, &err_))
      << err_;
  ASSERT_EQ(fio_.runs.size(), 1u);
  EXPECT_TRUE(fio_.runs[0].global.exitall);
  ASSERT_EQ(streams.size(), 2u);
  EXPECT_EQ(streams[0].direction, "read");
  EXPECT_EQ(streams[1].direction, "write");
  EXPECT_EQ(streams[1].bytes_written, 10u << 20);
  EXPECT_DOUBLE_EQ(elapsed, 2.0);
}

}  // namespace
}  // namespace elevbench

namespace elevbench {
namespace {

// A memory cgroup (v1) of the test's own, with a limit; removed with its tasks moved out.
class ScopedMemoryCgroupForProbe {
 public:
  ScopedMemoryCgroupForProbe(const std::string& path, uint64_t limit_bytes) : path_(path) {
    made_ = mkdir(path.c_str(), 0755) == 0;
    if (!made_) return;
    std::ofstream(path + "/memory.limit_in_bytes") << limit_bytes << "\n";
    std::ofstream memsw(path + "/memory.memsw.limit_in_bytes");
    if (memsw) memsw << limit_bytes << "\n";  // no swap to spill into, where swap is accounted
  }
  ~ScopedMemoryCgroupForProbe() {
    if (!made_) return;
    std::ifstream procs(path_ + "/cgroup.procs");
    for (std::string pid; procs >> pid;) {
      std::ofstream(path_.substr(0, path_.rfind('/')) + "/cgroup.procs") << pid << "\n";
    }
    for (int i = 0; i < 100 && rmdir(path_.c_str()) != 0 && errno == EBUSY; ++i) usleep(20000);
  }
  bool made() const { return made_; }

 private:
  std::string path_;
  bool made_ = false;
};

// A probe that needs more memory than its cgroup has is ended by the OOM killer, and the outcome
// says so (the cgroup's oom_kill count rose): a failure of its own kind, not a DNF. The probe
// runs from a forked child that moved itself into a 256 MiB memory cgroup, so only that child
// and its probe live under the limit.
TEST(LoadProbeOomRootTest, AProbeTheOomKillerEndsIsRecordedAsOomKilled) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to make a memory cgroup";
  const std::string hierarchy = "/sys/fs/cgroup/memory";
  if (access((hierarchy + "/cgroup.procs").c_str(), W_OK) != 0) {
    GTEST_SKIP() << "needs the cgroup v1 memory hierarchy at " << hierarchy;
  }
  ScopedMemoryCgroupForProbe cgroup(hierarchy + "/elevbench-test-oom-" + std::to_string(getpid()),
                                    256ULL << 20);
  ASSERT_TRUE(cgroup.made());
  const std::string dir = hierarchy + "/elevbench-test-oom-" + std::to_string(getpid());
  const pid_t child = fork();
  if (child == 0) {
    std::ofstream(dir + "/cgroup.procs") << getpid() << "\n";
    ProbeSpec probe;
    // The probe makes itself the OOM killer's first choice (oom_score_adj 1000, worth the whole
    // limit in pages; raising needs no privilege): the runner's resident set counts the pages it
    // shares with the test binary, which under ASan outweigh the probe's.
    // tail keeps one endless line in memory.
    probe.argv = {"sh", "-c", "echo 1000 > /proc/self/oom_score_adj && exec tail /dev/zero"};
    probe.timeout_seconds = 60;
    ProbeOutcome outcome;
    std::string err;
    if (!RunForegroundProbe(probe, &outcome, &err)) _exit(3);
    _exit(outcome.oom_killed ? 0 : outcome.dnf ? 2 : 1);
  }
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(child, 120, &status)) << "the probe's runner did not finish";
  ASSERT_TRUE(WIFEXITED(status)) << "the runner itself was killed (signal " << WTERMSIG(status)
                                 << ")";
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: not recorded as OOM-killed, 2: DNF, 3: not run";
}

}  // namespace
}  // namespace elevbench
