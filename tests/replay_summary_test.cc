#include "scenarios/replay/replay_summary.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

ReplayRecord Cell(const std::string& id, double seconds, uint64_t bytes, double lag_p99_ms,
                  bool exact) {
  ReplayRecord r;
  r.identifier = id;
  r.replay_seconds = seconds;
  r.replayed_bytes = bytes;
  r.trace_bytes = exact ? bytes : bytes + 4096;
  r.lag_measured = true;
  r.lag_p99_ms = lag_p99_ms;
  r.keeps_time = lag_p99_ms < 10;
  ReplayProcess p;
  p.pid = 7;
  p.comm = "tar";
  p.first_lag_ms = lag_p99_ms / 2;
  p.kernel_read.Record(static_cast<uint64_t>(seconds * 1e6));
  p.job.read.clat.Record(static_cast<uint64_t>(seconds * 2e6));
  r.processes.push_back(p);
  return r;
}

// Each configuration's repetitions are combined (means, the worst lag, every bio merged), the
// processes merged per configuration and direction, and the exact cells counted: what the
// replay table prints, aggregated in the suite rather than in its reporter.
TEST(ReplaySummaryTest, RepetitionsCombinedPerConfigurationAndProcess) {
  const std::vector<ReplayRecord> records = {Cell("dl", 1.0, 2 << 20, 4, true),
                                             Cell("bfq", 2.0, 2 << 20, 12, false),
                                             Cell("dl", 3.0, 2 << 20, 6, true)};
  const ReplaySummary s = SummarizeReplay(records, {"bfq", "dl", "none"});
  ASSERT_EQ(s.configurations.size(), 2u);
  EXPECT_EQ(s.configurations[0].identifier, "bfq");
  const ReplayConfigurationSummary& dl = s.configurations[1];
  EXPECT_DOUBLE_EQ(dl.seconds, 2.0);
  EXPECT_DOUBLE_EQ(dl.mb_s, (2.0 + 2.0 / 3.0) / 2);
  EXPECT_DOUBLE_EQ(dl.lag_p99_ms, 6);
  EXPECT_TRUE(dl.kept_time);
  EXPECT_FALSE(s.configurations[0].kept_time);
  EXPECT_EQ(dl.reads.count(), 2u);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[1].job, "p7_tar");
  EXPECT_EQ(s.processes[1].configuration, "dl");
  EXPECT_EQ(s.processes[1].latency.count(), 2u);
  EXPECT_EQ(s.exact_cells, 2u);
  EXPECT_DOUBLE_EQ(s.latest_first_lag_ms, 6);
  EXPECT_DOUBLE_EQ(SummarizeReplay({}, {"dl"}).latest_first_lag_ms, -1);
}

// A process that read and was held back as a dirtier is two jobs (its reads at their times, its
// page cache writes as a buffered writer): two rows with their own spans, not one merged row.
TEST(ReplaySummaryTest, AReaderThatIsAlsoABufferedWriterKeepsTwoRows) {
  ReplayRecord r = Cell("dl", 1.0, 2 << 20, 4, true);
  r.processes[0].job.name = "p7_tar";
  r.processes[0].replay_span_seconds = 1.0;
  ReplayProcess writer;
  writer.pid = 7;
  writer.comm = "tar";
  writer.replayed_as = "buffered_writer";
  writer.job.name = "p7_tar_pagecache";
  writer.replay_span_seconds = 5.0;
  writer.kernel_write.Record(2000000);
  writer.job.write.clat.Record(2000000);
  r.processes.push_back(writer);
  const ReplaySummary s = SummarizeReplay({r}, {"dl"});
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].job, "p7_tar");
  EXPECT_DOUBLE_EQ(s.processes[0].span_seconds, 1.0);
  EXPECT_EQ(s.processes[1].job, "p7_tar_pagecache");
  EXPECT_DOUBLE_EQ(s.processes[1].span_seconds, 5.0);
  ASSERT_EQ(s.writers.size(), 1u);
  EXPECT_EQ(s.writers[0].job, "p7_tar_pagecache");
}

}  // namespace
}  // namespace elevbench
