// `run --controls` (docs/controls.md): every control word and each refusal, the codes labels and
// identifiers carry, what a fake cgroup tree offers, the roles' cgroups with their limits and
// the journal's removal of them, and a child placed in its cgroups and I/O priority.

#include "harness/machine/io_controls.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "fakes.h"
#include "harness/core/strings.h"
#include "harness/machine/io_cost.h"
#include "harness/machine/io_cost_measure.h"
#include "harness/machine/role_cgroups.h"
#include "harness/process/subprocess.h"
#include "harness/run/kernels_job.h"
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
      // §4.5: on a host without cgroup v2 a bad value is named, not hidden behind the host.
      {"weight:probe=2000", "weight: bad weight '2000' (1 to 1000)"},
      {"iocost:model=foo", "iocost: bad model 'foo' (auto or measure)"},
      {"iolatency:probe=10", "iolatency: bad target '10'"},
  };
  for (const auto& [word, needle] : bad) {
    IoControl c;
    std::string err;
    EXPECT_FALSE(ParseIoControl(word, false, &c, &err)) << word;
    EXPECT_NE(err.find(needle), std::string::npos) << word << ": " << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
  const std::vector<std::pair<std::string, std::string>> bad_v2 = {
      {"weight:load=0", "weight: bad weight '0' (1 to 1000)"},
      {"weight:load=1001", "bad weight '1001'"},
      {"weight", "weight: no role given"},
      {"iocost:model=guess", "iocost: bad model 'guess' (auto or measure)"},
      {"iocost:qos=fast", "iocost: bad qos 'fast'"},
      {"iocost:writer=5", "names no role (load=… or probe=…) nor model=… or qos=…"},
      {"iolatency:probe=10", "iolatency: bad target '10' (as 10ms or 500us)"},
  };
  for (const auto& [word, needle] : bad_v2) {
    IoControl c;
    std::string err;
    EXPECT_FALSE(ParseIoControl(word, true, &c, &err)) << word;
    EXPECT_NE(err.find(needle), std::string::npos) << word << ": " << err;
  }
}

IoControl ParsedV2(const std::string& word) {
  IoControl c;
  std::string err;
  EXPECT_TRUE(ParseIoControl(word, true, &c, &err)) << word << ": " << err;
  return c;
}

TEST(IoControlsTest, TheCgroupV2WordsParseWithTheirCodesAndNeeds) {
  const IoControl weight = ParsedV2("weight:probe=1000,load=100");
  EXPECT_EQ(weight.kind, IoControl::Kind::kWeight);
  EXPECT_EQ(weight.code, "w100-pw1000");
  EXPECT_EQ(weight.load.weight, 100u);
  EXPECT_EQ(weight.probe.weight, 1000u);
  EXPECT_TRUE(weight.NeedsCgroups());
  // bfq reads io.bfq.weight itself; any other scheduler needs io.cost for io.weight to count.
  EXPECT_FALSE(weight.EnablesIoCost("bfq"));
  EXPECT_TRUE(weight.EnablesIoCost("mq-deadline"));
  EXPECT_EQ(weight.NeededController("bfq"), "bfq-weight");
  EXPECT_EQ(weight.NeededController("none"), "iocost");
  const IoControl iocost = ParsedV2("iocost");
  EXPECT_EQ(iocost.code, "iocost");
  EXPECT_EQ(iocost.iocost.model, "auto");
  EXPECT_TRUE(iocost.EnablesIoCost("bfq"));
  const IoControl measured = ParsedV2("iocost:model=measure,qos=50ms,load=100,probe=1000");
  EXPECT_EQ(measured.code, "iocost-meas-q50ms-w100-pw1000");
  EXPECT_EQ(measured.iocost.qos_latency_us, 50000u);
  EXPECT_EQ(measured.probe.weight, 1000u);
  const IoControl latency = ParsedV2("iolatency:probe=500us");
  EXPECT_EQ(latency.code, "plat500us");
  EXPECT_EQ(latency.probe.latency_us, 500u);
  EXPECT_EQ(latency.NeededController("bfq"), "iolatency");
  EXPECT_EQ(ParsedV2("ionice:load=idle").NeededController("bfq"), "");
  EXPECT_EQ(ControlledLabel("BFQ", ParsedV2("weight:probe=1000")), "BFQ+pw1000");
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
  // §4.6: two words that are one control (model=auto is iocost's default) are both named, not
  // one of them "given twice".
  EXPECT_FALSE(ParseIoControls("iocost,iocost:model=auto", true, &controls, &err));
  EXPECT_EQ(err,
            "--controls: 'iocost' and 'iocost:model=auto' are the same control (iocost): give "
            "one");
  EXPECT_FALSE(ParseIoControls("weight:load=100,probe=1000,weight:probe=1000,load=100", true,
                               &controls, &err));
  EXPECT_EQ(err,
            "--controls: 'weight:load=100,probe=1000' and 'weight:probe=1000,load=100' are the "
            "same control (w100-pw1000): give one");
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
  EXPECT_TRUE(CheckIoControlsOffered({Parsed("throttle:load=1M")}, layout, false, false, &err))
      << err;
  EXPECT_TRUE(CheckIoControlsOffered({Parsed("ionice:load=idle")}, {}, false, false, &err)) << err;
  EXPECT_FALSE(CheckIoControlsOffered({Parsed("throttle:load=1M")}, {}, false, false, &err));
  EXPECT_NE(err.find("--controls throttle:load=1M: needs blk-throttle"), std::string::npos) << err;
  EXPECT_FALSE(CheckIoControlsOffered({ParsedV2("weight:load=10")}, layout, false, false, &err));
  EXPECT_NE(err.find("needs cgroup v2's io controller"), std::string::npos) << err;

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

TEST_F(FakeIoCgroupTest, V2WeightsReachIoCostAndBfqAndIolatencyItsTarget) {
  testing::MakeFakeCgroupTree(root_, 2);
  testing::AddFakeIoController(root_, 2);
  const IoCgroupLayout layout = DetectIoCgroupLayout(FakeSysfs(), "0::/\n");
  RestoreJournal journal(FakeSysfs());
  std::string err;
  ASSERT_TRUE(journal.Open(temp_.path() + "/state", "controls test", &err)) << err;
  RoleCgroups roles(FakeSysfs(), testing::FakeCgroupMkdir());
  roles.RequireBfqWeight(true);
  RolePlacements placements;
  // Without bfq loaded its weight file is missing: a run with bfq must not go on without it.
  EXPECT_FALSE(roles.Create(ParsedV2("weight:probe=1000,load=100"), layout, "elevbench-9-control1",
                            "8:16", &journal, &placements, &err));
  EXPECT_NE(err.find("io.bfq.weight is missing"), std::string::npos) << err;
  RoleCgroups weighted(FakeSysfs(), [&](const std::string& path, std::string* e) {
    if (!testing::FakeCgroupMkdir()(path, e)) return false;
    std::ofstream(path + "/io.bfq.weight") << "default 100\n";
    return true;
  });
  weighted.RequireBfqWeight(true);
  ASSERT_TRUE(weighted.Create(ParsedV2("weight:probe=1000,load=100"), layout,
                              "elevbench-9-control2", "8:16", &journal, &placements, &err))
      << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control2-probe/io.weight"), "default 1000");
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control2-probe/io.bfq.weight"), "default 1000");
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control2-load/io.weight"), "default 100");
  RoleCgroups latency(FakeSysfs(), testing::FakeCgroupMkdir());
  ASSERT_TRUE(latency.Create(ParsedV2("iolatency:probe=10ms"), layout, "elevbench-9-control3",
                             "8:16", &journal, &placements, &err))
      << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/elevbench-9-control3-probe/io.latency"), "8:16 target=10000");
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_FALSE(fs::exists(root_ + "/sys/fs/cgroup/elevbench-9-control2-probe"));
}

TEST_F(FakeIoCgroupTest, IoCostIsTurnedOnAndOffPerCellAndTheJournalTurnsItOff) {
  testing::MakeFakeCgroupTree(root_, 2);
  testing::PutFakeFile(root_ + "/sys/fs/cgroup/io.cost.qos", "");
  testing::PutFakeFile(root_ + "/sys/fs/cgroup/io.cost.model", "");
  RestoreJournal journal(FakeSysfs());
  std::string err;
  ASSERT_TRUE(journal.Open(temp_.path() + "/state", "controls test", &err)) << err;
  IoCostSwitch io_cost(FakeSysfs());
  ASSERT_TRUE(io_cost.Prepare("8:16", &journal, &err)) << err;
  ASSERT_TRUE(io_cost.Apply(true, ParsedV2("iocost").iocost, IoCostModel{}, &err)) << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.qos"), "8:16 enable=1 ctrl=auto");
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.model"), "8:16 ctrl=auto");
  IoCostModel model;
  model.rbps = 50000000;
  model.rseqiops = model.rrandiops = model.wseqiops = model.wrandiops = 150;
  model.wbps = 45000000;
  ASSERT_TRUE(io_cost.Apply(true, ParsedV2("iocost:qos=50ms").iocost, model, &err)) << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.model"),
            "8:16 ctrl=user model=linear rbps=50000000 rseqiops=150 rrandiops=150 wbps=45000000 "
            "wseqiops=150 wrandiops=150");
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.qos"),
            "8:16 enable=1 ctrl=user rpct=95.00 rlat=50000 wpct=95.00 wlat=50000");
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.qos"), "8:16 enable=0");
  EXPECT_EQ(Value("/sys/fs/cgroup/io.cost.model"), "8:16 ctrl=auto");
  IoCostSwitch none(FakeSysfs());
  fs::remove(root_ + "/sys/fs/cgroup/io.cost.qos");
  EXPECT_FALSE(none.Prepare("8:16", &journal, &err));
  EXPECT_NE(err.find("this kernel has no io.cost"), std::string::npos) << err;
}

TEST(IoControlsTest, EachKernelMustOfferWhatItsControlsNeed) {
  const KernelFeatures debian61 = KernelFeaturesFromConfig(
      "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_IOSCHED_BFQ=m\nCONFIG_BLK_DEV_THROTTLING=y\n"
      "CONFIG_BLK_CGROUP_IOCOST=y\n# CONFIG_BLK_CGROUP_IOLATENCY is not set\n"
      "CONFIG_BFQ_GROUP_IOSCHED=y\n");
  const std::vector<SchedulerConfig> schedulers = {{"mq-deadline", {}, "DL"}, {"bfq", {}, "BFQ"}};
  std::string err;
  EXPECT_TRUE(CheckKernelControls("6.1.0-50-cloud-amd64", debian61, schedulers,
                                  {ParsedV2("weight:probe=1000"), ParsedV2("iocost"),
                                   ParsedV2("throttle:load=10M"), ParsedV2("none")},
                                  &err))
      << err;
  EXPECT_FALSE(CheckKernelControls("6.1.0-50-cloud-amd64", debian61, schedulers,
                                   {ParsedV2("iolatency:probe=10ms")}, &err));
  // §4.6: io.latency does not depend on the scheduler, so no scheduler is named.
  EXPECT_EQ(err,
            "--controls iolatency:probe=10ms: kernel 6.1.0-50-cloud-amd64 has no iolatency (its "
            "config lacks CONFIG_BLK_CGROUP_IOLATENCY)");
  const KernelFeatures no_bfq_groups =
      KernelFeaturesFromConfig("CONFIG_IOSCHED_BFQ=y\nCONFIG_BLK_CGROUP_IOCOST=y\n");
  EXPECT_FALSE(CheckKernelControls("6.99", no_bfq_groups, {{"bfq", {}, ""}},
                                   {ParsedV2("weight:probe=1000")}, &err));
  EXPECT_NE(err.find("has no bfq-weight (under bfq) (its config lacks CONFIG_BFQ_GROUP_IOSCHED)"),
            std::string::npos)
      << err;
}

TEST(IoCostLinesTest, ADisksLineMatchesByItsPairsOrItsAbsenceAtTheDefaults) {
  const std::string qos = "8:0 enable=1 ctrl=auto rpct=0.00 rlat=250000\n8:16 enable=0 ctrl=auto\n";
  EXPECT_TRUE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.qos", "8:16 enable=0", qos));
  EXPECT_TRUE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.qos", "8:0 enable=1 ctrl=auto", qos));
  EXPECT_FALSE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.qos", "8:0 enable=0", qos));
  EXPECT_TRUE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.qos", "7:3 enable=0", qos));
  EXPECT_FALSE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.qos", "7:3 enable=1", qos));
  EXPECT_TRUE(Sysfs::ValueMatches("/sys/fs/cgroup/io.cost.model", "7:3 ctrl=auto", ""));
}

TEST(IoCostModelTest, TheRecipesRunsAndFiosThroughput) {
  const std::vector<std::string> cmd =
      IoCostProbeCommand("fio", IoCostRecipe()[2], "/mnt/t/f", 512ull << 20, 10);
  EXPECT_EQ(JoinWith(cmd, " "),
            "fio --name=coef --direct=1 --ioengine=libaio --filename=/mnt/t/f --size=536870912 "
            "--runtime=10 --time_based --readwrite=randread --iodepth=64 --blocksize=4096 "
            "--numjobs=1 --output-format=json");
  EXPECT_STREQ(IoCostRecipe()[0].key, "rbps");
  EXPECT_EQ(IoCostRecipe()[3].block_bytes, 128ull << 20);
  double bps = 0;
  std::string err;
  ASSERT_TRUE(IoCostProbeThroughput(
      R"({"jobs":[{"read":{"bw_bytes":1000},"write":{"bw_bytes":24}}]})", &bps, &err))
      << err;
  EXPECT_EQ(bps, 1024);
  EXPECT_FALSE(IoCostProbeThroughput("fio: no such file", &bps, &err));
  EXPECT_FALSE(IoCostProbeThroughput(R"({"jobs":[{"read":{}}]})", &bps, &err));
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
