// The request matcher and its derived numbers: synthetic event sequences for each rule
// (scheduler path, direct issue, merges, partial completions, requeues, runs, seeks, phases,
// messages), and golden summaries of events recorded on the emulated disk
// (tests/fixtures/trace/).

#include "harness/trace/request_analysis.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "tests/test_util.h"

namespace elevbench {
namespace {

// One trace_pipe line of device 7,0 at `us` microseconds.
std::string EventLine(uint64_t us, int pid, const std::string& event, const std::string& payload) {
  char head[96];
  std::snprintf(head, sizeof head, "fio-%d [000] ..... %llu.%06llu: ", pid,
                static_cast<unsigned long long>(us / 1000000),
                static_cast<unsigned long long>(us % 1000000));
  return head + event + ": 7,0 " + payload;
}

std::string Rq(const std::string& rwbs, uint64_t sector, uint32_t n) {
  return rwbs + " " + std::to_string(n * 512) + " () " + std::to_string(sector) + " + " +
         std::to_string(n) + " be,0,4 [fio]";
}
std::string Bio(const std::string& rwbs, uint64_t sector, uint32_t n) {
  return rwbs + " " + std::to_string(sector) + " + " + std::to_string(n) + " [fio]";
}
std::string Done(const std::string& rwbs, uint64_t sector, uint32_t n) {
  return rwbs + " () " + std::to_string(sector) + " + " + std::to_string(n) + " be,0,4 [0]";
}

RequestTraceSummary Analyse(const std::vector<std::string>& lines) {
  RequestAnalyzer a(7, 0);
  for (const std::string& l : lines) a.AddLine(l);
  return a.Finish();
}

TEST(RequestAnalysisTest, SchedulerPathSplitsQ2CIntoI2DAndD2C) {
  const RequestTraceSummary s = Analyse({
      EventLine(1000, 10, "block_bio_queue", Bio("R", 0, 8)),
      EventLine(1100, 10, "block_rq_insert", Rq("R", 0, 8)),
      EventLine(1600, 10, "block_rq_issue", Rq("R", 0, 8)),
      EventLine(9600, 0, "block_rq_complete", Done("R", 0, 8)),
  });
  ASSERT_EQ(s.all.read.record.requests, 1u);
  EXPECT_EQ(s.all.read.record.bytes, 4096u);
  EXPECT_EQ(s.all.read.q2c.mean_ns(), 8600000.0);
  EXPECT_EQ(s.all.read.i2d.mean_ns(), 500000.0);
  EXPECT_EQ(s.all.read.d2c.mean_ns(), 8000000.0);
  EXPECT_EQ(s.all.read.record.direct_issues, 0u);
  EXPECT_EQ(s.all.write.record.requests, 0u);
  ASSERT_EQ(s.processes.count(10), 1u);
  EXPECT_EQ(s.processes.at(10).second.read.record.requests, 1u);
  EXPECT_EQ(s.record.parse_errors, 0u);
}

// Under none a request goes to the driver without an insert: counted apart, no scheduler time.
TEST(RequestAnalysisTest, DirectIssueHasNoSchedulerTime) {
  const RequestTraceSummary s = Analyse({
      EventLine(1000, 10, "block_bio_queue", Bio("R", 64, 8)),
      EventLine(1200, 10, "block_rq_issue", Rq("R", 64, 8)),
      EventLine(2200, 0, "block_rq_complete", Done("R", 64, 8)),
  });
  ASSERT_EQ(s.all.read.record.requests, 1u);
  EXPECT_EQ(s.all.read.record.direct_issues, 1u);
  EXPECT_EQ(s.all.read.i2d.mean_ns(), 0.0);
  EXPECT_EQ(s.all.read.q2c.mean_ns(), 1200000.0);
}

// Bios merged into a request count as merges; the request's queue time is its first bio's, and
// two inserted requests merged before the issue are one request to the device.
TEST(RequestAnalysisTest, MergesKeepTheFirstQueueTime) {
  const RequestTraceSummary s = Analyse({
      EventLine(1000, 10, "block_bio_queue", Bio("W", 0, 8)),
      EventLine(1010, 10, "block_bio_queue", Bio("W", 8, 8)),
      EventLine(1011, 10, "block_bio_backmerge", Bio("W", 8, 8)),
      EventLine(1100, 10, "block_rq_insert", Rq("W", 0, 16)),
      EventLine(1200, 11, "block_bio_queue", Bio("W", 16, 8)),
      EventLine(1300, 11, "block_rq_insert", Rq("W", 16, 8)),
      EventLine(1400, 11, "block_rq_merge", Rq("W", 16, 8)),
      EventLine(2000, 10, "block_rq_issue", Rq("W", 0, 24)),
      EventLine(5000, 0, "block_rq_complete", Done("W", 0, 24)),
  });
  ASSERT_EQ(s.all.write.record.requests, 1u);
  EXPECT_EQ(s.all.write.record.bytes, 24u * 512);
  EXPECT_EQ(s.all.write.record.merges, 2u);
  EXPECT_EQ(s.all.write.q2c.mean_ns(), 4000000.0);  // from the first bio at 1000 us
  EXPECT_EQ(s.all.write.i2d.mean_ns(), 900000.0);   // from the first insert at 1100 us
  EXPECT_EQ(s.all.write.record.dispatches, 1u);
  EXPECT_EQ(s.record.queued->max, 2u);
}

// A partial completion leaves the rest outstanding; the request completes with its last part.
TEST(RequestAnalysisTest, PartialCompletionsAndRequeues) {
  const RequestTraceSummary s = Analyse({
      EventLine(1000, 10, "block_bio_queue", Bio("R", 0, 16)),
      EventLine(1000, 10, "block_rq_insert", Rq("R", 0, 16)),
      EventLine(2000, 10, "block_rq_issue", Rq("R", 0, 16)),
      EventLine(2500, 0, "block_rq_requeue", Done("R", 0, 16)),
      EventLine(3000, 10, "block_rq_issue", Rq("R", 0, 16)),
      EventLine(4000, 0, "block_rq_complete", Done("R", 0, 8)),
      EventLine(6000, 0, "block_rq_complete", Done("R", 8, 8)),
  });
  EXPECT_EQ(s.all.read.record.requeues, 1u);
  EXPECT_EQ(s.all.read.record.requests, 1u);  // one request, done when its last part is
  EXPECT_EQ(s.all.read.record.bytes, 16u * 512);
  EXPECT_EQ(s.all.read.d2c.max_ns(), 3000000u);  // from the second issue at 3000 us to 6000
  EXPECT_EQ(s.all.read.record.dispatches, 2u);
}

// Dispatch runs are consecutive dispatches of one process; a seek is a dispatch that does not
// start where the previous one ended.
TEST(RequestAnalysisTest, DispatchRunsAndSeeks) {
  std::vector<std::string> lines;
  uint64_t t = 1000;
  const auto issue = [&](int pid, uint64_t sector) {
    lines.push_back(EventLine(t++, pid, "block_bio_queue", Bio("R", sector, 8)));
    lines.push_back(EventLine(t++, pid, "block_rq_insert", Rq("R", sector, 8)));
    lines.push_back(EventLine(t++, pid, "block_rq_issue", Rq("R", sector, 8)));
    lines.push_back(EventLine(t++, 0, "block_rq_complete", Done("R", sector, 8)));
  };
  issue(10, 0);
  issue(10, 8);
  issue(10, 16);
  issue(11, 1000);
  issue(10, 24);
  const RequestTraceSummary s = Analyse(lines);
  EXPECT_EQ(s.all.read.record.dispatches, 5u);
  EXPECT_EQ(s.all.read.record.dispatch_run_lengths, (std::map<uint64_t, uint64_t>{{1, 2}, {3, 1}}));
  EXPECT_DOUBLE_EQ(s.all.read.MeanDispatchRun(), 5.0 / 3);
  EXPECT_EQ(s.all.read.seeks, 2u);  // 24 -> 1000 and 1008 -> 24
  EXPECT_EQ(s.all.read.seek_distance.count(), 4u);
  EXPECT_DOUBLE_EQ(s.all.read.seek_sectors_sum, 976.0 + 984.0);
  EXPECT_EQ(s.processes.at(10).second.read.record.dispatch_run_lengths,
            (std::map<uint64_t, uint64_t>{{1, 1}, {3, 1}}));
}

TEST(RequestAnalysisTest, PhasesFromMarkers) {
  const RequestTraceSummary s = Analyse({
      "elevbench-1 [000] ...1. 0.000500: tracing_mark_write: elevbench phase seq_write",
      EventLine(1000, 10, "block_bio_queue", Bio("W", 0, 8)),
      EventLine(1100, 10, "block_rq_issue", Rq("W", 0, 8)),
      EventLine(1200, 0, "block_rq_complete", Done("W", 0, 8)),
      "elevbench-1 [000] ...1. 0.002000: tracing_mark_write: elevbench phase seq_read",
      EventLine(3000, 10, "block_bio_queue", Bio("R", 0, 8)),
      EventLine(3100, 10, "block_rq_issue", Rq("R", 0, 8)),
      EventLine(3200, 0, "block_rq_complete", Done("R", 0, 8)),
      "elevbench-1 [000] ...1. 0.004000: tracing_mark_write: elevbench cell cell002-",
  });
  ASSERT_EQ(s.phases.size(), 2u);
  EXPECT_EQ(s.phases[0].first, "seq_write");
  EXPECT_EQ(s.phases[0].second.write.record.requests, 1u);
  EXPECT_EQ(s.phases[0].second.read.record.requests, 0u);
  EXPECT_EQ(s.phases[1].first, "seq_read");
  EXPECT_EQ(s.phases[1].second.read.record.requests, 1u);
}

TEST(RequestAnalysisTest, OtherDevicesAndBrokenLinesAreCountedNotFatal) {
  const RequestTraceSummary s = Analyse({
      "fio-1 [000] ..... 1.000000: block_bio_queue: 8,0 R 0 + 8 [fio]",
      "a broken line",
      EventLine(1000, 10, "block_rq_issue", Rq("R", 0, 8)),
  });
  EXPECT_EQ(s.record.events, 1u);
  EXPECT_EQ(s.record.parse_errors, 1u);
  EXPECT_EQ(s.record.first_parse_error, "not a trace line (no TASK-PID [CPU])");
}

TEST(RequestAnalysisTest, SchedulerMessageKinds) {
  std::string queue;
  EXPECT_EQ(SchedulerMessageKind("bfq6601S expire (4, slow 0, num_disp 3, short_ttime 1)", &queue),
            "expire:preempted");
  EXPECT_EQ(queue, "6601S");
  EXPECT_EQ(SchedulerMessageKind("bfq arm idle: 8/8 ms", &queue), "idle_armed");
  EXPECT_EQ(queue, "");
  EXPECT_EQ(SchedulerMessageKind("bfq77S merging with queue 78", &queue), "queue_merge");
  EXPECT_EQ(SchedulerMessageKind("bfq77S scheduling merge with queue 78", &queue),
            "merge_scheduled");
  EXPECT_EQ(SchedulerMessageKind("bfq77S set_in_service_queue, cur-budget = 1024", &queue),
            "set_in_service_queue");
  EXPECT_EQ(SchedulerMessageKind("bfq rq_pos_tree_lookup 72000: returning 0", &queue),
            "rq_pos_tree_lookup");
  EXPECT_EQ(SchedulerMessageKind("bfq0A new_ioprio 4 new_weight 40", &queue), "new_ioprio");
}

std::string FixtureSummary(const std::vector<std::string>& files) {
  RequestAnalyzer a(7, 8);
  for (const std::string& name : files) {
    std::ifstream in(std::string(ELEVBENCH_TEST_DATA_DIR) + "/fixtures/trace/" + name);
    EXPECT_TRUE(in.good()) << name;
    for (std::string line; std::getline(in, line);) a.AddLine(line);
  }
  return a.Finish().ToJson().dump(1) + "\n";
}

// Events recorded on the emulated ide-2003 disk: two streaming readers under bfq
// (low_latency=0, with its log) and under mq-deadline.
TEST(RequestAnalysisTest, GoldenSummariesOfRecordedEvents) {
  testing::ExpectMatchesGolden(
      "request_trace_bfq.json",
      FixtureSummary({"bfq_two_readers.trace", "bfq_two_readers.messages"}));
  testing::ExpectMatchesGolden("request_trace_deadline.json",
                               FixtureSummary({"deadline_two_readers.trace"}));
}

}  // namespace
}  // namespace elevbench
