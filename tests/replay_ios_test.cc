// Plug merging and the dependency of each I/O on its predecessor (the dependent replayer's timing).

#include "scenarios/replay/replay_ios.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

// A bio without a recorded latency gives its successor no completion to follow: it is timed.
TEST(ReplayIosTest, PlugMergingKeepsTheLastCompletionAndUnknownLatencyMeansTimed) {
  const BlockTraceRecord a{0, 1, "a", BlockTraceOp::kRead, 0, 100, 8, 3000000};
  const BlockTraceRecord b{50000, 1, "a", BlockTraceOp::kRead, 0, 108, 8, 4000000};
  const BlockTraceRecord c{9000000, 1, "a", BlockTraceOp::kRead, 0, 500, 8, -1};
  const BlockTraceRecord d{9500000, 1, "a", BlockTraceOp::kRead, 0, 900, 8, 1000000};
  const std::vector<ReplayIo> ios = PlugMergedIos({&a, &b, &c, &d});
  ASSERT_EQ(ios.size(), 3u);
  EXPECT_EQ(ios[0].records, 2u);
  EXPECT_EQ(ios[0].done_ns, 4050000);  // the later of the two completions
  EXPECT_EQ(ios[1].done_ns, -1);
  EXPECT_FALSE(DependencyOf(ios, 0).after_previous);
  const ReplayDependency second = DependencyOf(ios, 1);
  EXPECT_TRUE(second.after_previous);
  EXPECT_EQ(second.think_ns, 9000000u - 4050000u);
  EXPECT_FALSE(DependencyOf(ios, 2).after_previous);  // its predecessor's completion is unknown
}

}  // namespace
}  // namespace elevbench
