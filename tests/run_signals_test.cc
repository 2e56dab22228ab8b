// A comparison run on a scratch device, stopped by SIGINT or SIGKILL mid-run: nothing may be
// left behind (loop device, mount, image, changed sysfs value) and the results keep every cell
// that finished. Root only: it creates loop devices (never touches an existing device).

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "harness/device/driver_tags.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::map<std::string, std::string> LoopSchedulers() {
  std::map<std::string, std::string> out;
  for (const auto& e : std::filesystem::directory_iterator("/sys/block")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("loop", 0) != 0 && name != "vda") continue;
    // Attached loop devices belong to someone else; only free ones can become our scratch device.
    if (std::filesystem::exists(e.path() / "loop" / "backing_file")) continue;
    std::ifstream in(e.path() / "queue" / "scheduler");
    std::string line;
    std::getline(in, line);
    out[name] = line;
  }
  return out;
}

class RunSignalsRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "needs root to create loop devices and switch schedulers";
    if (!ProgramInPath("fio") || !ProgramInPath("losetup") || !ProgramInPath("mkfs.ext4")) {
      GTEST_SKIP() << "needs fio, losetup and mkfs.ext4 (scripts/install-deps)";
    }
    temp_ = std::make_unique<testing::ScopedTempDir>();
    dir_ = temp_->path();
    state_dir_ = dir_ + "/state";
    before_ = LoopSchedulers();
    dirty_bytes_ = testing::ReadFileOrEmpty("/proc/sys/vm/dirty_bytes");
    dirty_ratio_ = testing::ReadFileOrEmpty("/proc/sys/vm/dirty_ratio");
  }

  // Starts a comparison on a scratch device (or `target` instead) and returns its pid once
  // `cells` cells are in the results. `suite_args` replaces the tiobench run when given.
  pid_t StartAndWaitForCells(size_t cells, std::vector<std::string> target = {"--scratch", "512M"},
                             std::vector<std::string> suite_args = {}) {
    std::vector<std::string> args = {ELEVBENCH_BINARY, "run"};
    if (suite_args.empty()) {
      suite_args = {"tiobench",
                    "--schedulers",
                    "none,mq-deadline," + testing::SecondLiveScheduler(),
                    "--size",
                    "96",
                    "--threads",
                    "1,2",
                    "--repetitions",
                    "2",
                    "--random",
                    "400"};
    }
    args.insert(args.end(), suite_args.begin(), suite_args.end());
    args.insert(args.end(), target.begin(), target.end());
    args.push_back("--out");
    args.push_back(dir_ + "/r.json");
    args.push_back("--no-history");  // not into the history of the test's working directory
    const pid_t pid = testing::SpawnElevbench(args, state_dir_, -1);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        ADD_FAILURE() << "the run exited before finishing a cell (status " << status << ")";
        return -1;
      }
      auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
      if (!j.is_discarded() && j.contains("cells") && j["cells"].size() >= cells) return pid;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    // The deadline passed with fewer cells: the signal would hit another point of the run than
    // the test names (issue 58 §7: this returned as if the cells were there).
    ADD_FAILURE() << "the run finished no " << cells << " cell(s) within 300 s";
    return pid;
  }

  // SIGKILLs the run, checks it left its journal, and runs `elevbench restore`.
  void KillAndRestore(pid_t pid) {
    kill(pid, SIGKILL);
    int status = 0;
    ASSERT_TRUE(ReapChildWithin(pid, 300, &status))
        << "pid " << pid << " still running after 300 s";
    ASSERT_TRUE(std::filesystem::exists(state_dir_ + "/journal.json"))
        << "a killed run must leave its journal";
    ProcessResult r;
    std::string err;
    {
      testing::ScopedEnv state_dir("ELEVBENCH_STATE_DIR", state_dir_);
      ASSERT_TRUE(
          RunProcess({ELEVBENCH_BINARY, "restore"}, testing::RestoreProcessOptions(), &r, &err))
          << err;
    }
    EXPECT_EQ(r.exit_code, 0) << r.output << r.error_output;
  }

  void ExpectNothingLeft() {
    const std::string mounts = testing::ReadFileOrEmpty("/proc/mounts");
    EXPECT_EQ(mounts.find("/elevbench-"), std::string::npos) << "a mount is left:\n" << mounts;
    std::string losetup;
    std::string err;
    ASSERT_TRUE(RunChecked({"losetup", "-a"}, &losetup, &err)) << err;
    EXPECT_EQ(losetup.find("/elevbench-"), std::string::npos) << "a loop device is left:\n"
                                                              << losetup;
    for (const auto& [name, line] : LoopSchedulers()) {
      if (before_.count(name)) {
        EXPECT_EQ(line, before_[name]) << name << " scheduler changed";
      }
    }
    EXPECT_FALSE(std::filesystem::exists(state_dir_ + "/journal.json"));
    for (const auto& e : std::filesystem::directory_iterator("/var/tmp")) {
      // Our scratch directories are elevbench-XXXXXX; none may survive.
      const std::string n = e.path().filename().string();
      if (n.rfind("elevbench-", 0) == 0 && std::filesystem::exists(e.path() / "scratch.img")) {
        ADD_FAILURE() << "scratch image left: " << e.path();
      }
    }
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string dir_;
  std::string state_dir_;
  std::map<std::string, std::string> before_;
  std::string dirty_bytes_;
  std::string dirty_ratio_;
};

TEST_F(RunSignalsRootTest, SigintRestoresEverythingAndKeepsFinishedCells) {
  pid_t pid = StartAndWaitForCells(1);
  ASSERT_GT(pid, 0);
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(pid, 300, &status)) << "pid " << pid << " still running after 300 s";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "results file is not valid JSON after SIGINT";
  EXPECT_FALSE(j["complete"].get<bool>());
  size_t ok_cells = 0;
  for (const auto& c : j["cells"]) ok_cells += c["status"] == "ok";
  EXPECT_GE(ok_cells, 1u);
  EXPECT_EQ(j["records"].size(), ok_cells * 4);
  ExpectNothingLeft();
}

// A probes run interrupted in its second cell (warm-up, probe or load): the load's fio and the
// probe are stopped, exit 130, the finished cell is kept, and nothing is left behind.
TEST_F(RunSignalsRootTest, SigintDuringAProbeCellStopsLoadAndProbe) {
  pid_t pid = StartAndWaitForCells(
      1, {"--scratch", "512M"},
      {"probes", "--schedulers", "mq-deadline," + testing::SecondLiveScheduler(), "--tree-size",
       "8", "--load-size", "64", "--warmup", "2", "--probes", "cat-during-write,ls-during-read",
       "--repetitions", "3"});
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // inside the next warm-up
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_TRUE(ReapChildWithin(pid, 300, &status)) << "pid " << pid << " still running after 300 s";
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << "results file is not valid JSON after SIGINT";
  EXPECT_FALSE(j["complete"].get<bool>());
  size_t ok_cells = 0;
  for (const auto& c : j["cells"]) ok_cells += c["status"] == "ok";
  EXPECT_GE(ok_cells, 1u);
  EXPECT_EQ(j["records"].size(), ok_cells);
  std::string ps, err;
  ASSERT_TRUE(RunChecked({"ps", "-eo", "args"}, &ps, &err)) << err;
  EXPECT_EQ(ps.find(dir_ + "/r.json.fio"), std::string::npos) << "a fio is left:\n" << ps;
  ExpectNothingLeft();
}

TEST_F(RunSignalsRootTest, SigkillThenRestoreRemovesEverything) {
  pid_t pid = StartAndWaitForCells(1);
  ASSERT_GT(pid, 0);
  KillAndRestore(pid);
  ExpectNothingLeft();
}

TEST_F(RunSignalsRootTest, SigkillOnTheEmulatedDiskThenRestoreRemovesEverything) {
  if (access("/dev/fuse", R_OK | W_OK) != 0) GTEST_SKIP() << "needs /dev/fuse";
  const std::map<std::string, std::string> bdi_before = testing::BdiWritebackValues();
  pid_t pid = StartAndWaitForCells(1, {"--emulated", "ide-2003:512M"});
  ASSERT_GT(pid, 0);
  // A serial run's disk is throttled as a lane's: a strict limit of its own (Linux >= 6.2).
  const nlohmann::json ctx =
      nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false)
          .value("context", nlohmann::json::object());
  const nlohmann::json writeback = ctx.value("disk_writeback", nlohmann::json::object());
  ASSERT_TRUE(writeback.contains("strict_limit")) << ctx.dump();
  if (writeback["strict_limit"].get<bool>()) {
    const std::string bdi = writeback.value("bdi", std::string());
    EXPECT_EQ(testing::ReadFileOrEmpty(bdi + "/strict_limit"), "1\n") << bdi;
    EXPECT_EQ(testing::ReadFileOrEmpty(bdi + "/max_ratio_fine"), "980000\n") << bdi;
  }
  KillAndRestore(pid);
  ExpectNothingLeft();
  for (const auto& [name, now] : testing::BdiWritebackValues()) {
    const auto it = bdi_before.find(name);
    EXPECT_EQ(now, it == bdi_before.end() ? testing::kDefaultBdiWriteback : it->second) << name;
  }
  const std::string mounts = testing::ReadFileOrEmpty("/proc/mounts");
  EXPECT_EQ(mounts.find("fuse.elevbench"), std::string::npos) << mounts;
  std::string ps;
  std::string err;
  ASSERT_TRUE(RunChecked({"ps", "-eo", "args"}, &ps, &err)) << err;
  EXPECT_EQ(ps.find("disk serve --backing " + std::string("/var/tmp/elevbench-")),
            std::string::npos)
      << "the disk daemon survived";
  // The emulated run pins VM writeback limits; they must be back.
  EXPECT_EQ(testing::ReadFileOrEmpty("/proc/sys/vm/dirty_bytes"), dirty_bytes_);
  EXPECT_EQ(testing::ReadFileOrEmpty("/proc/sys/vm/dirty_ratio"), dirty_ratio_);
}

// The emulated disk's loop device runs with 4 driver tags and writeback throttling off; after
// SIGKILL and `elevbench restore` that device is gone and every other loop device's scheduler,
// nr_requests, wbt_lat_usec and driver tags are as they were.
TEST_F(RunSignalsRootTest, SigkillOnTheEmulatedDiskThenRestoreLeavesEveryLoopQueueAsBefore) {
  if (access("/dev/fuse", R_OK | W_OK) != 0) GTEST_SKIP() << "needs /dev/fuse";
  Sysfs live;
  auto free_loop_queues = [&] {
    std::map<std::string, std::string> out;
    for (const auto& e : std::filesystem::directory_iterator("/sys/block")) {
      const std::string name = e.path().filename().string();
      if (name.rfind("loop", 0) != 0 || std::filesystem::exists(e.path() / "loop/backing_file")) {
        continue;
      }
      std::string state;
      for (const char* attr : {"scheduler", "nr_requests", "wbt_lat_usec"}) {
        state += testing::ReadFileOrEmpty(e.path().string() + "/queue/" + attr);
      }
      int tags = -1;
      bool no_blk_mq_debugfs = false;  // a kernel that cannot show them: the rest is compared
      std::string err;
      EXPECT_TRUE(ReadDriverTags(live, name, &tags, &no_blk_mq_debugfs, &err) || no_blk_mq_debugfs)
          << err;
      out[name] = state + "tags " + std::to_string(tags);
    }
    return out;
  };
  const std::map<std::string, std::string> before = free_loop_queues();
  pid_t pid = StartAndWaitForCells(1, {"--emulated", "ide-2003:512M"});
  ASSERT_GT(pid, 0);
  auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"), nullptr, false);
  const std::string device =
      j.is_discarded() ? "" : j["context"]["target"].value("loop_device", std::string());
  EXPECT_EQ(device.rfind("/dev/loop", 0), 0u) << "no loop device in the results context";
  const std::string name = device.size() > 5 ? device.substr(5) : "none";
  int tags = -1;
  bool no_blk_mq_debugfs = false;
  std::string err;
  if (ReadDriverTags(live, name, &tags, &no_blk_mq_debugfs, &err)) {
    EXPECT_EQ(tags, 4) << name;
  } else {  // a kernel that cannot show them: the run says so (EmulatedStackRootTest counts them)
    EXPECT_TRUE(no_blk_mq_debugfs) << err;
    EXPECT_TRUE(!j.is_discarded() && j["context"]["emulated_queue"].contains("driver_tags_check"))
        << (j.is_discarded() ? "" : j["context"].dump());
  }
  EXPECT_EQ(testing::ReadFileOrEmpty("/sys/block/" + name + "/queue/wbt_lat_usec"), "0\n") << name;
  KillAndRestore(pid);
  ExpectNothingLeft();
  EXPECT_FALSE(std::filesystem::exists("/sys/block/" + name)) << device << " was not removed";
  for (const auto& [loop, now] : free_loop_queues()) {
    auto it = before.find(loop);
    if (it != before.end()) {
      EXPECT_EQ(now, it->second) << loop;
    }
  }
}

}  // namespace
}  // namespace elevbench
