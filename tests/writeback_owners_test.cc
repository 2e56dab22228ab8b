// Who the flusher's writes were for (#44 §2): bios queued inside a task's writeback bracket of
// an inode belong to the process that dirtied that inode's folios.

#include "harness/trace/writeback_owners.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/trace/block_capture.h"
#include "harness/trace/block_events.h"
#include "test_util.h"

namespace elevbench {
namespace {

// dd (named only by its exec: the cache did not have its comm) dirties inode 12, head inode 13
// (on 7:9); a host file on 254:0 is dirtied too. The
// flusher writes 12 then 13 back, jbd2 writes its journal outside any bracket, and a sync by
// cat writes 12's last pages.
constexpr const char* kText =
    "  sh-100 [000] ..... 9.999000: sched_process_exec: filename=/usr/bin/dd pid=100 "
    "old_pid=100\n"
    "  <...>-100 [000] d..1. 10.000100: writeback_dirty_folio: bdi 7:9: ino=12 index=0\n"
    "  dd-100 [000] d..1. 10.000200: writeback_dirty_folio: bdi 7:9: ino=12 index=1\n"
    "  head-101 [001] d..1. 10.000300: writeback_dirty_folio: bdi 7:9: ino=13 index=0\n"
    "  cc1-55 [001] d..1. 10.000350: writeback_dirty_folio: bdi 254:0: ino=12 index=0\n"
    "  cc1-55 [001] d..1. 10.000360: writeback_dirty_folio: bdi 254:0: ino=12 index=1\n"
    "  cc1-55 [001] d..1. 10.000370: writeback_dirty_folio: bdi 254:0: ino=12 index=2\n"
    "  kworker/u8:3-91 [000] ..... 10.001000: writeback_single_inode_start: bdi 7:9: ino=12 "
    "state=I_DIRTY_PAGES|I_SYNC dirtied_when=1 age=0 index=0 to_write=1024 wrote=0\n"
    "  kworker/u8:3-91 [000] ..... 10.001100: block_bio_queue: 7,9 W 2048 + 256 [kworker/u8:3]\n"
    "  jbd2/loop9-8-77 [001] ..... 10.001150: block_bio_queue: 7,9 WS 64 + 8 [jbd2/loop9-8]\n"
    "  kworker/u8:3-91 [000] ..... 10.001200: block_bio_queue: 7,9 W 2304 + 256 [kworker/u8:3]\n"
    "  kworker/u8:3-91 [000] ..... 10.001300: writeback_single_inode: bdi 7:9: ino=12 "
    "state=I_SYNC dirtied_when=1 age=0 index=2 to_write=1024 wrote=2\n"
    "  kworker/u8:3-91 [000] ..... 10.001400: writeback_single_inode_start: bdi 7:9: ino=13 "
    "state=I_DIRTY_PAGES|I_SYNC dirtied_when=1 age=0 index=0 to_write=1024 wrote=0\n"
    "  kworker/u8:3-91 [000] ..... 10.001500: block_bio_queue: 7,9 W 4096 + 8 [kworker/u8:3]\n"
    "  kworker/u8:3-91 [000] ..... 10.001600: writeback_single_inode: bdi 7:9: ino=13 "
    "state=I_SYNC dirtied_when=1 age=0 index=1 to_write=1024 wrote=1\n"
    "  kworker/u8:3-91 [000] ..... 10.001700: block_bio_queue: 7,9 W 8192 + 8 [kworker/u8:3]\n"
    "  dd-100 [000] d..1. 10.002000: writeback_dirty_folio: bdi 7:9: ino=12 index=2\n"
    "  sync-102 [001] ..... 10.003000: writeback_single_inode_start: bdi 7:9: ino=12 "
    "state=I_DIRTY_PAGES|I_SYNC dirtied_when=1 age=0 index=0 to_write=1024 wrote=0\n"
    "  sync-102 [001] ..... 10.003100: block_bio_queue: 7,9 WS 2560 + 8 [sync]\n"
    "  sync-102 [001] ..... 10.003200: block_bio_queue: 7,9 RS 9000 + 8 [sync]\n"
    "  sync-102 [001] ..... 10.003300: writeback_single_inode: bdi 7:9: ino=12 "
    "state=I_SYNC dirtied_when=1 age=0 index=3 to_write=1024 wrote=1\n";

constexpr uint64_t kStart = 10'000'000'000ULL;

TEST(WritebackOwnersTest, WritesInsideABracketBelongToTheInodesDirtier) {
  std::vector<BlockTraceRecord> records;
  uint64_t unreadable = 0;
  BioRecordsFromTraceText(kText, 7, 9, kStart, &records, &unreadable);
  ASSERT_EQ(records.size(), 7u);
  std::vector<BlockTraceDirtier> dirtiers;
  AttributeWriteback(kText, 7, 9, kStart, &records, &dirtiers);
  std::vector<int32_t> owners;
  for (const BlockTraceRecord& r : records) owners.push_back(r.owner);
  // flusher for dd, jbd2's journal, flusher for dd, flusher for head, flusher outside a
  // bracket, sync's write for dd, sync's read.
  EXPECT_EQ(owners, (std::vector<int32_t>{100, 0, 100, 101, 0, 100, 0}));
  // Only the traced disk's dirtiers; cc1's file on 254:0 with the same inode number is not.
  ASSERT_EQ(dirtiers.size(), 2u);
  EXPECT_EQ(dirtiers[0], (BlockTraceDirtier{100, "dd", 3, 100000, 2000000}));
  EXPECT_EQ(dirtiers[1], (BlockTraceDirtier{101, "head", 1, 300000, 300000}));
}

// Held back: a pause of 50 ms or more in a writer's dirtying while writes of its pages were
// queued; not a pause without such a write, nor a shorter one.
TEST(WritebackOwnersTest, AWriterIsHeldBackWhileItsPagesAreWrittenInAPause) {
  std::string text;
  auto line = [&](const std::string& s) { text += s + "\n"; };
  auto dirty = [&](const char* ts) {
    line(std::string("dd-100 [000] d..1. ") + ts +
         ": writeback_dirty_folio: bdi 7:9: ino=12 "
         "index=0");
  };
  auto flush = [&](const char* ts, const char* sector) {
    line(std::string("kw-91 [001] ..... ") + ts +
         ": writeback_single_inode_start: bdi 7:9: "
         "ino=12 state=I_SYNC");
    line(std::string("kw-91 [001] ..... ") + ts + ": block_bio_queue: 7,9 W " + sector +
         " + 256 [kw]");
    line(std::string("kw-91 [001] ..... ") + ts +
         ": writeback_single_inode: bdi 7:9: ino=12 "
         "state=I_SYNC");
  };
  dirty("10.000000");
  dirty("10.010000");  // 10 ms: too short to count
  flush("10.020000", "0");
  dirty("10.210000");  // 200 ms with its write queued at 10.02: held back
  dirty("10.510000");  // 300 ms without any write of its: its own pause
  flush("10.600000", "256");
  dirty("10.640000");  // 130 ms with a write: held back
  std::vector<BlockTraceRecord> records;
  uint64_t unreadable = 0;
  BioRecordsFromTraceText(text, 7, 9, kStart, &records, &unreadable);
  ASSERT_EQ(records.size(), 2u);
  std::vector<BlockTraceDirtier> dirtiers;
  AttributeWriteback(text, 7, 9, kStart, &records, &dirtiers);
  ASSERT_EQ(dirtiers.size(), 1u);
  EXPECT_EQ(dirtiers[0].held_back_ns, 200'000'000u + 130'000'000u);
}

TEST(WritebackOwnersTest, TheEventsAreTracedOnlyWhereTheKernelHasAllOfThem) {
  testing::ScopedTempDir tracefs;
  const std::string dir = tracefs.path() + "/events/writeback/";
  EXPECT_TRUE(WritebackEventsToTrace(tracefs.path()).empty());
  std::filesystem::create_directories(dir + "writeback_dirty_page");
  std::filesystem::create_directories(dir + "writeback_single_inode_start");
  EXPECT_TRUE(WritebackEventsToTrace(tracefs.path()).empty());  // no end of the bracket
  std::filesystem::create_directories(dir + "writeback_single_inode");
  EXPECT_EQ(WritebackEventsToTrace(tracefs.path()),
            (std::vector<std::string>{"writeback/writeback_dirty_page",
                                      "writeback/writeback_single_inode_start",
                                      "writeback/writeback_single_inode"}));
  std::filesystem::create_directories(dir + "writeback_dirty_folio");
  EXPECT_EQ(WritebackEventsToTrace(tracefs.path()).front(), "writeback/writeback_dirty_folio");
  std::filesystem::create_directories(tracefs.path() + "/events/sched/sched_process_exec");
  EXPECT_EQ(WritebackEventsToTrace(tracefs.path()).back(), "sched/sched_process_exec");
  std::filesystem::create_directories(tracefs.path() + "/events/jbd2/jbd2_handle_start");
  EXPECT_EQ(WritebackEventsToTrace(tracefs.path()).back(), "jbd2/jbd2_handle_start");
  std::filesystem::create_directories(tracefs.path() + "/events/ext4/ext4_mark_inode_dirty");
  EXPECT_EQ(WritebackEventsToTrace(tracefs.path()).back(), "ext4/ext4_mark_inode_dirty");
}

// Each handle keeps the first inode its process dirtied after it (ext4_mark_inode_dirty): the
// buffer its change waits for. A handle that dirtied none keeps 0; another process's dirtying,
// another disk's and one before any handle are not its.
TEST(WritebackOwnersTest, AJournalHandleKeepsTheFirstInodeItsProcessDirtied) {
  const std::string text =
      "  cat-42 [000] ..... 10.000100: ext4_mark_inode_dirty: dev 7,9 ino 11 caller x+0x1/0x2\n"
      "  cat-42 [000] ..... 10.000400: jbd2_handle_start: dev 7,9 tid 5 type 1 line_no 6666 "
      "requested_blocks 3\n"
      "  dd-100 [001] ..... 10.000410: ext4_mark_inode_dirty: dev 7,9 ino 99 caller x+0x1/0x2\n"
      "  cat-42 [000] ..... 10.000420: ext4_mark_inode_dirty: dev 254,0 ino 98 caller y\n"
      "  cat-42 [000] ..... 10.000430: ext4_mark_inode_dirty: dev 7,9 ino 12 caller "
      "ext4_dirty_inode+0x49/0x70\n"
      "  cat-42 [000] ..... 10.000440: ext4_mark_inode_dirty: dev 7,9 ino 13 caller z\n"
      "  cat-42 [000] ..... 10.000500: jbd2_handle_start: dev 7,9 tid 5 type 1 line_no 6666 "
      "requested_blocks 3\n";
  const std::vector<BlockTraceRecord> records = {
      {100, 42, "cat", BlockTraceOp::kRead, 0, 2048, 8, 5000000, 0}};
  const std::vector<BlockTraceJournalHandles> handles =
      JournalHandleStarts(text, 7, 9, kStart, records);
  ASSERT_EQ(handles.size(), 1u);
  EXPECT_EQ(handles[0].times_ns, (std::vector<uint64_t>{400000, 500000}));
  EXPECT_EQ(handles[0].inodes, (std::vector<uint64_t>{12, 0}));
  EXPECT_TRUE(handles[0].buffer_sectors.empty());
  TraceEvent e;
  std::string err;
  EXPECT_FALSE(
      ParseTraceLine("  cat-42 [000] ..... 10.0: ext4_mark_inode_dirty: dev 7,9 ino x", &e, &err));
  EXPECT_EQ(err, "ext4_mark_inode_dirty: expected 'dev MAJOR,MINOR ino N'");
}

// cat's journal handles on the traced disk, in time order; another disk's, and those of a
// process without bios (dd, whose pages the flusher wrote), are not kept.
TEST(WritebackOwnersTest, AJournalHandleStartIsKeptForAProcessWithBiosOnTheDisk) {
  const std::string text =
      "  cat-42 [000] ..... 10.000500: jbd2_handle_start: dev 7,9 tid 5 type 1 line_no 6666 "
      "requested_blocks 3\n"
      "  cat-42 [000] ..... 10.000400: jbd2_handle_start: dev 7,9 tid 5 type 1 line_no 6666 "
      "requested_blocks 3\n"
      "  cat-42 [000] ..... 10.000450: jbd2_handle_start: dev 254,0 tid 9 type 1 line_no 6666 "
      "requested_blocks 3\n"
      "  dd-100 [001] ..... 10.000460: jbd2_handle_start: dev 7,9 tid 5 type 1 line_no 6039 "
      "requested_blocks 1\n";
  const std::vector<BlockTraceRecord> records = {
      {100, 42, "cat", BlockTraceOp::kRead, 0, 2048, 8, 5000000, 0}};
  const std::vector<BlockTraceJournalHandles> handles =
      JournalHandleStarts(text, 7, 9, kStart, records);
  ASSERT_EQ(handles.size(), 1u);
  EXPECT_EQ(handles[0].pid, 42);
  EXPECT_EQ(handles[0].times_ns, (std::vector<uint64_t>{400000, 500000}));
  TraceEvent e;
  std::string err;
  EXPECT_FALSE(ParseTraceLine("  cat-42 [000] ..... 10.0: jbd2_handle_start: tid 5", &e, &err));
  EXPECT_EQ(err, "jbd2_handle_start: expected 'dev MAJOR,MINOR'");
}

}  // namespace
}  // namespace elevbench
