// nickbench under `run --controls`: its readers are the probe role and its writers the load, each
// placed by fio's own job options, since they are jobs of one fio (FioPlacementOptions).

#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/suites.h"
#include "fakes.h"
#include "harness/fio/fio_placement.h"
#include "harness/run/suite.h"
#include "test_util.h"

namespace elevbench {
namespace {

std::string OptionOf(const StreamSpec& s, const std::string& key) {
  for (const auto& [k, v] : s.extra) {
    if (k == key) return v;
  }
  return "";
}

TEST(NickbenchSuiteTest, ReadersTakeTheProbesPriorityAndWritersTheLoads) {
  testing::ScopedTempDir dir;
  std::unique_ptr<Suite> suite = FindSuite("nickbench")->make();
  EXPECT_TRUE(suite->HasRoles());
  CLI::App app;
  suite->AddOptions(&app);
  ASSERT_NO_THROW(app.parse("--benches 2 --size 1", false));
  std::string err;
  ASSERT_TRUE(suite->Prepare(MachineInfo{}, &err)) << err;
  testing::FakeFio fio;
  CellEnvironment env;
  env.directory = dir.path();
  env.work_dir = dir.path();
  env.fio = &fio;
  env.probe_placement.ioprio = 1 << 13 | 0;  // rt, level 0
  env.load_placement.ioprio = 3 << 13;       // idle
  std::vector<nlohmann::json> records;
  ASSERT_TRUE(suite->RunCell(suite->Variants().front(), env, &records, &err)) << err;
  ASSERT_EQ(fio.runs.size() + fio.starts.size(), 1u);
  const FioInvocation& inv = fio.runs.empty() ? fio.starts[0].invocation : fio.runs[0];
  ASSERT_EQ(inv.streams.size(), 2u);
  EXPECT_TRUE(inv.global.thread);      // no cgroup in the run: the legacy tools' threads
  EXPECT_TRUE(inv.placement.empty());  // the fio process itself stays where the run is
  EXPECT_EQ(inv.streams[0].rw, "read");
  EXPECT_EQ(OptionOf(inv.streams[0], "prioclass"), "1");
  EXPECT_EQ(OptionOf(inv.streams[0], "prio"), "0");
  EXPECT_EQ(OptionOf(inv.streams[1], "prioclass"), "3");
  EXPECT_EQ(OptionOf(inv.streams[1], "cgroup"), "");

  // A run with a control in cgroups runs every cell's jobs as processes, controlled or not.
  env.probe_placement = {};
  env.load_placement = {};
  env.roles_in_cgroups = true;
  ASSERT_TRUE(suite->RunCell(suite->Variants().front(), env, &records, &err)) << err;
  const FioInvocation& second = fio.runs.empty() ? fio.starts.back().invocation : fio.runs.back();
  EXPECT_FALSE(second.global.thread);
  EXPECT_EQ(OptionOf(second.streams[0], "prioclass"), "");
}

constexpr char kMountInfo[] =
    "25 1 254:0 / / rw - ext4 /dev/vda rw\n"
    "37 30 0:33 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup rw,blkio\n";

TEST(FioPlacementTest, ACgroupIsGivenAsFiosPathUnderTheMountAndIsNotDeletedByFio) {
  ProcessPlacement p;
  p.cgroup_procs = {"/sys/fs/cgroup/blkio/elevbench-ab/elevbench-ab-load/cgroup.procs"};
  std::vector<std::pair<std::string, std::string>> options;
  std::string err;
  ASSERT_TRUE(FioPlacementOptions(p, kMountInfo, &options, &err)) << err;
  const std::vector<std::pair<std::string, std::string>> want = {
      {"cgroup", "elevbench-ab/elevbench-ab-load"}, {"cgroup_nodelete", "1"}};
  EXPECT_EQ(options, want);
  options.clear();
  p.cgroup_procs = {"/tmp/elevbench-ab-load/cgroup.procs"};
  EXPECT_FALSE(FioPlacementOptions(p, kMountInfo, &options, &err));
  EXPECT_NE(err.find("is under no cgroup mount"), std::string::npos) << err;
  p.cgroup_procs = {"/sys/fs/cgroup/blkio/a/cgroup.procs", "/sys/fs/cgroup/blkio/b/cgroup.procs"};
  EXPECT_FALSE(FioPlacementOptions(p, kMountInfo, &options, &err));
}

}  // namespace
}  // namespace elevbench
