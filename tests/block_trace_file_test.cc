// The block trace file format: what capture writes, replay and trace show read back.

#include "harness/trace/block_trace_file.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace elevbench {
namespace {

BlockTrace SampleTrace() {
  BlockTrace t;
  t.header.device = "loop9";
  t.header.device_bytes = 1 << 30;
  t.header.logical_block_bytes = 512;
  t.header.kernel = "6.18.0";
  t.header.scheduler = "mq-deadline";
  t.header.duration_ns = 2000000;
  t.header.captured_at = "2026-12-02T12:00:00Z";
  t.header.source = "emulated ide-2003, ext4: tar xf x.tar";
  t.header.command = {"tar", "xf", "x.tar"};
  t.records = {{10, 42, "tar", BlockTraceOp::kRead, kTraceSync | kTraceMeta, 2048, 8, 5000},
               {20, 7, "kworker/u8:2", BlockTraceOp::kWrite, 0, 4096, 256, -1},
               {30, 8, "jbd2 loop9", BlockTraceOp::kWrite, kTracePreflush | kTraceFua, 64, 8, 9},
               {40, 8, "%odd", BlockTraceOp::kFlush, 0, 0, 0, -1}};
  return t;
}

TEST(BlockTraceFileTest, RoundTripsEveryFieldExactly) {
  const BlockTrace t = SampleTrace();
  const std::string text = RenderBlockTrace(t);
  BlockTrace back;
  std::string err;
  ASSERT_TRUE(ParseBlockTrace(text, &back, &err)) << err;
  EXPECT_EQ(RenderBlockTrace(back), text);
  ASSERT_EQ(back.records.size(), 4u);
  EXPECT_EQ(back.records[2].comm, "jbd2 loop9");
  EXPECT_EQ(back.records[3].comm, "%odd");
  EXPECT_EQ(back.records[0].latency_ns, 5000);
  EXPECT_EQ(back.records[1].latency_ns, -1);
  EXPECT_EQ(back.header.command, t.header.command);
  testing::ExpectMatchesGolden("block_trace_v1.trace", text);
}

TEST(BlockTraceFileTest, RefusesEverythingButAWholeTraceWithOneLine) {
  const std::string good = RenderBlockTrace(SampleTrace());
  const size_t end = good.rfind("end ");
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const struct {
    std::string text;
    const char* needle;
  } kCases[] = {
      {"", "empty"},
      {"root:x:0:0:root:/root:/bin/bash\n", "not an elevbench block trace"},
      {replace("trace 1", "trace 3"), "version 3 is not supported"},
      {replace("trace 1", "trace 2"), "header dirtiers: expected an array"},
      {good.substr(0, end), "truncated"},
      {good.substr(0, good.find('\n') + 1), "truncated"},
      {replace("end 4", "end 5"), "'end' count"},
      {replace("\"records\":4", "\"records\":3"), "more records"},
      {replace("\"kernel\":\"6.18.0\"", "\"kernel\":5"), "header kernel"},
      {replace("\"device_bytes\":1073741824", "\"device_bytes\":1.5"), "device_bytes"},
      {replace("10 42 tar", "100 42 tar"), "backwards"},
      {replace("R SM 2048 8", "R SMX 2048 8"), "flags"},
      {replace("R SM 2048 8 5000", "R SM 2048 8"), "latency_ns"},
      {replace("R SM 2048 8", "R SM 2097151 8"), "past the end"},
      {replace("F - 0 0", "F - 0 8"), "flush"},
      {replace("R SM", "Q SM"), "op"},
      {good + "junk\n", "after the 'end'"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.needle);
    BlockTrace out;
    std::string err;
    EXPECT_FALSE(ParseBlockTrace(c.text, &out, &err));
    EXPECT_NE(err.find(c.needle), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

// #44 §2: a capture that traced writeback says whose pages each write wrote (version 2); one
// that did not stays version 1, which older elevbench reads.
TEST(BlockTraceFileTest, AWritebackTraceIsVersionTwoWithOwnersAndDirtiers) {
  BlockTrace t = SampleTrace();
  t.header.writeback_traced = true;
  t.header.dirtiers = {{4250, "dd", 472, 1000, 2000000, 1500000}, {4251, "head bytes", 32, 5, 9}};
  t.records[1].owner = 4250;
  const std::string text = RenderBlockTrace(t);
  EXPECT_EQ(text.rfind("elevbench block trace 2\n", 0), 0u) << text;
  BlockTrace back;
  std::string err;
  ASSERT_TRUE(ParseBlockTrace(text, &back, &err)) << err;
  EXPECT_EQ(RenderBlockTrace(back), text);
  EXPECT_TRUE(back.header.writeback_traced);
  EXPECT_EQ(back.header.dirtiers, t.header.dirtiers);
  EXPECT_EQ(back.records[1].owner, 4250);
  EXPECT_EQ(back.records[0].owner, 0);
  testing::ExpectMatchesGolden("block_trace_v2.trace", text);
  // Journal handle starts, when the capture had them, round-trip; descending times are refused.
  BlockTrace with = t;
  with.header.journal_handles = {{4251, {5, 900}, {}, {}, 0}};
  const std::string handled = RenderBlockTrace(with);
  ASSERT_TRUE(ParseBlockTrace(handled, &back, &err)) << err;
  EXPECT_EQ(back.header.journal_handles, with.header.journal_handles);
  // With the inodes and the buffers they changed (the capture's debugfs), both round-trip; a
  // list of another length than the handles' is refused.
  with.header.journal_handles = {{4251, {5, 900}, {12, 0}, {2200, -1}, 4096}};
  const std::string buffered = RenderBlockTrace(with);
  ASSERT_TRUE(ParseBlockTrace(buffered, &back, &err)) << err;
  EXPECT_EQ(back.header.journal_handles, with.header.journal_handles);
  std::string short_list = buffered;
  short_list.replace(short_list.find("[2200,-1]"), 9, "[2200]");
  EXPECT_FALSE(ParseBlockTrace(short_list, &back, &err));
  EXPECT_NE(err.find("one number a handle"), std::string::npos) << err;
  std::string descending = handled;
  descending.replace(descending.find("[5,900]"), 7, "[900,5]");
  EXPECT_FALSE(ParseBlockTrace(descending, &back, &err));
  EXPECT_NE(err.find("header journal_handles"), std::string::npos) << err;
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string s = text;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  for (const auto& [bad, needle] : std::vector<std::pair<std::string, std::string>>{
           {replace(" - 4250\n", " - 0\n"), "owner: expected - or a pid"},
           {replace(" - 4250\n", " - dd\n"), "owner: expected - or a pid"},
           {replace(" - 4250\n", " - 4250 7\n"), "more than 9 fields"},
           {replace("\"pid\":4251", "\"pid\":0"), "header dirtiers"},
           {replace("\"folios\":32", "\"folios\":-2"), "header dirtiers"}}) {
    SCOPED_TRACE(needle);
    EXPECT_FALSE(ParseBlockTrace(bad, &back, &err));
    EXPECT_NE(err.find(needle), std::string::npos) << err;
  }
}

TEST(BlockTraceFileTest, RwbsBecomesOperationAndFlags) {
  const struct {
    const char* rwbs;
    uint32_t sectors;
    bool ok;
    BlockTraceOp op;
    uint8_t flags;
  } kCases[] = {
      {"RS", 8, true, BlockTraceOp::kRead, kTraceSync},
      {"RA", 8, true, BlockTraceOp::kRead, kTraceAhead},
      {"WM", 8, true, BlockTraceOp::kWrite, kTraceMeta},
      {"FWFS", 8, true, BlockTraceOp::kWrite, kTracePreflush | kTraceFua | kTraceSync},
      {"FWS", 0, true, BlockTraceOp::kFlush, kTraceSync},
      {"DS", 16, true, BlockTraceOp::kDiscard, kTraceSync},
      {"FF", 0, false, BlockTraceOp::kRead, 0},
      {"N", 0, false, BlockTraceOp::kRead, 0},
      {"W", 0, false, BlockTraceOp::kRead, 0},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.rwbs);
    BlockTraceOp op = BlockTraceOp::kRead;
    uint8_t flags = 0;
    EXPECT_EQ(BlockTraceOpFromRwbs(c.rwbs, c.sectors, &op, &flags), c.ok);
    if (!c.ok) continue;
    EXPECT_EQ(op, c.op);
    EXPECT_EQ(flags, c.flags);
  }
}

TEST(BlockTraceFileTest, CommsWithBlanksAndControlBytesStayOneField) {
  EXPECT_EQ(EscapeTraceComm("jbd2 loop9"), "jbd2%20loop9");
  EXPECT_EQ(EscapeTraceComm("a%b\n"), "a%25b%0A");
  EXPECT_EQ(EscapeTraceComm(""), "%3F");
}

TEST(BlockTraceFileTest, TheCommittedFixtureReads) {
  BlockTrace t;
  std::string err;
  ASSERT_TRUE(ReadBlockTraceFile(testing::TestDataPath("fixtures/trace/small.trace"), &t, &err))
      << err;
  EXPECT_EQ(t.records.size(), 400u);
}

}  // namespace
}  // namespace elevbench
