// A suite's own setting fills only what the command line left out.

#include <gtest/gtest.h>

#include "harness/cli/commands.h"
#include "scenarios/suites.h"

namespace elevbench {
namespace {

const SuiteRunDefaults kPostLike = {"ide-2003", "ext2", "p4-2003", "mq-deadline@DL,none"};

TEST(RunDefaultsTest, NothingGivenTakesTheWholeSetting) {
  RunOptions o;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, GivenRunOptions{}, &o);
  EXPECT_EQ(o.emulated, "ide-2003");
  EXPECT_EQ(o.fs, "ext2");
  EXPECT_EQ(o.machine, "p4-2003");
  EXPECT_EQ(o.schedulers, "mq-deadline@DL,none");
  EXPECT_EQ(applied,
            "--emulated ide-2003 --fs ext2 --machine p4-2003 --schedulers mq-deadline@DL,none");
}

TEST(RunDefaultsTest, AGivenTargetKeepsItsOwnFsAndMachineButStillTakesTheSchedulers) {
  RunOptions o;
  o.directory = "/some/dir";
  GivenRunOptions given;
  given.target = true;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, given, &o);
  EXPECT_EQ(o.directory, "/some/dir");
  EXPECT_EQ(o.emulated, "");
  EXPECT_EQ(o.fs, "ext4");  // RunOptions' own default
  EXPECT_EQ(o.machine, "");
  EXPECT_EQ(o.schedulers, "mq-deadline@DL,none");
  EXPECT_EQ(applied, "--schedulers mq-deadline@DL,none");
}

TEST(RunDefaultsTest, GivenOptionsWinEvenWhenEmpty) {
  RunOptions o;
  o.fs = "xfs";
  o.schedulers = "";  // --schedulers "" given: the current scheduler, not the suite's list
  GivenRunOptions given;
  given.fs = true;
  given.machine = true;
  given.schedulers = true;
  const std::string applied = ApplySuiteRunDefaults(kPostLike, given, &o);
  EXPECT_EQ(o.emulated, "ide-2003");
  EXPECT_EQ(o.fs, "xfs");
  EXPECT_EQ(o.machine, "");
  EXPECT_EQ(o.schedulers, "");
  EXPECT_EQ(applied, "--emulated ide-2003");
}

TEST(RunDefaultsTest, ASuiteWithoutASettingChangesNothing) {
  RunOptions o;
  EXPECT_EQ(ApplySuiteRunDefaults(SuiteRunDefaults{}, GivenRunOptions{}, &o), "");
  EXPECT_EQ(o.emulated, "");
  EXPECT_EQ(o.schedulers, "");
}

TEST(RunDefaultsTest, OnlyPost2003HasASetting) {
  for (const SuiteEntry& entry : AllSuites()) {
    const bool has = !entry.defaults.emulated.empty() || !entry.defaults.schedulers.empty();
    EXPECT_EQ(has, std::string(entry.name) == "post-2003") << entry.name;
  }
}

}  // namespace
}  // namespace elevbench
