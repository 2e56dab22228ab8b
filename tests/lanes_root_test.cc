// `run … --lanes 2` on two emulated disks (root, FUSE): after a normal end, after SIGINT, and
// after SIGKILL + `elevbench restore`, every lane's loop device, disk daemon, mounts, cgroups and
// backing-device limits are gone or as before, and the machine's vm.dirty_* are back. The run
// makes its own loop devices (never an existing one).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>

#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

class LanesRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = testing::WhyEmulatedDiskCannotRun();
    if (!why.empty()) GTEST_SKIP() << why;
    if (!fs::exists("/sys/fs/cgroup/cpuset/cpuset.cpus") &&
        !fs::exists("/sys/fs/cgroup/cgroup.controllers")) {
      GTEST_SKIP() << "needs cpuset cgroups";
    }
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "two lanes need two CPUs";
    temp_ = std::make_unique<testing::ScopedTempDir>();
    dir_ = temp_->path();
    state_dir_ = dir_ + "/state";
    bdi_before_ = testing::BdiWritebackValues();
    for (const char* f :
         {"dirty_bytes", "dirty_ratio", "dirty_background_bytes", "dirty_background_ratio"}) {
      vm_before_[f] = testing::ReadFileOrEmpty(std::string("/proc/sys/vm/") + f);
    }
  }

  // Starts a two-lane tiobench run; `rounds` repetitions of none and mq-deadline.
  pid_t Start(int rounds) {
    return StartRun({"tiobench", "--size", "16", "--threads", "1", "--random", "100",
                     "--repetitions", std::to_string(rounds)});
  }

  // Starts `run SUITE ARGS…` in two lanes of none and mq-deadline on a small ide-2003.
  pid_t StartRun(std::vector<std::string> suite_args) {
    std::vector<std::string> args = {ELEVBENCH_BINARY, "run"};
    args.insert(args.end(), suite_args.begin(), suite_args.end());
    for (const char* a : {"--emulated", "ide-2003:384M", "--fs", "ext2", "--lanes", "2",
                          "--schedulers", "none,mq-deadline", "--seed", "1", "--no-history"}) {
      args.emplace_back(a);
    }
    args.push_back("--out");
    args.push_back(dir_ + "/r.json");
    const int err = open((dir_ + "/stderr").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    const pid_t pid = testing::SpawnElevbench(args, state_dir_, err);
    close(err);
    return pid;
  }

  // Waits until both lanes have finished a cell (their own results files) and returns the
  // run's lanes block as the lane files show it; null on timeout or an early exit.
  nlohmann::json WaitForBothLanes(pid_t pid) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        ADD_FAILURE() << "the run exited early (status " << status
                      << "): " << testing::ReadFileOrEmpty(dir_ + "/stderr");
        return nullptr;
      }
      size_t ready = 0;
      nlohmann::json lanes;
      for (int k = 0; k < 2; ++k) {
        auto j = nlohmann::json::parse(
            testing::ReadFileOrEmpty(dir_ + "/r.json.fio/lane" + std::to_string(k) + ".json"),
            nullptr, false);
        if (!j.is_discarded() && j.contains("cells") && !j["cells"].empty()) {
          ++ready;
          lanes = j["context"]["lanes"];
        }
      }
      if (ready == 2) return lanes;
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    ADD_FAILURE() << "the lanes did not finish a cell within 300 s";
    return nullptr;
  }

  // The run's exit code; a run still going after `seconds` is SIGKILLed (a test never waits
  // without a bound) and counts as a failure.
  int Wait(pid_t pid, double seconds = 600) { return testing::WaitForSpawned(pid, seconds); }

  void TearDown() override {
    // A daemon a failed test left stopped would hang the next test's I/O: continue it.
    if (stopped_daemon_ > 0) kill(stopped_daemon_, SIGCONT);
  }

  pid_t stopped_daemon_ = 0;

  // Nothing of any lane is left: loop devices, daemons, mounts, cgroups; bdi and vm values as
  // before.
  void ExpectEveryLaneGone(const nlohmann::json& lanes) {
    ASSERT_TRUE(lanes.is_object());
    ASSERT_EQ(lanes.value("count", 0), 2);
    const std::string mounts = testing::ReadFileOrEmpty("/proc/mounts");
    for (const nlohmann::json& lane : lanes["lanes"]) {
      const std::string loop = lane.value("loop_device", std::string());
      ASSERT_EQ(loop.rfind("/dev/loop", 0), 0u) << lane.dump();
      EXPECT_FALSE(fs::exists("/sys/block/" + loop.substr(5) + "/loop/backing_file"))
          << loop << " still attached";
      const int pid = lane.value("daemon_pid", 0);
      ASSERT_GT(pid, 1);
      const std::string cmd = testing::ReadFileOrEmpty("/proc/" + std::to_string(pid) + "/cmdline");
      EXPECT_EQ(cmd.find("disk"), std::string::npos) << "lane daemon " << pid << " survived";
      EXPECT_EQ(mounts.find(lane.value("mountpoint", std::string("?"))), std::string::npos)
          << mounts;
      ASSERT_GE(lane["cgroups"].size(), 2u) << lane.dump();
      for (const nlohmann::json& cg : lane["cgroups"]) {
        EXPECT_FALSE(fs::exists(cg.get<std::string>())) << cg << " left";
      }
      EXPECT_EQ(lane.value("bdi", std::string()).rfind("/sys/class/bdi/", 0), 0u);
    }
    EXPECT_EQ(mounts.find("fuse.elevbench"), std::string::npos) << mounts;
    for (const auto& [name, now] : testing::BdiWritebackValues()) {
      const auto it = bdi_before_.find(name);
      EXPECT_EQ(now, it == bdi_before_.end() ? testing::kDefaultBdiWriteback : it->second) << name;
    }
    for (const auto& [file, before] : vm_before_) {
      EXPECT_EQ(testing::ReadFileOrEmpty("/proc/sys/vm/" + file), before) << file;
    }
    EXPECT_FALSE(fs::exists(state_dir_ + "/journal.json"));
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string dir_;
  std::string state_dir_;
  std::map<std::string, std::string> bdi_before_;
  std::map<std::string, std::string> vm_before_;
};

TEST_F(LanesRootTest, ARunMergesItsLanesAndLeavesNothing) {
  const pid_t pid = Start(2);
  ASSERT_GT(pid, 0);
  const int code = Wait(pid);
  EXPECT_EQ(code, 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_TRUE(j["complete"].get<bool>());
  // 2 configurations × 2 repetitions, one variant: 4 cells in plan order, both lanes used.
  ASSERT_EQ(j["cells"].size(), 4u);
  std::map<int, int> per_lane;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(j["cells"][i]["plan_index"], i);
    EXPECT_EQ(j["cells"][i]["status"], "ok");
    ++per_lane[j["cells"][i]["lane"].get<int>()];
  }
  EXPECT_EQ(per_lane[0], 2);
  EXPECT_EQ(per_lane[1], 2);
  EXPECT_EQ(j["records"].size(), 16u);  // 4 phases a cell
  ExpectEveryLaneGone(j["context"]["lanes"]);
}

// post-2003 in lanes: tiobench's cells are dealt to both lanes, then the probes' run alone on
// lane 0 (they drop the machine's caches mid-cell); both parts set up, nothing left.
TEST_F(LanesRootTest, ACompositeRunsItsLanePartsInLanesAndTheOthersAlone) {
  const pid_t pid =
      StartRun({"post-2003", "--parts", "probes,tiobench", "--part-args",
                "tiobench=--size 16 --threads 1 --random 100", "--part-args",
                "probes=--tree-size 4 --load-size 32 --warmup 1 --probes cat-during-write"});
  ASSERT_GT(pid, 0);
  const int code = Wait(pid);
  EXPECT_EQ(code, 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_TRUE(j["complete"].get<bool>());
  // 2 configurations × (1 probe + 1 tiobench variant): 4 cells in plan order.
  ASSERT_EQ(j["cells"].size(), 4u) << j["cells"].dump();
  std::map<int, int> tiobench_per_lane;
  for (size_t i = 0; i < 4; ++i) {
    const nlohmann::json& cell = j["cells"][i];
    EXPECT_EQ(cell["plan_index"], i);
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    if (cell.value("part", std::string()) == "probes") {
      EXPECT_EQ(cell["lane"], 0);  // alone, on lane 0's disk
    } else {
      ++tiobench_per_lane[cell["lane"].get<int>()];
    }
  }
  EXPECT_EQ(tiobench_per_lane[0], 1);
  EXPECT_EQ(tiobench_per_lane[1], 1);
  EXPECT_EQ(j["context"]["lanes"]["alone_cells"], 2);
  EXPECT_TRUE(j["setup"].contains("probes")) << j["setup"].dump();
  EXPECT_TRUE(j["setup"].contains("tiobench")) << j["setup"].dump();
  ExpectEveryLaneGone(j["context"]["lanes"]);
}

TEST_F(LanesRootTest, SigintStopsEveryLaneAndLeavesNothing) {
  const pid_t pid = Start(6);
  ASSERT_GT(pid, 0);
  const nlohmann::json lanes = WaitForBothLanes(pid);
  ASSERT_FALSE(lanes.is_null());
  kill(pid, SIGINT);
  EXPECT_EQ(Wait(pid), 130) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_FALSE(j["complete"].get<bool>());
  size_t ok = 0;
  for (const auto& c : j["cells"]) ok += c["status"] == "ok";
  EXPECT_GE(ok, 2u);  // each lane's first cell
  EXPECT_EQ(j["records"].size(), ok * 4);
  ExpectEveryLaneGone(lanes);
}

TEST_F(LanesRootTest, SigkillThenRestoreLeavesNothing) {
  const pid_t pid = Start(6);
  ASSERT_GT(pid, 0);
  const nlohmann::json lanes = WaitForBothLanes(pid);
  ASSERT_FALSE(lanes.is_null());
  kill(pid, SIGKILL);
  Wait(pid);
  ASSERT_TRUE(fs::exists(state_dir_ + "/journal.json")) << "a killed run must leave its journal";
  std::this_thread::sleep_for(std::chrono::milliseconds(500));  // the lanes die with it
  ProcessResult r;
  std::string err;
  {
    testing::ScopedEnv state_dir("ELEVBENCH_STATE_DIR", state_dir_);
    ProcessOptions bounded;
    bounded.timeout_seconds = 120;
    ASSERT_TRUE(RunProcess({ELEVBENCH_BINARY, "restore"}, bounded, &r, &err)) << err;
  }
  EXPECT_EQ(r.exit_code, 0) << r.output << r.error_output;
  ExpectEveryLaneGone(lanes);
}

// One lane's disk daemon stops answering (SIGSTOP) while both lanes run: the parent's watch of
// every lane's disk stops the run as a serial run's watch does — that lane's FUSE connection
// aborted, every lane stopped, exit 1 naming the lane — and nothing of any lane is left.
TEST_F(LanesRootTest, ASigstoppedLaneDaemonStopsTheRunAndLeavesNothing) {
  const pid_t pid = Start(6);
  ASSERT_GT(pid, 0);
  const nlohmann::json lanes = WaitForBothLanes(pid);
  ASSERT_FALSE(lanes.is_null());
  const pid_t daemon = lanes["lanes"][1].value("daemon_pid", 0);
  ASSERT_GT(daemon, 1);
  ASSERT_EQ(kill(daemon, SIGSTOP), 0);
  stopped_daemon_ = daemon;
  const auto stopped = std::chrono::steady_clock::now();
  EXPECT_EQ(Wait(pid, 180), 1) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped).count();
  EXPECT_LT(seconds, 90) << testing::ReadFileOrEmpty(dir_ + "/stderr");
  const std::string err_text = testing::ReadFileOrEmpty(dir_ + "/stderr");
  EXPECT_NE(err_text.find("stopping the run: lane 1: the emulated disk daemon stopped answering"),
            std::string::npos)
      << err_text;
  EXPECT_NE(err_text.find("was aborted"), std::string::npos) << err_text;
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded());
  EXPECT_FALSE(j["complete"].get<bool>());
  ExpectEveryLaneGone(lanes);
}

}  // namespace
}  // namespace elevbench
