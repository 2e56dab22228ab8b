// The tracefs line parser, on the formats of kernel 6.18 (recorded lines from
// tests/fixtures/trace/, and the edge cases a comm or a truncated line makes).

#include "harness/trace/block_events.h"

#include <gtest/gtest.h>

#include "harness/trace/request_analysis.h"

namespace elevbench {
namespace {

TraceEvent Parsed(const std::string& line) {
  TraceEvent e;
  std::string err;
  EXPECT_TRUE(ParseTraceLine(line, &e, &err)) << err << " in: " << line;
  return e;
}

TEST(BlockEventsTest, ReadsAnInsertWithItsBytesCmdAndIoprio) {
  const TraceEvent e = Parsed(
      "             fio-10404   [001] d..1. 37795.408776: block_rq_insert: 7,8 RA 16384 () "
      "270336 + 32 be,0,4 [fio]");
  EXPECT_EQ(e.kind, TraceEventKind::kRqInsert);
  EXPECT_EQ(e.task, "fio");
  EXPECT_EQ(e.pid, 10404);
  EXPECT_EQ(e.time_ns, 37795408776000u);
  EXPECT_EQ(e.dev_major, 7u);
  EXPECT_EQ(e.dev_minor, 8u);
  EXPECT_EQ(e.rwbs, "RA");
  EXPECT_EQ(e.op, TraceOp::kRead);
  EXPECT_FALSE(e.flush);
  EXPECT_EQ(e.sector, 270336u);
  EXPECT_EQ(e.sectors, 32u);
  EXPECT_EQ(e.comm, "fio");
}

TEST(BlockEventsTest, ReadsQueueCompleteAndMergeLines) {
  TraceEvent e = Parsed("dd-13868 [001] .....   832.775688: block_bio_queue: 7,0 WS 8 + 8 [dd]");
  EXPECT_EQ(e.kind, TraceEventKind::kBioQueue);
  EXPECT_EQ(e.op, TraceOp::kWrite);
  EXPECT_EQ(e.sector, 8u);
  e = Parsed(
      "ksoftirqd/0-14 [000] ..s.. 832.775844: block_rq_complete: 7,0 RS () 0 + 8 "
      "be,0,4 [0]");
  EXPECT_EQ(e.kind, TraceEventKind::kRqComplete);
  EXPECT_EQ(e.task, "ksoftirqd/0");
  EXPECT_EQ(e.sectors, 8u);
  e = Parsed("dd-6445 [000] ..... 36733.754827: block_bio_backmerge: 7,0 WS 16 + 8 [dd]");
  EXPECT_EQ(e.kind, TraceEventKind::kBioBackmerge);
  e = Parsed(
      "kworker/1:1H-44 [001] ..... 36733.756807: block_rq_issue: 7,0 FF 0 () 0 + 0 "
      "none,0,0 [kworker/1:1H]");
  EXPECT_EQ(e.kind, TraceEventKind::kRqIssue);
  EXPECT_TRUE(e.flush);
  EXPECT_EQ(e.op, TraceOp::kOther);
  EXPECT_EQ(e.comm, "kworker/1:1H");
}

// A comm may hold spaces, dashes and brackets; the TASK-PID [CPU] field is found all the same.
TEST(BlockEventsTest, CommsWithSpacesDashesAndBrackets) {
  const TraceEvent e = Parsed(
      "  Web Content-x [1]-4242 [000] ..... 100.000001: block_bio_queue: 8,16 R 0 + 8 "
      "[Web Content-x [1]]");
  EXPECT_EQ(e.task, "Web Content-x [1]");
  EXPECT_EQ(e.pid, 4242);
  EXPECT_EQ(e.dev_major, 8u);
  EXPECT_EQ(e.dev_minor, 16u);
  EXPECT_EQ(e.comm, "Web Content-x [1]");
}

TEST(BlockEventsTest, MarkersMessagesAndSchedulerEvents) {
  TraceEvent e = Parsed(
      "elevbench-10371 [000] ...1. 37794.873053: tracing_mark_write: elevbench phase bench3");
  EXPECT_EQ(e.kind, TraceEventKind::kMarker);
  EXPECT_EQ(e.text, "elevbench phase bench3");
  e = Parsed("dd-6601 [000] d..1. 36818.888175:   7,0   1,0  m   N bfq6601S allocated");
  EXPECT_EQ(e.kind, TraceEventKind::kSchedulerMessage);
  EXPECT_EQ(e.text, "bfq6601S allocated");
  EXPECT_EQ(e.dev_minor, 0u);
  e = Parsed("dd-6601 [000] d..1. 36818.888138:   7,0    Q  RS 72000 + 8 [dd]");
  EXPECT_EQ(e.kind, TraceEventKind::kIgnored);  // the blk tracer's own Q line: not used
  e = Parsed("kworker/0:1-9 [000] ..... 5.000001: kyber_latency: 8,0 read: target 2000000");
  EXPECT_EQ(e.kind, TraceEventKind::kSchedulerEvent);
  EXPECT_EQ(e.name, "kyber_latency");
  EXPECT_EQ(e.dev_major, 8u);
  EXPECT_EQ(Parsed("# tracer: nop").kind, TraceEventKind::kIgnored);
  EXPECT_EQ(Parsed("").kind, TraceEventKind::kIgnored);
}

TEST(BlockEventsTest, BrokenLinesFailWithOneLine) {
  TraceEvent e;
  std::string err;
  EXPECT_FALSE(ParseTraceLine("garbage without fields", &e, &err));
  EXPECT_EQ(err, "not a trace line (no TASK-PID [CPU])");
  EXPECT_FALSE(
      ParseTraceLine("fio-1 [000] ..... 12.5x: block_bio_queue: 7,0 R 0 + 8 [fio]", &e, &err));
  EXPECT_EQ(err, "bad timestamp '12.5x:'");
  EXPECT_FALSE(
      ParseTraceLine("fio-1 [000] ..... 12.5: block_rq_issue: 7,0 R 4096 () 0 +", &e, &err));
  EXPECT_EQ(err, "block_rq_issue: no 'SECTOR + COUNT'");
  EXPECT_FALSE(ParseTraceLine("fio-1 [000] ..... 12.5: block_rq_insert: 7,0 R () 0 + 8", &e, &err));
  EXPECT_EQ(err, "block_rq_insert: no byte count");
}

// The page cache's events of a capture (#44 §2), as kernel 6.18 prints them.
TEST(BlockEventsTest, ReadsWritebackEventsWithTheirDiskAndInode) {
  TraceEvent e = Parsed(
      "              dd-25879   [001] d..1. 16116.857450: writeback_dirty_folio: bdi 7:9: "
      "ino=12 index=60260352");
  EXPECT_EQ(e.kind, TraceEventKind::kWritebackDirty);
  EXPECT_EQ(e.task, "dd");
  EXPECT_EQ(e.pid, 25879);
  EXPECT_EQ(e.dev_major, 7u);
  EXPECT_EQ(e.dev_minor, 9u);
  EXPECT_EQ(e.ino, 12u);
  e = Parsed(
      " kworker/u8:3-91 [000] ..... 16117.006115: writeback_single_inode_start: bdi 254:0: "
      "ino=1130505 state=I_DIRTY_PAGES|I_SYNC dirtied_when=4298921498 age=0 index=1 "
      "to_write=0 wrote=0 cgroup_ino=1");
  EXPECT_EQ(e.kind, TraceEventKind::kWritebackInodeStart);
  EXPECT_EQ(e.dev_major, 254u);
  EXPECT_EQ(e.ino, 1130505u);
  e = Parsed(
      " kworker/u8:3-91 [000] ..... 16117.010061: writeback_single_inode: bdi 254:0: "
      "ino=1130505 state=I_SYNC dirtied_when=4298921498 age=0 index=1 to_write=0 wrote=0");
  EXPECT_EQ(e.kind, TraceEventKind::kWritebackInodeDone);
  EXPECT_EQ(Parsed("cp-7 [001] d..1. 5.1: writeback_dirty_page: bdi 8:16: ino=3 index=0").kind,
            TraceEventKind::kWritebackDirty);
  // A bdi that is not a disk's keeps the device 0:0; a line without an inode is broken.
  e = Parsed("cp-7 [001] d..1. 5.1: writeback_dirty_folio: bdi (unknown): ino=3 index=0");
  EXPECT_EQ(e.dev_major, 0u);
  e = Parsed(
      "  <...>-28653 [001] ..... 5.2: sched_process_exec: filename=/usr/lib/a-very-long-name-tool "
      "pid=28653 old_pid=28653");
  EXPECT_EQ(e.kind, TraceEventKind::kProcessExec);
  EXPECT_EQ(e.pid, 28653);
  EXPECT_EQ(e.text, "a-very-long-nam");  // the comm the kernel gives it: 15 bytes
  std::string err;
  EXPECT_FALSE(ParseTraceLine("cp-7 [001] d..1. 5.1: writeback_dirty_folio: bdi 7:9:", &e, &err));
  EXPECT_EQ(err, "writeback_dirty_folio: expected 'bdi MAJOR:MINOR: ino=N'");
}

// fuzz/trace_events_fuzz: a comm with bytes that are not UTF-8 made the results JSON throw on
// dump. Every text kept from a line is printable ASCII.
TEST(BlockEventsTest, NonAsciiBytesBecomeQuestionMarks) {
  const TraceEvent e = Parsed(
      "ab\x9b\xff-7 [000] ..... 1.000001: block_bio_queue: 7,0 R 0 + 8 [c\x9b"
      "d\x01]");
  EXPECT_EQ(e.task, "ab??");
  EXPECT_EQ(e.comm, "c?d?");
  const TraceEvent m = Parsed("x-7 [000] ..... 1.0: tracing_mark_write: elevbench phase \xe9t\xe9");
  EXPECT_EQ(m.text, "elevbench phase ?t?");
  RequestAnalyzer a(7, 0);
  a.Add(e);
  a.Add(m);
  EXPECT_NO_THROW((void)a.Finish().ToJson().dump());
}

TEST(BlockEventsTest, RwbsFlags) {
  TraceOp op = TraceOp::kOther;
  bool flush = false;
  ClassifyRwbs("FWS", &op, &flush);
  EXPECT_EQ(op, TraceOp::kWrite);
  EXPECT_TRUE(flush);
  ClassifyRwbs("RM", &op, &flush);
  EXPECT_EQ(op, TraceOp::kRead);
  EXPECT_FALSE(flush);
  ClassifyRwbs("DS", &op, &flush);
  EXPECT_EQ(op, TraceOp::kDiscard);
  ClassifyRwbs("N", &op, &flush);
  EXPECT_EQ(op, TraceOp::kOther);
}

}  // namespace
}  // namespace elevbench
