// The program's processes found from a trace's fork lines, and its bios timed by the kernel.

#include "scenarios/command/program_bios.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(ProgramBiosTest, DescendantsOfTheForkingThread) {
  const char kText[] =
      "  elevbench-100 [001] ..... 1.0: sched_process_fork: comm=elevbench pid=100 "
      "child_comm=elevbench child_pid=200\n"
      "        sh-200 [000] ..... 1.1: sched_process_fork: comm=sh pid=200 child_comm=sh "
      "child_pid=201\n"
      "       fio-300 [000] ..... 1.2: sched_process_fork: comm=fio pid=300 child_comm=fio "
      "child_pid=301\n"
      "  my prog-201 [000] ..... 1.3: sched_process_fork: comm=my prog pid=201 child_comm=my "
      "prog child_pid=202\n"
      "        dd-201 [000] ..... 1.4: block_bio_queue: 254,0 W 8 + 8 [dd]\n";
  EXPECT_EQ(DescendantsInTrace(kText, 100), (std::set<int32_t>{200, 201, 202}));
  EXPECT_EQ(DescendantsInTrace(kText, 300), (std::set<int32_t>{301}));
  EXPECT_TRUE(DescendantsInTrace(kText, 999).empty());
  EXPECT_TRUE(DescendantsInTrace("", 100).empty());
}

TEST(ProgramBiosTest, OnlyTheProgramsBiosAreTimed) {
  std::vector<BlockTraceRecord> records(4);
  records[0].pid = 201;
  records[0].op = BlockTraceOp::kRead;
  records[0].latency_ns = 2'000'000;
  records[1].pid = 202;
  records[1].op = BlockTraceOp::kWrite;
  records[1].latency_ns = 5'000'000;
  records[2].pid = 301;  // the load's
  records[2].latency_ns = 9'000'000;
  records[3].pid = 201;
  records[3].op = BlockTraceOp::kFlush;  // no completion of its own
  const ProgramBios b = ProgramBiosOf(records, {200, 201, 202});
  EXPECT_EQ(b.bios, 3u);
  EXPECT_EQ(b.untimed, 1u);
  EXPECT_EQ(b.read.count(), 1u);
  EXPECT_EQ(b.read.max_ns(), 2'000'000u);
  EXPECT_EQ(b.write.count(), 1u);
  EXPECT_EQ(ProgramTraceEvents().back(), "sched/sched_process_fork");
}

}  // namespace
}  // namespace elevbench
