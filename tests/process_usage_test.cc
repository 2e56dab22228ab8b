// A process's resource use as a plain record (harness/core/process_usage.h): summing a load's
// iterations, and its JSON fields.

#include "harness/core/process_usage.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(ProcessUsageTest, ASumAddsTimesAndCountsButKeepsItsOwnWallTime) {
  ProcessUsage sum;
  sum.elapsed_seconds = 10;
  const ProcessUsage part{2.5, 0.25, 0.5, 1, 100, 8, 16, 3, 4};
  AddProcessUsage(part, &sum);
  AddProcessUsage(part, &sum);
  EXPECT_DOUBLE_EQ(sum.elapsed_seconds, 10);  // the load's own, not 2 × 2.5
  EXPECT_DOUBLE_EQ(sum.user_seconds, 0.5);
  EXPECT_DOUBLE_EQ(sum.system_seconds, 1.0);
  EXPECT_EQ(sum.major_faults, 2u);
  EXPECT_EQ(sum.minor_faults, 200u);
  EXPECT_EQ(sum.block_input_ops, 16u);
  EXPECT_EQ(sum.block_output_ops, 32u);
  EXPECT_EQ(sum.voluntary_switches, 6u);
  EXPECT_EQ(sum.involuntary_switches, 8u);
}

TEST(ProcessUsageTest, ItsJsonFieldsReadBackAndAMissingOneIsNamed) {
  const ProcessUsage u{2.5, 0.25, 0.5, 1, 100, 8, 16, 3, 4};
  nlohmann::json j = nlohmann::json::object();
  WriteProcessUsage(u, &j);
  ProcessUsage back;
  std::string err;
  ASSERT_TRUE(ReadProcessUsage(j, &back, &err)) << err;
  EXPECT_EQ(back.minor_faults, 100u);
  EXPECT_DOUBLE_EQ(back.elapsed_seconds, 2.5);
  j.erase("minor_faults");
  EXPECT_FALSE(ReadProcessUsage(j, &back, &err));
  EXPECT_NE(err.find("minor_faults"), std::string::npos) << err;
}

}  // namespace
}  // namespace elevbench
