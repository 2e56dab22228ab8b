// `trace show`: the summary of the committed fixture trace, as text and JSON.

#include "reporters/block_trace_text.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace elevbench {
namespace {

TEST(BlockTraceTextTest, TheFixtureTracesSummaryInBothFormats) {
  BlockTrace t;
  std::string err;
  ASSERT_TRUE(ReadBlockTraceFile(testing::TestDataPath("fixtures/trace/small.trace"), &t, &err))
      << err;
  const BlockTraceSummary s = SummarizeBlockTrace(t);
  EXPECT_EQ(s.records, 400u);
  EXPECT_EQ(s.reads.ops + s.writes.ops, 400u);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].comm, "kworker/u8:1");  // the busiest first
  EXPECT_GT(s.SequentialShare(), 0.5);
  testing::ExpectMatchesGolden("trace_show.txt", RenderBlockTraceText(t.header, s));
  testing::ExpectMatchesGolden("trace_show.json", BlockTraceSummaryJson(t.header, s).dump(2));
}

TEST(BlockTraceTextTest, SequentialIsPerProcessAndDirection) {
  BlockTrace t;
  t.header.device_bytes = 1 << 30;
  t.header.duration_ns = 3000000000;
  t.records = {{0, 1, "a", BlockTraceOp::kRead, 0, 0, 8, -1},
               {1, 2, "b", BlockTraceOp::kRead, 0, 500, 8, -1},
               {2, 1, "a", BlockTraceOp::kRead, 0, 8, 8, -1},               // follows a's, not b's
               {2500000000, 2, "b", BlockTraceOp::kWrite, 0, 508, 8, -1}};  // another direction
  const BlockTraceSummary s = SummarizeBlockTrace(t);
  EXPECT_EQ(s.reads.sequential_ops, 1u);
  EXPECT_EQ(s.writes.sequential_ops, 0u);
  EXPECT_EQ(s.busiest_second, 0u);
  EXPECT_EQ(s.busiest_second_ops, 3u);
  EXPECT_EQ(s.SpanBytes(), 516u * 512);
}

}  // namespace
}  // namespace elevbench
