// The table of RunConfig's flags (harness/run/run_flags.h).

#include "harness/run/run_flags.h"

#include <gtest/gtest.h>

#include <set>

namespace elevbench {
namespace {

TEST(RunFlagsTest, EveryFlagOnceWithHelpAndRangesOnlyOnNumbers) {
  std::set<std::string> names;
  for (const RunConfigFlag& flag : RunConfigFlags()) {
    const std::string name = flag.name;
    EXPECT_EQ(name.rfind("--", 0), 0u) << name;
    EXPECT_TRUE(names.insert(name).second) << name;
    EXPECT_FALSE(flag.help.empty()) << name;
    const bool number = std::holds_alternative<double RunConfig::*>(flag.field) ||
                        std::holds_alternative<uint32_t RunConfig::*>(flag.field);
    if (flag.range) {
      EXPECT_TRUE(number) << name;
      EXPECT_LE(flag.range->first, flag.range->second) << name;
    }
  }
  EXPECT_EQ(RunConfigFlags().front().name, std::string("--dir"));
  EXPECT_EQ(RunConfigFlags().back().name, std::string("--trace-requests"));
  EXPECT_TRUE(names.count("--machine"));
}

// The target flags capture shares are declared once, by the CLI (AddTargetOptions): a row of
// the table with one of their names would be a second option of that name.
TEST(RunFlagsTest, TheSharedTargetFlagsAreNoRowsAndHaveRunsHelp) {
  for (const RunConfigFlag& flag : RunConfigFlags()) {
    for (const char* shared : {"--device", "--emulated", "--scratch", "--fs"}) {
      EXPECT_NE(std::string(flag.name), shared);
    }
  }
  const TargetFlagsHelp& help = RunTargetFlagsHelp();
  EXPECT_NE(help.device.find("switching the scheduler"), std::string::npos) << help.device;
  EXPECT_FALSE(help.emulated.empty());
  EXPECT_FALSE(help.scratch.empty());
  EXPECT_FALSE(help.fs.empty());
}

// The value names of `run --help` (#45: CLI11 wrote "TEXT"): each names a row of the table, and a
// flag without one (a number, a switch) gets none.
TEST(RunFlagsTest, ValueNamesNameRowsOfTheTable) {
  std::set<std::string> rows;
  for (const RunConfigFlag& flag : RunConfigFlags()) rows.insert(flag.name);
  for (const char* name : {"--dir", "--disk-set", "--machine", "--schedulers", "--lanes",
                           "--repetitions", "--shard", "--kernels", "--guest-clock"}) {
    EXPECT_TRUE(rows.count(name) > 0) << name;
    EXPECT_FALSE(RunFlagValueName(name).empty()) << name;
  }
  EXPECT_EQ(RunFlagValueName("--dir"), "DIR");
  EXPECT_EQ(RunFlagValueName("--lanes"), "N|auto");
  EXPECT_EQ(RunFlagValueName("--seed"), "");
  EXPECT_EQ(RunFlagValueName("--keep-wbt"), "");
}

// Under every suite's --help: the options of run it shares, named so that they can be found.
TEST(RunFlagsTest, TheSuitesFooterNamesRunsSharedOptions) {
  const std::string note = SharedRunOptionsNote();
  for (const char* flag : {"--dir", "--emulated", "--schedulers", "--format", "--db"}) {
    EXPECT_NE(note.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(note.find("elevbench run --help"), std::string::npos);
}

}  // namespace
}  // namespace elevbench
