// `run fio`'s aggregation of its records into the report's tables (the suite's part; the
// reporter's layout is checked against tests/golden/fiojobs_report.txt in replay_text_test.cc).

#include "scenarios/fiojobs/fiojobs_aggregate.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

// A record of `file` under `id` with one job per (name, MB/s) pair, each reading for 2 s in
// 1 MB I/Os (so its IOPS equal its MB/s) of `ms` milliseconds each.
FioJobsRecord AggregateTestRecord(const std::string& file, const std::string& id,
                                  const std::vector<std::pair<std::string, uint64_t>>& jobs,
                                  uint64_t ms) {
  FioJobsRecord r;
  r.identifier = r.scheduler = id;
  r.job_file = file;
  for (const auto& [name, mb_s] : jobs) {
    JobResult j;
    j.name = name;
    j.read.ios = 2 * mb_s;
    j.read.bytes = j.read.ios * (1 << 20);  // 1 MiB each: MB/s (MiB/s) equals IOPS
    j.read.runtime_seconds = 2;
    j.read.clat.Record(ms * 1000000, j.read.ios);
    r.jobs.push_back(j);
  }
  return r;
}

TEST(FioJobsAggregateTest, TablesPerJobFileRowsByJobThenConfigurationOrder) {
  const std::vector<FioJobsRecord> records = {
      AggregateTestRecord("b.fio", "k-none", {{"zeta", 10}, {"alpha", 20}}, 1),
      AggregateTestRecord("a.fio", "k-dl", {{"one", 5}}, 1),
      AggregateTestRecord("b.fio", "k-dl", {{"zeta", 30}, {"alpha", 40}}, 1)};
  const std::vector<FioJobsTable> tables = AggregateFioJobsTables(records, {"k-dl", "k-none"});
  ASSERT_EQ(tables.size(), 2u);
  EXPECT_EQ(tables[0].job_file, "b.fio");  // first appearance, not name order
  EXPECT_EQ(tables[1].job_file, "a.fio");
  std::vector<std::string> order;
  for (const FioJobsRow& row : tables[0].rows) {
    order.push_back(row.job + " " + row.configuration + " " + row.direction);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"alpha k-dl read", "alpha k-none read",
                                             "zeta k-dl read", "zeta k-none read"}));
  ASSERT_EQ(tables[1].rows.size(), 1u);
  EXPECT_EQ(tables[1].rows[0].configuration, "k-dl");
}

TEST(FioJobsAggregateTest, RepetitionsAsHarmonicMeansWithMergedLatencies) {
  const std::vector<FioJobsRecord> records = {
      AggregateTestRecord("a.fio", "k-dl", {{"read", 10}}, 2),
      AggregateTestRecord("a.fio", "k-dl", {{"read", 40}}, 8),
      AggregateTestRecord("a.fio", "k-other", {{"read", 10}}, 2)};
  const std::vector<FioJobsTable> tables = AggregateFioJobsTables(records, {"k-dl"});
  ASSERT_EQ(tables.size(), 1u);
  ASSERT_EQ(tables[0].rows.size(), 1u);  // only the configurations asked for; no write row
  const FioJobsRow& row = tables[0].rows[0];
  EXPECT_EQ(row.direction, "read");
  EXPECT_DOUBLE_EQ(row.mb_s, 16.0);  // 2 / (1/10 + 1/40)
  EXPECT_DOUBLE_EQ(row.iops, 16.0);
  EXPECT_EQ(row.clat.count(), 100u);
}

}  // namespace
}  // namespace elevbench
