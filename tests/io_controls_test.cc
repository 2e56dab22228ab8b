// `run --controls` (docs/controls.md): every control word and each refusal, the codes labels and
// identifiers carry, what a fake cgroup tree offers, the roles' cgroups with their limits and
// the journal's removal of them, and a child placed in its cgroups and I/O priority.

#include "harness/machine/io_controls.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fakes.h"
#include "harness/core/strings.h"
#include "harness/machine/role_cgroups.h"
#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

IoControl Parsed(const std::string& word) {
  IoControl c;
  std::string err;
  EXPECT_TRUE(ParseIoControl(word, false, &c, &err)) << word << ": " << err;
  return c;
}

TEST(IoControlsTest, EveryWordParsesWithItsCode) {
  EXPECT_EQ(Parsed("none").kind, IoControl::Kind::kNone);
  EXPECT_EQ(Parsed("none").code, "");
  const IoControl idle = Parsed("ionice:load=idle");
  EXPECT_EQ(idle.kind, IoControl::Kind::kIonice);
  EXPECT_EQ(idle.code, "idle");
  EXPECT_EQ(idle.load.IoprioValue(), 3 << 13);
  EXPECT_EQ(idle.probe.IoprioValue(), -1);
  EXPECT_EQ(Parsed("ionice:probe=rt").code, "prt");
  EXPECT_EQ(Parsed("ionice:probe=rt").probe.IoprioValue(), 1 << 13 | 4);
  EXPECT_EQ(Parsed("ionice:probe=rt:0").probe.IoprioValue(), 1 << 13);
  EXPECT_EQ(Parsed("ionice:load=be:7").load.IoprioValue(), 2 << 13 | 7);
  EXPECT_EQ(Parsed("ionice:load=be").code, "be");
  EXPECT_EQ(Parsed("ionice:load=be:7").code, "be7");
  // The load's part first, whatever the order given.
  EXPECT_EQ(Parsed("ionice:probe=rt:2,load=idle").code, "idle-prt2");
  const IoControl thr = Parsed("throttle:load=10M");
  EXPECT_EQ(thr.kind, IoControl::Kind::kThrottle);
  EXPECT_EQ(thr.code, "thr10M");
  EXPECT_EQ(thr.load.bytes_per_second, 10u << 20);
  EXPECT_TRUE(thr.NeedsCgroups());
  EXPECT_FALSE(idle.NeedsCgroups());
  EXPECT_EQ(Parsed("throttle:load=10M,probe=512K").code, "thr10M-pthr512K");
}

TEST(IoControlsTest, EachRefusalIsOneLine) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"fast", "unknown control 'fast'"},
      {"ionice", "no role given"},
      {"ionice:load", "bad class ''"},
      {"ionice:load=rt:8", "bad class 'rt:8'"},
      {"ionice:load=idle:1", "bad class 'idle:1'"},
      {"ionice:writer=idle", "names no role"},
      {"ionice:load=idle,load=be", "load given twice"},
      {"throttle:load=fast", "bad rate 'fast'"},
      {"throttle:load=0", "bad rate '0'"},
      {"weight:probe=1000,load=100", "weight: needs cgroup v2's io controller"},
      {"iocost", "iocost: needs cgroup v2's io controller, which this host lacks"},
      {"iolatency:probe=10ms", "iolatency: needs cgroup v2's io controller"},
  };
  for (const auto& [word, needle] : bad) {
    IoControl c;
    std::string err;
    EXPECT_FALSE(ParseIoControl(word, false, &c, &err)) << word;
    EXPECT_NE(err.find(needle), std::string::npos) << word << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
  IoControl c;
  std::string err;
  EXPECT_FALSE(ParseIoControl("iocost", true, &c, &err));
  EXPECT_NE(err.find("iocost: not built yet"), std::string::npos) << err;
}

TEST(IoControlsTest, TheListSplitsAtEachControl) {
  std::vector<IoControl> controls;
  std::string err;
  ASSERT_TRUE(
      ParseIoControls("none,ionice:load=idle,probe=rt,throttle:load=10M", false, &controls, &err))
      << err;
  ASSERT_EQ(controls.size(), 3u);
  EXPECT_EQ(controls[0].text, "none");
  EXPECT_EQ(controls[1].text, "ionice:load=idle,probe=rt");
  EXPECT_EQ(controls[1].code, "idle-prt");
  EXPECT_EQ(controls[2].text, "throttle:load=10M");
  EXPECT_TRUE(AnyControl(controls));
  ASSERT_TRUE(ParseIoControls("", false, &controls, &err)) << err;
  ASSERT_EQ(controls.size(), 1u);  // no --controls: none, today's run
  EXPECT_FALSE(AnyControl(controls));
  EXPECT_FALSE(ParseIoControls("none,ionice:load=idle,none", false, &controls, &err));
  EXPECT_EQ(err, "--controls: 'none' is given twice");
  EXPECT_FALSE(ParseIoControls("none,iocost", false, &controls, &err));
  EXPECT_EQ(err, "--controls: iocost: needs cgroup v2's io controller, which this host lacks");
}

TEST(IoControlsTest, LabelsAndIdentifiersCarryTheCode) {
  EXPECT_EQ(ControlledLabel("DL", Parsed("ionice:load=idle")), "DL+idle");
  EXPECT_EQ(ControlledLabel("DL", Parsed("throttle:load=10M")), "DL+thr10M");
  EXPECT_EQ(ControlledLabel("DL", Parsed("none")), "DL");
  EXPECT_EQ(ControlledIdentifier("6.18.44-dl", Parsed("ionice:load=idle")), "6.18.44-dl-idle");
  EXPECT_EQ(ControlledIdentifier("6.18.44-dl", Parsed("throttle:load=10M")), "6.18.44-dl-thr10m");
  EXPECT_EQ(ControlledIdentifier("6.18.44-dl", Parsed("none")), "6.18.44-dl");
}

class FakeIoCgroupTest : public ::testing::Test {
 protected:
  Sysfs FakeSysfs() {
    Sysfs sysfs(root_);
    sysfs.set_write_hook(testing::FakeCgroupWriteHook());
    return sysfs;
  }
  std::string Value(const std::string& system_path) {
    return TrimWhitespace(testing::ReadFileOrEmpty(root_ + system_path));
  }
  testing::ScopedTempDir temp_;
  const std::string root_ = temp_.path() + "/root";
};

TEST_F(FakeIoCgroupTest, TheLayoutIsV1BlkioOrV2IoOrNone) {
  testing::MakeFakeCgroupTree(root_, 1);
  EXPECT_EQ(DetectIoCgroupLayout(FakeSysfs(), "0::/\n").version, 0);  // no blkio
  const std::string self = testing::AddFakeIoController(root_, 1);
  IoCgroupLayout layout = DetectIoCgroupLayout(FakeSysfs(), self);
  EXPECT_EQ(layout.version, 1);
  EXPECT_EQ(layout.parent, "/sys/fs/cgroup/blkio/outer");
  // A throttle needs a layout; ionice does not.
  std::string err;
  EXPECT_TRUE(CheckIoControlsOffered({Parsed("throttle:load=1M")}, layout, false, &err)) << err;
  EXPECT_TRUE(CheckIoControlsOffered({Parsed("ionice:load=idle")}, {}, false, &err)) << err;
  EXPECT_FALSE(CheckIoControlsOffered({Parsed("throttle:load=1M")}, {}, false, &err));
  EXPECT_NE(err.find("--controls throttle:load=1M: needs blk-throttle"), std::string::npos) << err;

  testing::ScopedTempDir other;
  const std::string v2root = other.path() + "/root";
  testing::MakeFakeCgroupTree(v2root, 2);
  Sysfs v2(v2root);
  EXPECT_EQ(DetectIoCgroupLayout(v2, "0::/user.slice\n").version, 0);  // io not enabled
  testing::AddFakeIoController(v2root, 2);
  layout = DetectIoCgroupLayout(v2, "0::/user.slice\n");
  EXPECT_EQ(layout.version, 2);
  EXPECT_EQ(layout.parent, "/sys/fs/cgroup");
}

TEST_F(FakeIoCgroupTest, AThrottleMakesBothRolesCgroupsWithTheLimitAndTheJournalRemovesThem) {
  testing::MakeFakeCgroupTree(root_, 1);
  const IoCgroupLayout layout =
      DetectIoCgroupLayout(FakeSysfs(), testing::AddFakeIoController(root_, 1));
  RestoreJournal journal(FakeSysfs());
  std::string err;
  ASSERT_TRUE(journal.Open(temp_.path() + "/state", "controls test", &err)) << err;
  RoleCgroups roles(FakeSysfs(), testing::FakeCgroupMkdir());
  RolePlacements placements;
  ASSERT_TRUE(roles.Create(Parsed("throttle:load=10M"), layout, "elevbench-9-control1", "7:3",
                           &journal, &placements, &err))
      << err;
  const std::string load = "/sys/fs/cgroup/blkio/outer/elevbench-9-control1-load";
  const std::string probe = "/sys/fs/cgroup/blkio/outer/elevbench-9-control1-probe";
  EXPECT_EQ(roles.paths(), (std::vector<std::string>{load, probe}));
  EXPECT_EQ(Value(load + "/blkio.throttle.read_bps_device"), "7:3 10485760");
  EXPECT_EQ(Value(load + "/blkio.throttle.write_bps_device"), "7:3 10485760");
  EXPECT_EQ(Value(probe + "/blkio.throttle.read_bps_device"), "");  // its own, unlimited
  EXPECT_EQ(placements.load.cgroup_procs,
            (std::vector<std::string>{root_ + load + "/cgroup.procs"}));
  EXPECT_EQ(placements.probe.cgroup_procs,
            (std::vector<std::string>{root_ + probe + "/cgroup.procs"}));
  EXPECT_EQ(placements.load.ioprio, -1);
  ASSERT_EQ(journal.entries().size(), 2u);
  EXPECT_EQ(journal.entries()[0].kind, JournalEntryKind::kCgroup);
  EXPECT_EQ(journal.entries()[0].path, load);
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log, (std::vector<std::string>{"removed cgroup " + probe, "removed cgroup " + load}));
  EXPECT_FALSE(fs::exists(root_ + load));
  EXPECT_FALSE(fs::exists(root_ + probe));
  // A name the journal would not remove is refused.
  EXPECT_FALSE(roles.Create(Parsed("throttle:load=10M"), layout, "other", "7:3", &journal,
                            &placements, &err));
}

TEST_F(FakeIoCgroupTest, V2WritesIoMaxAndIoniceMakesNoCgroup) {
  testing::MakeFakeCgroupTree(root_, 2);
  testing::AddFakeIoController(root_, 2);
  const IoCgroupLayout layout = DetectIoCgroupLayout(FakeSysfs(), "0::/user.slice\n");
  RestoreJournal journal(FakeSysfs());
  std::string err;
  ASSERT_TRUE(journal.Open(temp_.path() + "/state", "controls test", &err)) << err;
  RoleCgroups roles(FakeSysfs(), testing::FakeCgroupMkdir());
  RolePlacements placements;
  ASSERT_TRUE(roles.Create(Parsed("throttle:probe=1M"), layout, "elevbench-9-control2", "8:16",
                           &journal, &placements, &err))
      << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control2-probe/io.max"),
            "8:16 rbps=1048576 wbps=1048576");
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control2-load/io.max"), "");
  RoleCgroups none(FakeSysfs(), testing::FakeCgroupMkdir());
  ASSERT_TRUE(none.Create(Parsed("ionice:load=idle"), layout, "elevbench-9-control3", "8:16",
                          &journal, &placements, &err))
      << err;
  EXPECT_TRUE(none.paths().empty());
  EXPECT_EQ(placements.load.ioprio, 3 << 13);
  EXPECT_TRUE(placements.load.cgroup_procs.empty());
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(log.size(), 2u);
}

// The child moves itself (writes "0" to each cgroup.procs) and takes its I/O priority before
// exec, so that everything it forks starts there too.
TEST(ProcessPlacementTest, TheChildIsPlacedBeforeItsProgramRuns) {
  testing::ScopedTempDir temp;
  const std::string procs = temp.path() + "/cgroup.procs";
  std::ofstream(procs) << "";
  ProcessOptions options;
  options.placement.ioprio = 3 << 13;  // idle: any process may take it
  options.placement.cgroup_procs = {procs};
  ProcessResult result;
  std::string err;
  ASSERT_TRUE(RunProcess({"sh", "-c", "command -v ionice >/dev/null && ionice || echo idle"},
                         options, &result, &err))
      << err;
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(TrimWhitespace(result.output), "idle");
  EXPECT_EQ(testing::ReadFileOrEmpty(procs), "0");
  options.placement.cgroup_procs = {temp.path() + "/gone/cgroup.procs"};
  EXPECT_FALSE(RunProcess({"true"}, options, &result, &err));
  EXPECT_NE(err.find("cannot place true in its cgroups or I/O priority (--controls)"),
            std::string::npos)
      << err;
}

}  // namespace
}  // namespace elevbench
