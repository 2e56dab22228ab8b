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

// #44 §2: a version 2 trace names its buffered writers and the writes of their pages, which
// the flusher queued; a version 1 trace says nothing of them (JSON null: unknown, not none).
TEST(BlockTraceTextTest, BufferedWritersAreListedWithTheWritesOfTheirPages) {
  BlockTrace t;
  t.header.device = "loop9";
  t.header.device_bytes = 1 << 30;
  t.header.logical_block_bytes = 512;
  t.header.duration_ns = 3000000000;
  t.records = {{0, 91, "kworker/u8:3", BlockTraceOp::kWrite, 0, 0, 2048, -1, 4250},
               {1, 91, "kworker/u8:3", BlockTraceOp::kWrite, 0, 2048, 2048, -1, 4250},
               {2, 77, "jbd2/loop9-8", BlockTraceOp::kWrite, kTraceSync, 9000, 8, -1},
               {3, 4300, "cat", BlockTraceOp::kRead, 0, 50000, 256, -1}};
  BlockTraceSummary s = SummarizeBlockTrace(t);
  EXPECT_TRUE(s.buffered_writers.empty());
  EXPECT_EQ(RenderBlockTraceText(t.header, s).find("buffered writers"), std::string::npos);
  EXPECT_TRUE(BlockTraceSummaryJson(t.header, s)["buffered_writers"].is_null());
  t.header.writeback_traced = true;
  t.header.version = 2;
  t.header.dirtiers = {{4250, "dd", 472, 1000000, 2100000000, 1700000000}, {4251, "head", 8, 5, 9}};
  s = SummarizeBlockTrace(t);
  ASSERT_EQ(s.buffered_writers.size(), 2u);
  EXPECT_EQ(s.buffered_writers[0].writes, 2u);
  EXPECT_EQ(s.buffered_writers[0].bytes, 2u * 2048 * 512);
  EXPECT_EQ(s.buffered_writers[1].writes, 0u);  // its pages not written back while traced
  testing::ExpectMatchesGolden("trace_show_writeback.txt", RenderBlockTraceText(t.header, s));
  EXPECT_EQ(BlockTraceSummaryJson(t.header, s)["buffered_writers"][0]["bytes"], 2097152u);
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

// A process's row adds up: every bio is a read, a write, a discard or a flush, each with its
// column (issue 45: flushes were counted in bios and had no column).
TEST(BlockTraceTextTest, ProcessRowsAddUp) {
  BlockTrace t;
  t.header.device_bytes = 1 << 30;
  t.header.duration_ns = 1000000000;
  t.records = {{0, 7, "jbd2", BlockTraceOp::kWrite, 0, 0, 8, -1},
               {1, 7, "jbd2", BlockTraceOp::kFlush, 0, 0, 0, -1},
               {2, 7, "jbd2", BlockTraceOp::kDiscard, 0, 64, 8, -1},
               {3, 7, "jbd2", BlockTraceOp::kFlush, 0, 0, 0, -1}};
  const BlockTraceSummary s = SummarizeBlockTrace(t);
  ASSERT_EQ(s.processes.size(), 1u);
  const TraceProcessSummary& p = s.processes[0];
  EXPECT_EQ(p.ops, 4u);
  EXPECT_EQ(p.reads + p.writes + p.discards + p.flushes, p.ops);
  EXPECT_EQ(p.flushes, 2u);
  const std::string text = RenderBlockTraceText(t.header, s);
  EXPECT_NE(text.find("bios      reads     writes   discards    flushes         MB\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("jbd2                  4          0          1          1          2"),
            std::string::npos)
      << text;
  const nlohmann::json j = BlockTraceSummaryJson(t.header, s);
  EXPECT_EQ(j["processes"][0]["flushes"], 2);
}

}  // namespace
}  // namespace elevbench
