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

}  // namespace
}  // namespace elevbench
