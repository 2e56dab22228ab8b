// A held-back buffered writer of a version 2 trace replayed as the closed loop it was (#44 §2,
// docs/replay.md §3 "Buffered writers"): the plan's writer job, where it writes, the engine's
// input, the account and the cautions of a replay that cannot do it.

#include "scenarios/replay/replay_buffered_writer.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "fakes.h"
#include "scenarios/replay/replay_cautions.h"
#include "scenarios/replay/replay_engine_input.h"
#include "scenarios/replay/replay_lag.h"
#include "scenarios/replay/replay_plan.h"
#include "scenarios/replay/replay_summary.h"

namespace elevbench {
namespace {

constexpr int32_t kDd = 50;

// cat reads at 1 ms and 3 s; the flusher writes three bios of dd's pages (two contiguous) and
// one of nobody's; dd dirtied from 0.5 ms to `dd_last_ns` and was held back `held_back_ns`.
BlockTrace WriterTrace(uint64_t held_back_ns, uint64_t dd_last_ns) {
  BlockTrace t = testing::FakeVersion2Trace({{kDd, "dd", 3, 500000, dd_last_ns, held_back_ns}});
  const auto kworker = [](uint64_t t_ns, uint64_t sector, int32_t owner) {
    return BlockTraceRecord{t_ns, 7,       "kworker/u8:2", BlockTraceOp::kWrite, 0, sector,
                            8,    9000000, owner};
  };
  t.records = {{1000000, 42, "cat", BlockTraceOp::kRead, kTraceSync, 2048, 8, 6000000, 0},
               kworker(2000000, 10000, kDd),
               kworker(2010000, 10008, kDd),
               kworker(2020000, 50000, kDd),
               kworker(2030000, 60000, 0),
               {3000000000, 42, "cat", BlockTraceOp::kRead, kTraceSync, 4096, 8, 6000000, 0}};
  return t;
}

ReplayPlan Planned(const BlockTrace& trace, bool buffered_writers) {
  ReplayOptions o;
  o.buffered_writers = buffered_writers;
  ReplayPlan plan;
  std::string err;
  EXPECT_TRUE(PlanReplay(trace, "/dev/loop20", 1ULL << 30, o, &plan, &err)) << err;
  return plan;
}

TEST(ReplayBufferedWriterTest, AHeldBackWritersPagesBecomeItsWriterJobNotTheFlushersBios) {
  const ReplayPlan plan = Planned(WriterTrace(100000000, 2500000000), true);
  ASSERT_EQ(plan.jobs.size(), 3u);  // cat, the flusher's write of nobody's pages, dd
  EXPECT_EQ(plan.jobs[1].comm, "kworker/u8:2");
  EXPECT_EQ(plan.jobs[1].ops, 1u);
  const ReplayJob& dd = plan.jobs[2];
  EXPECT_EQ(dd.name, "p50_dd");
  ASSERT_TRUE(dd.buffered.has_value());
  EXPECT_TRUE(dd.steps.empty());
  EXPECT_EQ(dd.ops, 3u);
  EXPECT_EQ(dd.bytes, 3u * 4096);
  const ReplayBufferedWriter& w = *dd.buffered;
  EXPECT_EQ(w.start_us, 500u);
  EXPECT_EQ(w.bytes, 3u * 4096);
  const std::vector<std::pair<uint64_t, uint64_t>> extents = {{10000 * 512, 8192},
                                                              {50000 * 512, 4096}};
  EXPECT_EQ(w.extents, extents);
  EXPECT_TRUE(w.until_readers_end);  // still dirtying when cat's last read was queued
  EXPECT_EQ(plan.trace_ops, 6u);
  EXPECT_EQ(plan.buffered_ops, 3u);
  EXPECT_EQ(plan.buffered_bytes, 3u * 4096);
  for (const ReplayScheduled& s : plan.scheduled) EXPECT_NE(s.job, 2u);
  EXPECT_TRUE(
      ReplayCautions(WriterTrace(100000000, 2500000000), {.buffered_writers = true}).empty());
}

// Done long before the last read: its own work, its volume. Dirtying until the last read or after
// it (a writer killed beside the reader goes on until its write leaves the kernel's wait): until
// the readers end.
TEST(ReplayBufferedWriterTest, AWriterThatStoppedLongBeforeTheLastReadWritesItsVolume) {
  EXPECT_FALSE(
      Planned(WriterTrace(100000000, 2000000), true).jobs.back().buffered->until_readers_end);
  for (const uint64_t last_ns : {uint64_t{2100000000}, uint64_t{16000000000}}) {
    EXPECT_TRUE(
        Planned(WriterTrace(100000000, last_ns), true).jobs.back().buffered->until_readers_end)
        << last_ns;
  }
}

// The flusher that wrote dd's pages read a block bitmap for them after cat's last read (ext4's
// allocator, 11 s after it in docs/replay-measurements.md): that read is dd's writeback's, not a
// reader's, so it neither makes dd's demand end before the readers' nor keeps dd writing after
// them.
TEST(ReplayBufferedWriterTest, TheFlushersOwnReadIsNotAReaderTheWriterWaitsFor) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  t.records.push_back(
      {3600000000, 7, "kworker/u8:2", BlockTraceOp::kRead, kTraceMeta, 2120, 8, 5000000, 0});
  const ReplayPlan plan = Planned(t, true);
  ASSERT_EQ(plan.jobs.size(), 3u);
  EXPECT_FALSE(plan.jobs[0].writer_writeback);  // cat
  EXPECT_TRUE(plan.jobs[1].writer_writeback);   // the flusher, its bitmap read among its steps
  EXPECT_TRUE(plan.jobs[2].buffered->until_readers_end);  // by cat's last read, at 3 s
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/loop20", true);
  EXPECT_TRUE(input.jobs[1].writer_writeback);
  EXPECT_FALSE(input.jobs[0].writer_writeback);
  // Without a buffered writer (fio's replayer) the flusher is a job like any other.
  for (const ReplayJob& job : Planned(t, false).jobs) EXPECT_FALSE(job.writer_writeback);
}

// jbd2 beside the writer: two log writes (contiguous, so one I/O), a commit with a preflush and
// FUA, then a log write of the next commit and a FUA-only commit. The log writes are the steps
// the writer pauses for; the commits and their flush are not.
TEST(ReplayBufferedWriterTest, AJournalsLogWritesAreTheStepsTheWriterPausesFor) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  const auto jbd2 = [](uint64_t t_ns, uint64_t sector, uint8_t flags) {
    return BlockTraceRecord{t_ns,    9, "jbd2/loop9-8", BlockTraceOp::kWrite, flags, sector, 8,
                            4000000, 0};
  };
  const uint8_t log = kTraceSync | kTraceMeta;
  for (const BlockTraceRecord& r :
       {jbd2(5000000, 900000, log), jbd2(5000010, 900008, log),
        jbd2(10000000, 900016, log | kTracePreflush | kTraceFua), jbd2(20000000, 900024, log),
        jbd2(30000000, 900032, log | kTraceFua)}) {
    t.records.push_back(r);
  }
  std::stable_sort(t.records.begin(), t.records.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  const ReplayPlan plan = Planned(t, true);
  const auto journal = std::find_if(plan.jobs.begin(), plan.jobs.end(),
                                    [](const ReplayJob& j) { return j.pid == 9; });
  ASSERT_NE(journal, plan.jobs.end());
  // Steps: the merged log write, the commit's flush, the commit, a log write, a commit.
  ASSERT_EQ(journal->steps.size(), 5u);
  EXPECT_EQ(journal->journal_log_steps, (std::vector<uint32_t>{0, 3}));
  for (const ReplayJob& job : plan.jobs) {
    if (job.pid != 9) {
      EXPECT_TRUE(job.journal_log_steps.empty()) << job.name;
    }
  }
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/loop20", true);
  ReplayEngineInput back;
  std::string err;
  ASSERT_TRUE(ReplayEngineInputFromJson(ReplayEngineInputToJson(input), &back, &err)) << err;
  EXPECT_EQ(back, input);
  const auto index = static_cast<size_t>(journal - plan.jobs.begin());
  for (const nlohmann::json& bad :
       {nlohmann::json{3, 0}, nlohmann::json{1}, nlohmann::json{9}, nlohmann::json("0")}) {
    nlohmann::json j = ReplayEngineInputToJson(input);
    j["jobs"][index]["journal_log_steps"] = bad;  // descending, a flush, beyond, not a list
    EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err)) << bad;
    EXPECT_NE(err.find("journal_log_steps: expected ascending indexes"), std::string::npos) << err;
  }
  // Without a buffered writer nothing pauses, and the journal is marked nowhere.
  for (const ReplayJob& job : Planned(t, false).jobs) EXPECT_TRUE(job.journal_log_steps.empty());
}

// jbd2 dirties metadata buffers at its commits and the flusher writes them between, so its
// pauses look held back; a journal is never a buffered writer: its pages' bios are replayed.
TEST(ReplayBufferedWriterTest, AJournalThatDirtiedPagesIsNotABufferedWriter) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  t.header.dirtiers.push_back({9, "jbd2/loop9-8", 11, 5000000, 2900000000, 2000000000});
  t.records.push_back({5000000, 9, "jbd2/loop9-8", BlockTraceOp::kWrite,
                       kTraceSync | kTraceMeta | kTracePreflush | kTraceFua, 900000, 8, 4000000,
                       0});
  t.records.push_back(
      {6000000, 7, "kworker/u8:2", BlockTraceOp::kWrite, kTraceMeta, 1048, 8, 5000000, 9});
  std::stable_sort(t.records.begin(), t.records.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  const auto writers = HeldBackWriters(t);
  ASSERT_EQ(writers.size(), 1u);
  EXPECT_EQ(writers.begin()->first, kDd);
  for (const ReplayJob& job : Planned(t, true).jobs) {
    EXPECT_FALSE(job.buffered && job.pid == 9) << job.name;
  }
}

// cat started a journal handle (its access-time update) between its two reads: its second read
// waits while a metadata write is in flight; the flusher's write of metadata is one.
TEST(ReplayBufferedWriterTest, AReadersIoAfterAJournalHandleWaitsForMetadataWrites) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  t.records.push_back(
      {2500000000, 7, "kworker/u8:2", BlockTraceOp::kWrite, kTraceMeta, 1048, 8, 5000000, 0});
  std::stable_sort(t.records.begin(), t.records.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  t.header.journal_handles = {{42, {2000000000}, {}, {}, 0}, {50, {1000000}, {}, {}, 0}};
  const ReplayPlan plan = Planned(t, true);
  ASSERT_EQ(plan.jobs[0].comm, "cat");
  EXPECT_EQ(plan.jobs[0].journal_wait_steps, (std::vector<uint32_t>{1}));
  ASSERT_EQ(plan.jobs[1].comm, "kworker/u8:2");
  EXPECT_EQ(plan.jobs[1].metadata_write_steps, (std::vector<uint32_t>{1}));
  EXPECT_TRUE(plan.jobs[1].journal_wait_steps.empty()) << "a writer's changes are not a reader's";
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/loop20", true);
  ReplayEngineInput back;
  std::string err;
  ASSERT_TRUE(ReplayEngineInputFromJson(ReplayEngineInputToJson(input), &back, &err)) << err;
  EXPECT_EQ(back, input);
  nlohmann::json j = ReplayEngineInputToJson(input);
  j["jobs"][0]["metadata_write_steps"] = {0};  // cat's read
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  EXPECT_NE(err.find("metadata_write_steps: expected ascending indexes of the job's writes"),
            std::string::npos)
      << err;
  j = ReplayEngineInputToJson(input);
  j["jobs"][0]["journal_wait_steps"] = {2};
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  // Without handles in the trace nothing waits and nothing is marked.
  t.header.journal_handles.clear();
  for (const ReplayJob& job : Planned(t, true).jobs) {
    EXPECT_TRUE(job.journal_wait_steps.empty() && job.metadata_write_steps.empty()) << job.name;
  }
}

// With the buffer cat's handle changed known (its inode's table block, sector 1048 of the
// capture), the waiting step carries it, mapped onto the target; the journal's job is marked
// (its metadata writes are log writes); both reach the engine's input and back. A handle whose
// buffer is not known leaves the step waiting for every metadata write (no buffers).
TEST(ReplayBufferedWriterTest, AReadersStepAfterAHandleCarriesTheBufferItChanged) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  t.records.push_back(
      {2500000000, 7, "kworker/u8:2", BlockTraceOp::kWrite, kTraceMeta, 1048, 8, 5000000, 0});
  t.records.push_back({2600000000, 9, "jbd2/loop9-8", BlockTraceOp::kWrite,
                       kTraceSync | kTraceMeta | kTracePreflush | kTraceFua, 900000, 8, 4000000,
                       0});
  std::stable_sort(t.records.begin(), t.records.end(),
                   [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  t.header.journal_handles = {{42, {2000000000}, {12}, {1048}, 4096}};
  ReplayPlan plan = Planned(t, true);
  ASSERT_EQ(plan.jobs[0].comm, "cat");
  ASSERT_EQ(plan.jobs[0].journal_wait_steps, (std::vector<uint32_t>{1}));
  const uint64_t offset = MappedOffset(plan.mapping, 1048, 8);
  EXPECT_EQ(plan.jobs[0].journal_wait_buffers,
            (std::vector<std::vector<std::pair<uint64_t, uint64_t>>>{{{offset, 4096}}}));
  for (const ReplayJob& job : plan.jobs) EXPECT_EQ(job.journal, job.pid == 9) << job.name;
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/loop20", true);
  ReplayEngineInput back;
  std::string err;
  ASSERT_TRUE(ReplayEngineInputFromJson(ReplayEngineInputToJson(input), &back, &err)) << err;
  EXPECT_EQ(back, input);
  nlohmann::json j = ReplayEngineInputToJson(input);
  j["jobs"][0]["journal_wait_buffers"] = nlohmann::json::array({{{0, 0}}});
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  EXPECT_NE(err.find("journal_wait_buffers"), std::string::npos) << err;
  t.header.journal_handles = {{42, {2000000000}, {12}, {-1}, 4096}};
  plan = Planned(t, true);
  EXPECT_TRUE(plan.jobs[0].journal_wait_buffers.empty()) << "none known: no list";
  EXPECT_FALSE(
      ReplayEngineInputToJson(ReplayEngineInputOf(plan, "/dev/loop20", true))["jobs"][0].contains(
          "journal_wait_buffers"));
}

// The writer goes on once the journal's log writes are done (wait rule "journal_log", which
// counts the hold), and stops on an abort or at the deadline.
TEST(ReplayBufferedWriterTest, TheWriterWaitsWhileTheJournalWritesAndStopsOnAnAbort) {
  ReplayEngineInput input;
  input.jobs.resize(1);
  input.jobs[0].name = "p7_jbd2";
  input.jobs[0].steps.resize(2);
  input.jobs[0].journal_log_steps = {1};
  ReplayWaitRules rules(input);
  rules.Issued(0, 0);  // not a log write: holds nothing
  std::atomic<bool> abort{false};
  std::atomic<int> readers{0};
  const BufferedWriterContext ctx{"/dev/null", 0, INT64_MAX, &abort, &readers, &rules};
  std::string err;
  EXPECT_TRUE(WaitForTheRules("p50_dd", ctx, &err)) << err;
  rules.Issued(0, 1);
  std::atomic<bool> cleared{false};
  std::thread journal([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    cleared = true;
    rules.Completed(0, 1);
  });
  EXPECT_TRUE(WaitForTheRules("p50_dd", ctx, &err)) << err;
  EXPECT_TRUE(cleared.load()) << "returned while a log write was in flight";
  journal.join();
  const std::vector<ReplayWaitCount> counts = rules.Counts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[0].rule, "journal_log");
  EXPECT_EQ(counts[0].held, 1u);
  EXPECT_GT(counts[0].seconds, 0.0);
  EXPECT_EQ(counts[1].held, 0u);
  rules.Issued(0, 1);
  abort = true;
  EXPECT_FALSE(WaitForTheRules("p50_dd", ctx, &err));
  EXPECT_EQ(err, "p50_dd: stopped, another job failed");
  abort = false;
  const BufferedWriterContext late{"/dev/null", 0, 1, &abort, &readers, &rules};
  EXPECT_FALSE(WaitForTheRules("p50_dd", late, &err));
  EXPECT_EQ(err, "p50_dd: the replay ran past its deadline while a wait rule held it");
  const BufferedWriterContext none{"/dev/null", 0, 1, &abort, &readers, nullptr};
  EXPECT_TRUE(WaitForTheRules("p50_dd", none, &err));
}

TEST(ReplayBufferedWriterTest, AWriterNeverHeldBackAndTheFioReplayerKeepTheFlushersBios) {
  for (const auto& [held_back, buffered] :
       {std::pair<uint64_t, bool>{0, true}, {100000000, false}}) {
    const ReplayPlan plan = Planned(WriterTrace(held_back, 2500000000), buffered);
    ASSERT_EQ(plan.jobs.size(), 2u);
    EXPECT_EQ(plan.jobs[1].ops, 4u);
    EXPECT_FALSE(plan.jobs[1].buffered.has_value());
    EXPECT_EQ(plan.buffered_ops, 0u);
  }
  // fio cannot: the verdict says so, naming the writer.
  const auto cautions = ReplayCautions(WriterTrace(100000000, 2500000000), {});
  ASSERT_EQ(cautions.size(), 1u);
  EXPECT_NE(cautions[0].find("dd (pid 50) was held back 0.100 s"), std::string::npos)
      << cautions[0];
  EXPECT_TRUE(ReplayCautions(WriterTrace(0, 2500000000), {}).empty());
}

TEST(ReplayBufferedWriterTest, AVersionOneTracesWritebackIsACaution) {
  BlockTrace t = WriterTrace(100000000, 2500000000);
  t.header.version = 1;
  t.header.writeback_traced = false;
  t.header.dirtiers.clear();
  for (BlockTraceRecord& r : t.records) r.owner = 0;
  const auto cautions = ReplayCautions(t, {.buffered_writers = true});
  ASSERT_EQ(cautions.size(), 1u);
  EXPECT_NE(cautions[0].find("its 4 writeback writes"), std::string::npos) << cautions[0];
  EXPECT_EQ(Planned(t, true).buffered_ops, 0u);
  for (BlockTraceRecord& r : t.records) r.flags |= kTraceSync;  // direct writes: nothing to say
  EXPECT_TRUE(ReplayCautions(t, {}).empty());
}

TEST(ReplayBufferedWriterTest, WritesFollowTheExtentsThenGoOnAndWrapAtTheDevicesEnd) {
  ReplayBufferedWriter w;
  w.extents = {{4096, 8192}, {65536, 4096}};
  uint64_t contiguous = 0;
  EXPECT_EQ(BufferedWriteOffset(w, 81920, 0, &contiguous), 4096u);
  EXPECT_EQ(contiguous, 8192u);
  EXPECT_EQ(BufferedWriteOffset(w, 81920, 8192, &contiguous), 65536u);
  EXPECT_EQ(contiguous, 4096u);
  // Past the extents: on after the last one to the device's end (81920) ...
  EXPECT_EQ(BufferedWriteOffset(w, 81920, 12288, &contiguous), 69632u);
  EXPECT_EQ(contiguous, 12288u);
  // ... then round from the first extent's start.
  EXPECT_EQ(BufferedWriteOffset(w, 81920, 12288 + 12288, &contiguous), 4096u);
  EXPECT_EQ(contiguous, 81920u - 4096);
  EXPECT_EQ(BufferedWriteOffset(w, 81920, 24576 + 77824 + 100, &contiguous), 4196u);
}

TEST(ReplayBufferedWriterTest, TheEnginesInputKeepsTheWriterAndRefusesAMalformedOne) {
  const ReplayPlan plan = Planned(WriterTrace(100000000, 2500000000), true);
  const ReplayEngineInput input = ReplayEngineInputOf(plan, "/dev/loop20", true);
  ASSERT_TRUE(input.jobs.back().buffered.has_value());
  ReplayEngineInput back;
  std::string err;
  ASSERT_TRUE(ReplayEngineInputFromJson(ReplayEngineInputToJson(input), &back, &err)) << err;
  EXPECT_EQ(back, input);
  nlohmann::json j = ReplayEngineInputToJson(input);
  j["jobs"][2]["buffered"]["extents"] = nlohmann::json::array();
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  EXPECT_NE(err.find("jobs[2].buffered.extents"), std::string::npos) << err;
  j = ReplayEngineInputToJson(input);
  j["jobs"][2]["steps"] = j["jobs"][0]["steps"];
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  EXPECT_NE(err.find("no steps"), std::string::npos) << err;
  ASSERT_TRUE(input.jobs[1].writer_writeback);  // the flusher of dd's pages, kept by the round trip
  j = ReplayEngineInputToJson(input);
  j["jobs"][1]["writer_writeback"] = 1;
  EXPECT_FALSE(ReplayEngineInputFromJson(j, &back, &err));
  EXPECT_NE(err.find("jobs[1].writer_writeback: expected true or false"), std::string::npos) << err;
}

// The account counts a writer's pages as replayed by its writes; the writer's row says what it
// wrote in each configuration.
TEST(ReplayBufferedWriterTest, TheAccountCountsTheWritersPagesAndItsRowSaysWhatItWrote) {
  std::vector<ReplayRecord> records;
  for (uint64_t written : {3u << 20, 5u << 20}) {
    ReplayRecord r;
    r.identifier = "none";
    r.trace_ops = 10;
    r.trace_bytes = 40960;
    r.replayed_ops = 7;
    r.replayed_bytes = 28672;
    r.buffered_ops = 3;
    r.buffered_bytes = 12288;
    r.journal_log_writes = 4;
    r.lag_measured = true;
    ReplayProcess p;
    p.pid = kDd;
    p.comm = "dd";
    p.replayed_as = "buffered_writer";
    p.until_readers_end = true;
    p.trace_bytes = 12288;
    p.job.write.bytes = written;
    p.job.write.ios = written >> 20;
    p.job.write.runtime_seconds = 2;
    p.job.write.clat.Record(1000000);
    p.kernel_write.Record(30000000);  // the flusher's bios of its pages (SplitReplayBios)
    r.processes.push_back(p);
    records.push_back(r);
  }
  ReplayRecord back;
  std::string err;
  ASSERT_TRUE(ReplayRecordFromJson(ReplayRecordToJson(records[0]), &back, &err)) << err;
  EXPECT_EQ(back.journal_log_writes, 4u);
  const ReplaySummary s = SummarizeReplay(records, {"none"});
  EXPECT_EQ(s.exact_cells, 2u);
  EXPECT_EQ(s.buffered_ops, 3u);
  ASSERT_EQ(s.writers.size(), 1u);
  EXPECT_DOUBLE_EQ(s.writers[0].written_bytes, 4.0 * (1 << 20));
  EXPECT_TRUE(s.writers[0].until_readers_end);
  ASSERT_EQ(s.processes.size(), 1u);
  EXPECT_EQ(s.processes[0].replayed_as, "buffered, to end");
  EXPECT_EQ(s.processes[0].latency.count(), 2u);
}

// The replay's own bios go to the lag; the flusher's and the writer thread's writes are the
// writer's pages' writeback, whoever queued them.
TEST(ReplayBufferedWriterTest, TheFlushersAndTheWritersOwnBiosAreTheWritersWriteback) {
  const ReplayPlan plan = Planned(WriterTrace(100000000, 2500000000), true);
  const std::vector<BlockTraceRecord> replayed = {
      {1, 900, "iou-wrk-900", BlockTraceOp::kRead, kTraceSync, 2048, 8, 100, 0},
      {2, 31, "kworker/u8:0", BlockTraceOp::kWrite, 0, 10000, 2048, 200, 0},
      {3, 901, "p50_dd", BlockTraceOp::kWrite, kTraceSync, 900000, 8, 300, 0},
      {4, 902, "iou-wrk-902", BlockTraceOp::kWrite, 0, 60000, 8, 400, 0}};
  const ReplayBiosByQueuer bios = SplitReplayBios(plan, replayed);
  ASSERT_EQ(bios.replayer.size(), 2u);
  EXPECT_EQ(bios.replayer[1].comm, "iou-wrk-902");
  ASSERT_EQ(bios.writeback.size(), 2u);
  EXPECT_EQ(bios.writer_job, (std::vector<int32_t>{2, 2}));  // beyond its extents: the only one
  // Without buffered writers a kworker's bio is the replayer's (the lag counts it unmatched).
  EXPECT_EQ(
      SplitReplayBios(Planned(WriterTrace(100000000, 2500000000), false), replayed).replayer.size(),
      4u);
}

}  // namespace
}  // namespace elevbench
