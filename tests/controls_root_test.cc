// `run probes --controls none,ionice:load=idle,throttle:load=10M` on a small emulated ide-2003
// (root, FUSE, cgroups with blk-throttle): one row per scheduler × control, each control kept
// in its cells and records, the throttle's cgroups made and gone at the end. Skips cleanly
// without root or without blk-throttle.

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

class ControlsRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = testing::WhyEmulatedDiskCannotRun();
    if (!why.empty()) GTEST_SKIP() << why;
    if (!fs::exists("/sys/fs/cgroup/blkio/blkio.throttle.read_bps_device") &&
        testing::ReadFileOrEmpty("/sys/fs/cgroup/cgroup.subtree_control").find("io") ==
            std::string::npos) {
      GTEST_SKIP() << "needs blk-throttle (cgroup v1 blkio or v2 io)";
    }
    temp_ = std::make_unique<testing::ScopedTempDir>();
    dir_ = temp_->path();
  }

  std::unique_ptr<testing::ScopedTempDir> temp_;
  std::string dir_;
};

TEST_F(ControlsRootTest, ProbesRunOncePerSchedulerAndControlAndLeaveNoCgroup) {
  const std::vector<std::string> args = {ELEVBENCH_BINARY,
                                         "run",
                                         "probes",
                                         "--emulated",
                                         "ide-2003:384M",
                                         "--fs",
                                         "ext2",
                                         "--schedulers",
                                         "mq-deadline",
                                         "--controls",
                                         "none,ionice:load=idle,throttle:load=10M",
                                         "--probes",
                                         "cat-during-write",
                                         "--tree-size",
                                         "4",
                                         "--load-size",
                                         "32M",
                                         "--warmup",
                                         "1",
                                         "--seed",
                                         "1",
                                         "--no-history",
                                         "--out",
                                         dir_ + "/r.json"};
  const int err = open((dir_ + "/stderr").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  const pid_t pid = testing::SpawnElevbench(args, dir_ + "/state", err);
  close(err);
  ASSERT_EQ(testing::WaitForSpawned(pid, 900), 0) << testing::ReadFileOrEmpty(dir_ + "/stderr");

  const auto j = nlohmann::json::parse(testing::ReadFileOrEmpty(dir_ + "/r.json"));
  EXPECT_EQ(j["labels"], nlohmann::json({"DL", "DL+idle", "DL+thr10M"}));
  ASSERT_EQ(j["cells"].size(), 3u);
  std::map<std::string, std::string> control_of;
  for (const nlohmann::json& cell : j["cells"]) {
    EXPECT_EQ(cell["status"], "ok") << cell.dump();
    control_of[cell["label"]] = cell.value("control", "");
  }
  EXPECT_EQ(control_of, (std::map<std::string, std::string>{{"DL", "none"},
                                                            {"DL+idle", "ionice:load=idle"},
                                                            {"DL+thr10M", "throttle:load=10M"}}));
  std::set<std::string> labels;
  for (const nlohmann::json& r : j["records"]) {
    EXPECT_EQ(r.value("control", ""), control_of[r["label"]]) << r.dump();
    labels.insert(r["label"]);
  }
  EXPECT_EQ(labels.size(), 3u);  // no two controls' rows merged
  const nlohmann::json& controls = j["context"]["controls"];
  ASSERT_EQ(controls["cgroups"].size(), 2u) << controls.dump();
  for (const nlohmann::json& path : controls["cgroups"]) {
    EXPECT_FALSE(fs::exists(path.get<std::string>())) << path;
  }
  for (const fs::path root : {"/sys/fs/cgroup/blkio", "/sys/fs/cgroup"}) {
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_directory(ec)) continue;
      EXPECT_EQ(it->path().filename().string().find("-control"), std::string::npos) << it->path();
      if (it.depth() >= 2) it.disable_recursion_pending();
    }
  }
}

// Runs `elevbench run ARGS --out DIR/NAME.json` to its end and returns the results file.
nlohmann::json RunToEnd(const std::string& dir, const std::string& name,
                        std::vector<std::string> args) {
  args.insert(args.begin(), {ELEVBENCH_BINARY, "run"});
  args.insert(args.end(), {"--seed", "1", "--no-history", "--out", dir + "/" + name + ".json"});
  const int err =
      open((dir + "/" + name + ".stderr").c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
  const pid_t pid = testing::SpawnElevbench(args, dir + "/state-" + name, err);
  close(err);
  EXPECT_EQ(testing::WaitForSpawned(pid, 900), 0)
      << testing::ReadFileOrEmpty(dir + "/" + name + ".stderr");
  return nlohmann::json::parse(testing::ReadFileOrEmpty(dir + "/" + name + ".json"));
}

void ExpectCgroupsGone(const nlohmann::json& j) {
  const nlohmann::json& controls = j["context"]["controls"];
  ASSERT_FALSE(controls["cgroups"].empty()) << controls.dump();
  for (const nlohmann::json& path : controls["cgroups"]) {
    EXPECT_FALSE(fs::exists(path.get<std::string>())) << path;
  }
}

// nickbench's readers are the probe role, placed by fio's own cgroup= (as processes): a reader
// throttled to 1 MiB/s reads at about that, the unthrottled one far faster. visave's saver
// places the harness itself around each save and moves it back, so the cgroups can go.
TEST_F(ControlsRootTest, NickbenchReadersAndVisavesSaverAreTheProbeRole) {
  const nlohmann::json nick = RunToEnd(
      dir_, "nick",
      {"nickbench", "--emulated", "ide-2003:384M", "--fs", "ext2", "--schedulers", "mq-deadline",
       "--controls", "none,throttle:probe=1M", "--benches", "2", "--size", "16"});
  std::map<std::string, double> readers;
  for (const nlohmann::json& r : nick["records"]) {
    uint64_t read = 0;
    for (const nlohmann::json& s : r["streams"]) read += s.value("bytes_read", uint64_t{0});
    readers[r["label"]] =
        static_cast<double>(read) / (1 << 20) / r["elapsed_seconds"].get<double>();
  }
  ASSERT_EQ(readers.size(), 2u) << nick.dump();
  EXPECT_LT(readers["DL+thr1M"], 1.5);
  EXPECT_GT(readers["DL"], 2 * readers["DL+thr1M"]);
  ExpectCgroupsGone(nick);

  const nlohmann::json vi =
      RunToEnd(dir_, "visave",
               {"visave", "--emulated", "ide-2003:384M", "--fs", "ext2", "--schedulers",
                "mq-deadline", "--controls", "none,ionice:probe=rt,throttle:load=10M", "--saves",
                "2", "--interval", "0.2", "--load-size", "32", "--warmup", "1"});
  ASSERT_EQ(vi["cells"].size(), 3u);
  for (const nlohmann::json& cell : vi["cells"]) EXPECT_EQ(cell["status"], "ok") << cell.dump();
  ExpectCgroupsGone(vi);
  EXPECT_EQ(testing::ReadFileOrEmpty("/proc/self/cgroup").find("elevbench-"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
