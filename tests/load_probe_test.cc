// The load-vs-probe engine with a fake fio and real probe commands: warm-up, DNF at the timeout
// with the work done, the load stopped on every path, first-end runs, in-process foregrounds.

#include "harness/engine/load_probe.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

struct FakeLoadState {
  bool started = false;
  bool stopped = false;
  bool running = true;  ///< false: the load "ends" by itself at once
  std::chrono::steady_clock::time_point start;
  FioInvocation invocation;
};

class FakeBackground : public FioBackground {
 public:
  explicit FakeBackground(FakeLoadState* state) : state_(state) {}
  uint64_t BytesDone() override {
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - state_->start).count();
    return static_cast<uint64_t>(s * 10e6);  // 10 MB/s
  }
  bool Running() override { return state_->running && !state_->stopped; }
  bool Stop(FioRunResult* result, std::string*) override {
    state_->stopped = true;
    result->jobs.clear();
    for (const StreamSpec& s : state_->invocation.streams) {
      FioJobResult job;
      job.name = s.name;
      job.job_runtime_ms = 2000;
      job.read.io_bytes = s.rw == "read" ? 20 << 20 : 0;
      job.write.io_bytes = s.rw == "write" ? 10 << 20 : 0;
      job.bw_kib_s = {5120, 5120};
      result->jobs.push_back(job);
    }
    return true;
  }

 private:
  FakeLoadState* state_;
};

class FakeFio : public FioRunner {
 public:
  bool Run(const FioInvocation& inv, FioRunResult* result, std::string* err) override {
    state.invocation = inv;
    FakeBackground b(&state);
    return b.Stop(result, err);
  }
  bool Start(const FioInvocation& inv, std::unique_ptr<FioBackground>* running,
             std::string* err) override {
    if (refuse_start) {
      *err = "cannot start fio";
      return false;
    }
    state.started = true;
    state.start = std::chrono::steady_clock::now();
    state.invocation = inv;
    *running = std::make_unique<FakeBackground>(&state);
    return true;
  }
  FakeLoadState state;
  bool refuse_start = false;
};

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
  testing::ScopedTempDir dir_;
  FakeFio fio_;
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
  EXPECT_TRUE(fio_.state.stopped);
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
  EXPECT_GE(result_.probe.process.wall_seconds, 0.5);
  EXPECT_GE(result_.probe.bytes_read, 300000u);
  EXPECT_TRUE(fio_.state.stopped);
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
  EXPECT_TRUE(fio_.state.stopped);
}

TEST_F(LoadProbeTest, ALoadThatEndsDuringTheWarmUpFailsWithoutRunningTheProbe) {
  fio_.state.running = false;
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
  fio_.refuse_start = true;
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
  EXPECT_FALSE(fio_.state.started);
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
        load_running_then = fio_.state.started && !fio_.state.stopped;
        ran_at = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return true;
      },
      dir_.path(), "t", &streams, &warmup, &err_))
      << err_;
  EXPECT_TRUE(load_running_then);
  EXPECT_GE(ran_at, 0.3);
  EXPECT_GE(warmup, 0.3);
  EXPECT_TRUE(fio_.state.stopped);
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
  EXPECT_TRUE(fio_.state.stopped);
  EXPECT_TRUE(streams.empty());
}

TEST_F(LoadProbeTest, AForegroundIsNotRunWhenTheLoadEndsDuringItsWarmUp) {
  fio_.state.running = false;
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
  EXPECT_TRUE(fio_.state.invocation.global.exitall);
  ASSERT_EQ(streams.size(), 2u);
  EXPECT_EQ(streams[0].direction, "read");
  EXPECT_EQ(streams[1].direction, "write");
  EXPECT_EQ(streams[1].bytes_written, 10u << 20);
  EXPECT_DOUBLE_EQ(elapsed, 2.0);
}

}  // namespace
}  // namespace elevbench
