// What a replay's verdict warns of (docs/replay.md §3 and §5, docs/replay-measurements.md): here
// the file-system waits a block replay cannot repeat, beside a buffered writer. The writer cautions
// of a replay that cannot replay a buffered writer are in replay_buffered_writer_test.cc.

#include "scenarios/replay/replay_cautions.h"

#include <gtest/gtest.h>

#include "fakes.h"

namespace elevbench {
namespace {

constexpr int32_t kCautionsDd = 50;
constexpr int32_t kCautionsCat = 42;
constexpr int32_t kCautionsJbd2 = 9;

BlockTraceRecord CautionsRecord(uint64_t t_ns, int32_t pid, const char* comm, BlockTraceOp op,
                                uint8_t flags, uint64_t sector, int32_t owner) {
  return {t_ns, pid, comm, op, flags, sector, 8, 6000000, owner};
}

// cat reads beside dd, whose pages the flusher writes and who was held back; jbd2 commits once
// (a preflush write and a FUA one), as ext4's journal does.
BlockTrace CatBesideDdOnExt4() {
  BlockTrace t =
      testing::FakeVersion2Trace({{kCautionsDd, "dd", 3, 500000, 3500000000, 900000000}});
  t.records = {
      CautionsRecord(1000000, kCautionsCat, "cat", BlockTraceOp::kRead, kTraceAhead, 2048, 0),
      CautionsRecord(2000000, 7, "kworker/u8:2", BlockTraceOp::kWrite, 0, 10000, kCautionsDd),
      CautionsRecord(5000000, kCautionsJbd2, "jbd2/loop9-8", BlockTraceOp::kWrite,
                     kTraceSync | kTracePreflush, 8, 0),
      CautionsRecord(6000000, kCautionsJbd2, "jbd2/loop9-8", BlockTraceOp::kWrite,
                     kTraceSync | kTraceFua, 16, 0),
      CautionsRecord(3000000000, kCautionsCat, "cat", BlockTraceOp::kRead, kTraceAhead, 4096, 0)};
  return t;
}

TEST(ReplayCautionsTest, AReaderBesideABufferedWriterOnAJournalIsACaution) {
  const std::string caution = FileSystemWaitsCaution(CatBesideDdOnExt4());
  EXPECT_NE(caution.find("(2 journal writes with a preflush or FUA in the trace)"),
            std::string::npos)
      << caution;
  EXPECT_NE(caution.find("an access-time update waiting in the journal"), std::string::npos)
      << caution;
  // The dependent replayer's verdict says it; fio's says that it cannot replay the writer.
  const auto dependent = ReplayCautions(CatBesideDdOnExt4(), {.buffered_writers = true});
  ASSERT_EQ(dependent.size(), 1u);
  EXPECT_EQ(dependent[0], caution);
  const auto fio = ReplayCautions(CatBesideDdOnExt4(), {});
  ASSERT_EQ(fio.size(), 1u);
  EXPECT_NE(fio[0].find("dd (pid 50) was held back 0.900 s"), std::string::npos) << fio[0];
}

// With the reader's journal handles the replay waits after them (ReplayJob::journal_wait_steps):
// the caution says by which rule, and counts the readers' handles only.
TEST(ReplayCautionsTest, AReadersJournalHandlesAreWaitedAfterByACoarserRule) {
  BlockTrace t = CatBesideDdOnExt4();
  t.header.journal_handles = {{kCautionsCat, {500000, 2000000}, {}, {}, 0},
                              {kCautionsDd, {100000}, {}, {}, 0}};
  const std::string caution = FileSystemWaitsCaution(t);
  EXPECT_NE(caution.find("after each of the readers' 2 journal handles the replay holds their "
                         "next I/O until the writes of metadata in flight at the time have "
                         "completed"),
            std::string::npos)
      << caution;
  EXPECT_EQ(caution.find("not replayed"), std::string::npos) << caution;
  // With every handle's buffer known (ext4's inode, read by debugfs), the rule named is that.
  t.header.journal_handles = {{kCautionsCat, {500000, 2000000}, {12, 13}, {2048, 2048}, 4096}};
  const std::string buffered = FileSystemWaitsCaution(t);
  EXPECT_NE(buffered.find("until the writes of the buffer the handle changed and the journal's "
                          "log writes in flight"),
            std::string::npos)
      << buffered;
  t.header.journal_handles = {{kCautionsDd, {100000}, {}, {}, 0}};  // the writer's alone: as before
  EXPECT_EQ(FileSystemWaitsCaution(t), FileSystemWaitsCaution(CatBesideDdOnExt4()));
}

TEST(ReplayCautionsTest, NoWriterNoReaderOrNoJournalIsNoCaution) {
  BlockTrace never_held_back = CatBesideDdOnExt4();
  never_held_back.header.dirtiers[0].held_back_ns = 0;
  EXPECT_EQ(FileSystemWaitsCaution(never_held_back), "");

  BlockTrace no_reader = CatBesideDdOnExt4();
  std::erase_if(no_reader.records, [](const BlockTraceRecord& r) { return r.pid == kCautionsCat; });
  EXPECT_EQ(FileSystemWaitsCaution(no_reader), "");

  BlockTrace no_journal = CatBesideDdOnExt4();  // ext2: no commits
  std::erase_if(no_journal.records,
                [](const BlockTraceRecord& r) { return r.pid == kCautionsJbd2; });
  EXPECT_EQ(FileSystemWaitsCaution(no_journal), "");
  EXPECT_TRUE(ReplayCautions(no_journal, {.buffered_writers = true}).empty());

  // The writer's own reads do not make it a reader beside itself.
  BlockTrace writer_reads = no_reader;
  writer_reads.records.push_back(
      CautionsRecord(7000000, kCautionsDd, "dd", BlockTraceOp::kRead, 0, 4096, 0));
  EXPECT_EQ(FileSystemWaitsCaution(writer_reads), "");
}

}  // namespace
}  // namespace elevbench
