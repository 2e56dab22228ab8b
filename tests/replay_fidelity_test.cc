#include "scenarios/replay/replay_fidelity.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

ReplayRecord Cell(const std::string& scheduler, double replay_seconds, uint64_t read_ns) {
  ReplayRecord r;
  r.scheduler = scheduler;
  r.identifier = scheduler;
  r.lag_measured = true;
  r.trace_span_seconds = 0.5;
  r.replay_seconds = replay_seconds;
  ReplayProcess tar;
  tar.pid = 12;
  tar.comm = "tar";
  tar.trace_read_p50_ms = 5;
  tar.kernel_read.Record(read_ns);
  ReplayProcess flusher;  // wrote only: no read figure
  flusher.pid = 7;
  flusher.comm = "kworker";
  r.processes = {tar, flusher};
  return r;
}

TEST(ReplayFidelityTest, TheMedianSpanUnderTheCapturesSchedulerAgainstTheTracedSpan) {
  const std::vector<ReplayRecord> records = {
      Cell("none", 0.60, 6000000), Cell("bfq", 9.0, 90000000), Cell("none", 0.50, 6000000),
      Cell("none", 0.55, 6000000)};
  const ReplayFidelity f = FidelityOf(records, "none");
  EXPECT_EQ(f.problem, "");
  EXPECT_EQ(f.cells, 3u);
  EXPECT_DOUBLE_EQ(f.replay_span_seconds, 0.55);  // bfq's cell is not the capture's scheduler
  EXPECT_DOUBLE_EQ(f.span_ratio, 1.1);
  ASSERT_EQ(f.reads.size(), 1u);
  EXPECT_EQ(f.reads[0].process, "p12_tar");
  EXPECT_NEAR(f.reads[0].ratio, 1.2, 0.02);  // histogram buckets: within their resolution
  EXPECT_EQ(FidelityLine(f).rfind("Fidelity under none (the capture's scheduler): the replay "
                                  "took 1.10× the traced span (0.550 s against 0.500 s, median "
                                  "of 3 cells); reads p50: p12_tar 1.",
                                  0),
            0u)
      << FidelityLine(f);
  EXPECT_EQ(FidelityToJson(f)["span_ratio"], 1.1);
}

TEST(ReplayFidelityTest, SaysWhyWhenItCannotMeasure) {
  std::vector<ReplayRecord> records = {Cell("bfq", 1, 1000000)};
  EXPECT_EQ(FidelityLine(FidelityOf(records, "none")),
            "Fidelity under none: not measured: the capture ran under none, which is not among "
            "the configurations");
  records[0].scheduler = "none";
  records[0].lag_measured = false;
  const ReplayFidelity f = FidelityOf(records, "none");
  EXPECT_NE(f.problem.find("not traced"), std::string::npos);
  EXPECT_EQ(FidelityToJson(f)["problem"], f.problem);
  // A cell that knows why its bios were not traced says so.
  records[0].lag_problem = "not root";
  EXPECT_EQ(FidelityOf(records, "none").problem, "the replays' bios were not traced: not root");
}

}  // namespace
}  // namespace elevbench
