// How a trace becomes fio jobs (one per process, iolog v2 with absolute waits) and how the
// lag is measured.

#include "scenarios/replay/replay_plan.h"

#include <gtest/gtest.h>

#include <set>

#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replay_lag.h"
#include "test_util.h"

namespace elevbench {
namespace {

BlockTrace ReplayTraceOf(std::vector<BlockTraceRecord> records) {
  BlockTrace t;
  t.header.device = "loop9";
  t.header.device_bytes = 1ULL << 30;
  t.header.duration_ns = 50000000;
  t.records = std::move(records);
  return t;
}

// A reader waiting for each read, a flusher with contiguous bios in flight together, a journal
// commit with a preflush and FUA, a flush.
BlockTrace MixedTrace() {
  return ReplayTraceOf({{1000000, 42, "cat", BlockTraceOp::kRead, kTraceSync, 2048, 8, 6000000},
                        {2000000, 7, "kworker/u8:2", BlockTraceOp::kWrite, 0, 10000, 8, 20000000},
                        {2010000, 7, "kworker/u8:2", BlockTraceOp::kWrite, 0, 10008, 8, 20000000},
                        {2020000, 7, "kworker/u8:2", BlockTraceOp::kWrite, 0, 50000, 8, 20000000},
                        {8000000, 42, "cat", BlockTraceOp::kRead, kTraceSync, 4096, 8, 6000000},
                        {9000000, 8, "jbd2/loop9-8", BlockTraceOp::kWrite,
                         kTracePreflush | kTraceFua | kTraceSync, 64, 8, 3000000},
                        {9500000, 8, "jbd2/loop9-8", BlockTraceOp::kFlush, kTraceSync, 0, 0, -1}});
}

TEST(ReplayPlanTest, OneJobPerProcessWithItsOwnIologAtTheRecordedTimes) {
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(PlanReplay(MixedTrace(), "/dev/loop20", 1ULL << 30, {}, &plan, &err)) << err;
  ASSERT_EQ(plan.jobs.size(), 3u);
  EXPECT_EQ(plan.trace_ops, 7u);
  EXPECT_EQ(plan.mapping.mode, "as recorded");
  const ReplayJob& cat = plan.jobs[0];
  EXPECT_EQ(cat.name, "p42_cat");
  EXPECT_EQ(cat.ioengine, "psync");  // one read in flight at a time
  // Held until 250 ms (fio's start-up) + the millisecond recorded, after fio's genesis.
  EXPECT_EQ(cat.iolog.rfind("fio version 2 iolog\n/dev/loop20 add\n/dev/loop20 open\n"
                            "/dev/loop20 wait 251 0\n/dev/loop20 read 1048576 4096\n",
                            0),
            0u)
      << cat.iolog;
  EXPECT_NE(cat.iolog.find("/dev/loop20 wait 258 0\n/dev/loop20 read 2097152 4096\n"),
            std::string::npos)
      << cat.iolog;
  EXPECT_EQ(cat.added_syncs, 0u);
  const ReplayJob& flusher = plan.jobs[1];
  EXPECT_EQ(flusher.ioengine, "libaio");  // three bios in flight together
  EXPECT_EQ(flusher.iodepth, 3u);
  EXPECT_EQ(flusher.ops, 3u);
  EXPECT_EQ(flusher.ios, 2u);  // the two contiguous ones were one plug-merged I/O
  // Both of its I/Os fall in the 2nd millisecond: one wait holds both.
  EXPECT_EQ(flusher.iolog.find(" wait "), flusher.iolog.rfind(" wait ")) << flusher.iolog;
  const ReplayJob& jbd2 = plan.jobs[2];
  EXPECT_EQ(jbd2.added_syncs, 1u);  // the preflush's
  EXPECT_EQ(jbd2.fua_writes, 1u);
  std::string all;
  for (const ReplayJob& j : plan.jobs) all += "; " + j.name + "\n" + j.iolog;
  testing::ExpectMatchesGolden("replay_iologs.txt", all);
}

TEST(ReplayPlanTest, AJournalIsAProcessWritingWithAPreflushOrFua) {
  EXPECT_TRUE(IsJournalCommit(BlockTraceOp::kWrite, kTracePreflush | kTraceSync));
  EXPECT_TRUE(IsJournalCommit(BlockTraceOp::kWrite, kTraceFua));
  EXPECT_FALSE(IsJournalCommit(BlockTraceOp::kWrite, kTraceSync | kTraceMeta));  // a log write
  EXPECT_FALSE(IsJournalCommit(BlockTraceOp::kFlush, kTracePreflush));           // no data
  EXPECT_FALSE(IsJournalCommit(BlockTraceOp::kRead, kTraceFua));
  EXPECT_EQ(JournalPids(MixedTrace()), (std::set<int32_t>{8}));  // jbd2, not the flusher or cat
}

TEST(ReplayPlanTest, OffsetsAreKeptShiftedScaledOrRefused) {
  const BlockTrace t = ReplayTraceOf({{0, 1, "a", BlockTraceOp::kRead, 0, 2000000, 8, -1},
                                      {10, 1, "a", BlockTraceOp::kRead, 0, 2000800, 8, -1}});
  ReplayMapping m;
  std::string err;
  ASSERT_TRUE(MapReplayOffsets(t, 2ULL << 30, ReplayFit::kAuto, &m, &err)) << err;
  EXPECT_EQ(m.mode, "as recorded");
  ASSERT_TRUE(MapReplayOffsets(t, 1ULL << 20, ReplayFit::kAuto, &m, &err)) << err;
  EXPECT_EQ(m.mode, "shifted");
  EXPECT_EQ(m.shift_bytes, 2000000LL * 512);
  EXPECT_FALSE(MapReplayOffsets(t, 300 * 1024, ReplayFit::kAuto, &m, &err));
  EXPECT_NE(err.find("more than the target's"), std::string::npos) << err;
  EXPECT_NE(err.find("--fit scale"), std::string::npos) << err;
  ASSERT_TRUE(MapReplayOffsets(t, 300 * 1024, ReplayFit::kScale, &m, &err)) << err;
  EXPECT_EQ(m.mode, "scaled");
  ReplayPlan plan;
  ASSERT_TRUE(PlanReplay(t, "/dev/x", 300 * 1024, {1, false, ReplayFit::kScale}, &plan, &err));
  for (const ReplayScheduled& s : plan.scheduled) EXPECT_LE(s.offset + s.bytes, 300u * 1024);
  EXPECT_FALSE(PlanReplay(t, "/dev/x", 1ULL << 30, {0, false, ReplayFit::kAuto}, &plan, &err));
}

TEST(ReplayPlanTest, SpeedScalesTheScheduleAndNoStallDropsIt) {
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(
      PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {2, false, ReplayFit::kAuto}, &plan, &err));
  EXPECT_NE(plan.jobs[0].iolog.find("\n/dev/x wait 254 0\n/dev/x read 2097152"), std::string::npos)
      << plan.jobs[0].iolog;  // recorded at 8 ms, due at 4
  EXPECT_DOUBLE_EQ(plan.duration_seconds, 0.025);
  ASSERT_TRUE(
      PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {1, true, ReplayFit::kAuto}, &plan, &err));
  for (const ReplayJob& j : plan.jobs) EXPECT_EQ(j.iolog.find(" wait "), std::string::npos);
  for (const ReplayScheduled& s : plan.scheduled) EXPECT_EQ(s.time_us, 0u);
}

// #31: a process whose records are all flushes (the capture's own syncfs, a journal thread)
// keeps one wait under --no-stall, so that fio 3.33 accepts its log (error 22 otherwise).
TEST(ReplayPlanTest, AFlushOnlyProcessKeepsOneWaitUnderNoStall) {
  BlockTrace t = MixedTrace();
  t.records.push_back({9600000, 9, "elevbench", BlockTraceOp::kFlush, 0, 0, 0, -1});
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(PlanReplay(t, "/dev/x", 1ULL << 30, {1, true, ReplayFit::kAuto}, &plan, &err)) << err;
  ASSERT_EQ(plan.jobs.size(), 4u);
  const ReplayJob& syncer = plan.jobs[3];
  EXPECT_TRUE(syncer.flush_only);
  EXPECT_EQ(syncer.iolog,
            "fio version 2 iolog\n/dev/x add\n/dev/x open\n/dev/x wait 250 0\n/dev/x sync 0 "
            "0\n/dev/x close\n");
  for (size_t i = 0; i < 3; ++i) EXPECT_FALSE(plan.jobs[i].flush_only) << i;
}

// The capture's span (first bio queued to last completed) and each process's read median: the
// yardsticks of a replay's fidelity (replay_fidelity.h).
TEST(ReplayPlanTest, TheTracedSpanAndEachProcesssReadMedian) {
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {}, &plan, &err)) << err;
  // From 1 ms to the kworker's last write completed at 2.02 + 20 ms.
  EXPECT_DOUBLE_EQ(plan.trace_span_seconds, 0.02102);
  EXPECT_DOUBLE_EQ(plan.jobs[0].trace_read_p50_ms, 6.0);  // cat
  EXPECT_DOUBLE_EQ(plan.jobs[1].trace_read_p50_ms, -1);   // the kworker did not read
  // Each process's own span: cat from 1 ms to its second read done at 8 + 6 ms; the kworker
  // from 2 ms to 2.02 + 20 ms; jbd2's flush (not timed) ends where it was queued.
  EXPECT_DOUBLE_EQ(plan.jobs[0].trace_span_seconds, 0.013);
  EXPECT_DOUBLE_EQ(plan.jobs[1].trace_span_seconds, 0.02002);
  EXPECT_DOUBLE_EQ(plan.jobs[2].trace_span_seconds, 0.003);
}

// #31 §2: the dependent replayer's steps. cat read, waited (6 ms), thought 1 ms and read again:
// its second read follows the first's completion. The flusher's third bio went while the first
// two were in flight: due at its time. jbd2's preflush write is a flush, then the write once the
// flush is done; its flush at 9.5 ms went while that write was in flight.
TEST(ReplayPlanTest, DependentStepsFollowThePredecessorsCompletionOrTheClock) {
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {}, &plan, &err)) << err;
  ASSERT_EQ(plan.jobs.size(), 3u);
  using S = ReplayStep;
  EXPECT_EQ(plan.jobs[0].steps,
            (std::vector<S>{{BlockTraceOp::kRead, 1048576, 4096, false, 1000, -1, 0},
                            {BlockTraceOp::kRead, 2097152, 4096, true, 1000, -1, 0}}));
  EXPECT_EQ(plan.jobs[0].dependent_ios, 1u);
  EXPECT_EQ(plan.jobs[1].steps,
            (std::vector<S>{{BlockTraceOp::kWrite, 5120000, 8192, false, 2000, -1, 0},
                            {BlockTraceOp::kWrite, 25600000, 4096, false, 2020, -1, 0}}));
  EXPECT_EQ(plan.jobs[1].dependent_ios, 0u);
  EXPECT_EQ(plan.jobs[2].steps, (std::vector<S>{{BlockTraceOp::kFlush, 0, 0, false, 9000, -1, 0},
                                                {BlockTraceOp::kWrite, 32768, 4096, true, 0, -1, 0},
                                                {BlockTraceOp::kFlush, 0, 0, false, 9500, -1, 0}}));
  // The engine's input holds the same steps, and reads back exactly.
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/x", true);
  const nlohmann::json j = ReplayEngineInputToJson(input);
  std::string text = "device " + j["device"].dump() + ", writes " + j["writes"].dump() + "\n";
  for (const nlohmann::json& job : j["jobs"]) {
    text += "job " + job["name"].dump() + ", depth " + job["depth"].dump() + "\n";
    for (const nlohmann::json& step : job["steps"]) text += "  " + step.dump() + "\n";
  }
  testing::ExpectMatchesGolden("replay_engine_input.txt", text);
  ReplayEngineInput back;
  ASSERT_TRUE(ReplayEngineInputFromJson(ReplayEngineInputToJson(input), &back, &err)) << err;
  EXPECT_EQ(back, input);
}

TEST(ReplayPlanTest, DependentThinkTimesScaleWithSpeedAndVanishUnderNoStall) {
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(
      PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {2, false, ReplayFit::kAuto}, &plan, &err));
  EXPECT_EQ(plan.jobs[0].steps[0].us, 500u);  // due at 1 ms / 2
  EXPECT_EQ(plan.jobs[0].steps[1].us, 500u);  // 1 ms of thought / 2
  ASSERT_TRUE(
      PlanReplay(MixedTrace(), "/dev/x", 1ULL << 30, {1, true, ReplayFit::kAuto}, &plan, &err));
  for (const ReplayJob& j : plan.jobs) {
    for (const ReplayStep& s : j.steps) EXPECT_EQ(s.us, 0u);
  }
  EXPECT_TRUE(plan.jobs[0].steps[1].after_previous);  // still in order after its predecessor
}

// #31 §2: cross-process dependencies in the plan. jbd2's commit (a flush, then the write)
// completes at 9 ms; sqlite3 queues its next write 0.5 ms later: its step waits for jbd2's
// write, step 1 of job 1 (the step after the commit's flush), 500 µs. The engine's input
// carries it as [OP, OFFSET, BYTES, 0, US, JOB, STEP] and reads it back.
TEST(ReplayPlanTest, AStepWokenByAnotherProcesssCompletionNamesItsLastStep) {
  const BlockTrace t =
      ReplayTraceOf({{1000000, 5, "sqlite3", BlockTraceOp::kWrite, kTraceSync, 100, 8, 3000000},
                     {4500000, 8, "jbd2/loop9-8", BlockTraceOp::kWrite,
                      kTracePreflush | kTraceFua | kTraceSync, 64, 8, 4500000},
                     {9500000, 5, "sqlite3", BlockTraceOp::kWrite, kTraceSync, 108, 8, 3000000}});
  ReplayPlan plan;
  std::string err;
  ASSERT_TRUE(PlanReplay(t, "/dev/x", 1ULL << 30, {}, &plan, &err)) << err;
  ASSERT_EQ(plan.jobs.size(), 2u);
  const ReplayStep& woken = plan.jobs[0].steps[1];
  EXPECT_FALSE(woken.after_previous);
  EXPECT_EQ(woken.after_job, 1);
  EXPECT_EQ(woken.after_step, 1u);  // the commit's write, after its flush
  EXPECT_EQ(woken.us, 500u);
  EXPECT_EQ(plan.jobs[0].woken_ios, 1u);
  EXPECT_EQ(plan.jobs[0].dependent_ios, 1u);
  // jbd2's commit, 0.5 ms after sqlite3's write completed (4 ms), waits for it: its flush does.
  EXPECT_EQ(plan.jobs[1].steps[0].op, BlockTraceOp::kFlush);
  EXPECT_EQ(plan.jobs[1].steps[0].after_job, 0);
  EXPECT_EQ(plan.jobs[1].steps[0].after_step, 0u);
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/x", true);
  const nlohmann::json j = ReplayEngineInputToJson(input);
  EXPECT_EQ(j["jobs"][0]["steps"][1].dump(), R"(["write",55296,4096,0,500,1,1])");
  ReplayEngineInput back;
  ASSERT_TRUE(ReplayEngineInputFromJson(j, &back, &err)) << err;
  EXPECT_EQ(back, input);
  nlohmann::json bad = j;
  bad["jobs"][0]["steps"][1][6] = 2;  // job 1 has steps 0 and 1 only
  EXPECT_FALSE(ReplayEngineInputFromJson(bad, &back, &err));
  EXPECT_NE(err.find("jobs[0].steps[1]: waits for a step"), std::string::npos) << err;
  bad = j;
  bad["jobs"][0]["steps"][1][5] = 0;  // its own step 1: not before it
  EXPECT_FALSE(ReplayEngineInputFromJson(bad, &back, &err));
}

TEST(ReplayLagTest, MatchesBiosToTheScheduleAndMeasuresFromTheLeastLate) {
  const std::vector<ReplayScheduled> scheduled = {{0, BlockTraceOp::kRead, 512, 4096, 0, 1},
                                                  {1000, BlockTraceOp::kWrite, 8192, 8192, 1, 2},
                                                  {2000, BlockTraceOp::kRead, 512, 4096, 0, 1}};
  // Issued 5 ms after the replay's unknown start, then 2 ms late, then on time.
  const std::vector<BlockTraceRecord> replayed = {
      {5000000, 100, "fio", BlockTraceOp::kRead, 0, 1, 8, -1},
      {8000000, 101, "fio", BlockTraceOp::kWrite, 0, 16, 16, -1},
      {8100000, 101, "fio", BlockTraceOp::kWrite, 0, 32, 8, -1},  // a split remainder
      {7000000, 100, "fio", BlockTraceOp::kRead, 0, 1, 8, -1}};
  const ReplayLag lag = MeasureReplayLag(scheduled, replayed);
  EXPECT_EQ(lag.matched, 3u);
  EXPECT_EQ(lag.matched_records, 4u);
  EXPECT_EQ(lag.matched_bytes, 16384u);
  EXPECT_EQ(lag.unmatched, 1u);
  EXPECT_DOUBLE_EQ(lag.max_ms, 2.0);
  EXPECT_DOUBLE_EQ(lag.mean_ms, 2.0 / 3.0);
  ASSERT_EQ(lag.first_ms.size(), 2u);
  EXPECT_DOUBLE_EQ(lag.first_ms[0], 0.0);
  EXPECT_DOUBLE_EQ(lag.first_ms[1], 2.0);
  EXPECT_EQ(lag.job_of_pid.at(101), 1u);
}

// The dependent replayer's ring issues its flushes through another io_uring worker than its
// writes (seen on sqlite's sample): a worker "iou-wrk-<pid>" counts as the ring's thread, so
// its flushes are matched in that ring's job, not in whichever job has flushes at offset 0.
TEST(ReplayPlanTest, AnIoUringWorkersBiosBelongToItsRingsJob) {
  const std::vector<ReplayScheduled> scheduled = {{0, BlockTraceOp::kFlush, 0, 0, 0, 0},
                                                  {1000, BlockTraceOp::kWrite, 4096, 4096, 0, 1},
                                                  {0, BlockTraceOp::kFlush, 0, 0, 1, 0},
                                                  {1000, BlockTraceOp::kFlush, 0, 0, 1, 0},
                                                  {2000, BlockTraceOp::kWrite, 8192, 4096, 1, 1}};
  const std::vector<BlockTraceRecord> replayed = {
      {1000000, 501, "iou-wrk-77", BlockTraceOp::kWrite, 0, 8, 8, -1},
      {2000000, 502, "iou-wrk-88", BlockTraceOp::kWrite, 0, 16, 8, -1},
      {3000000, 503, "iou-wrk-88", BlockTraceOp::kFlush, 0, 0, 0, -1},  // ring 88's flush worker
      {3100000, 503, "iou-wrk-88", BlockTraceOp::kFlush, 0, 0, 0, -1},
      {3200000, 504, "iou-wrk-77", BlockTraceOp::kFlush, 0, 0, 0, -1}};
  const ReplayLag lag = MeasureReplayLag(scheduled, replayed);
  EXPECT_EQ(lag.job_of_pid.at(503), 1u);
  EXPECT_EQ(lag.job_of_pid.at(504), 0u);
  EXPECT_EQ(lag.unmatched, 0u);
  EXPECT_EQ(lag.matched, 5u);
}

// #31: replayed_bytes is what the kernel saw, not what was planned: a read that reached the
// device as a bio of half its planned size counts half; a write the kernel cut into two bios
// counts both pieces; a bio traced whole and then again as its split remainder counts once.
TEST(ReplayLagTest, MatchedBytesAreTheBytesTheKernelSaw) {
  const std::vector<ReplayScheduled> scheduled = {{0, BlockTraceOp::kRead, 512, 4096, 0, 1},
                                                  {10, BlockTraceOp::kFlush, 0, 0, 0, 1},
                                                  {20, BlockTraceOp::kWrite, 8192, 8192, 0, 2},
                                                  {30, BlockTraceOp::kWrite, 65536, 8192, 0, 2}};
  const std::vector<BlockTraceRecord> replayed = {
      {1000, 100, "fio", BlockTraceOp::kRead, 0, 1, 4, -1},
      {2000, 100, "fio", BlockTraceOp::kFlush, 0, 0, 0, -1},
      {3000, 100, "fio", BlockTraceOp::kWrite, 0, 16, 8, -1},    // the front half
      {3100, 100, "fio", BlockTraceOp::kWrite, 0, 24, 8, -1},    // the back half
      {4000, 100, "fio", BlockTraceOp::kWrite, 0, 128, 16, -1},  // whole
      {4100, 100, "fio", BlockTraceOp::kWrite, 0, 136, 8, -1}};  // its split remainder again
  const ReplayLag lag = MeasureReplayLag(scheduled, replayed);
  EXPECT_EQ(lag.matched, 4u);
  EXPECT_EQ(lag.unmatched, 2u);
  EXPECT_EQ(lag.matched_bytes, 2048u + 8192u + 8192u);
}

// #44 §1: a process that issued nothing but one flush (the capture's own `syncfs`) is the job
// that is that flush, not the journal thread that also flushed among its writes: between jobs
// with as many votes, the one whose own I/Os the votes cover most. Before, every cell of the
// directory copies missed that flush ("951 of 952 bios").
TEST(ReplayLagTest, AFlushOnlyProcessIsTheFlushOnlyJob) {
  const std::vector<ReplayScheduled> scheduled = {{0, BlockTraceOp::kWrite, 4096, 4096, 0, 1},
                                                  {10, BlockTraceOp::kFlush, 0, 0, 0, 1},
                                                  {20, BlockTraceOp::kWrite, 8192, 4096, 0, 1},
                                                  {30, BlockTraceOp::kFlush, 0, 0, 1, 1}};
  const std::vector<BlockTraceRecord> replayed = {
      {1000, 100, "fio", BlockTraceOp::kWrite, 0, 8, 8, -1},
      {2000, 100, "fio", BlockTraceOp::kFlush, 0, 0, 0, -1},
      {3000, 100, "fio", BlockTraceOp::kWrite, 0, 16, 8, -1},
      {4000, 200, "fio", BlockTraceOp::kFlush, 0, 0, 0, -1}};
  const ReplayLag lag = MeasureReplayLag(scheduled, replayed);
  EXPECT_EQ(lag.job_of_pid.at(100), 0u);
  EXPECT_EQ(lag.job_of_pid.at(200), 1u);
  EXPECT_EQ(lag.matched_records, 4u);
  EXPECT_EQ(lag.unmatched, 0u);
  EXPECT_EQ(lag.missed_records, (std::array<uint64_t, 4>{0, 0, 0, 0}));
}

// What a cell did not replay is counted by kind: the trace's bios whose I/O no bio matched (a
// plug-merged I/O counts the bios it stands for).
TEST(ReplayLagTest, TheTracesBiosNotSeenAreCountedByKind) {
  const std::vector<ReplayScheduled> scheduled = {{0, BlockTraceOp::kRead, 512, 4096, 0, 1},
                                                  {10, BlockTraceOp::kWrite, 8192, 8192, 0, 2},
                                                  {20, BlockTraceOp::kFlush, 0, 0, 0, 1},
                                                  {30, BlockTraceOp::kRead, 65536, 4096, 0, 1}};
  const std::vector<BlockTraceRecord> replayed = {
      {1000, 100, "fio", BlockTraceOp::kRead, 0, 1, 8, -1}};
  const ReplayLag lag = MeasureReplayLag(scheduled, replayed);
  EXPECT_EQ(lag.matched_records, 1u);
  EXPECT_EQ(lag.missed_records, (std::array<uint64_t, 4>{1, 2, 0, 1}));  // read, write, -, flush
}

}  // namespace
}  // namespace elevbench
