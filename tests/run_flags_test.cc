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

}  // namespace
}  // namespace elevbench
