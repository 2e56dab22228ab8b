// Which buffer each journal handle changed (handle_buffers.h): the inode table block of its
// inode, from debugfs's own answer, on a file system made here in a file (no root needed).

#include "harness/trace/handle_buffers.h"

#include <gtest/gtest.h>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(HandleBuffersTest, DebugfsOutputGivesEachInodesBlockAndTheBlockSize) {
  const std::string text =
      "debugfs: stats\n"
      "Block size:               4096\n"
      "Inode size:\t          256\n"
      "debugfs: imap <12>\n"
      "Inode 12 is part of block group 0\n"
      "\tlocated at block 1058, offset 0x0b00\n"
      "debugfs: imap <99999999>\n"
      "<99999999>: File not found by ext2_lookup \n"
      "debugfs: imap <40000>\n"
      "Inode 40000 is part of block group 4\n"
      "\tlocated at block 132000, offset 0x0f00\n";
  std::map<uint64_t, uint64_t> block_of;
  uint32_t block_bytes = 0;
  ASSERT_TRUE(ParseDebugfsInodeBlocks(text, &block_of, &block_bytes));
  EXPECT_EQ(block_bytes, 4096u);
  EXPECT_EQ(block_of, (std::map<uint64_t, uint64_t>{{12, 1058}, {40000, 132000}}));
  EXPECT_FALSE(ParseDebugfsInodeBlocks("debugfs: imap <12>\n", &block_of, &block_bytes))
      << "no block size: no ext2/3/4 file system read";
}

// On a real ext4 image: inodes 2 (the root) and 13 share group 0's inode table, 11 inodes of
// 256 bytes apart; a handle without an inode, or with one past the file system's, gets -1.
TEST(HandleBuffersTest, EachHandleGetsItsInodesTableBlockFromDebugfs) {
  if (!ProgramInPath("mkfs.ext4") || !ProgramInPath("debugfs")) {
    ELEVBENCH_SKIP_OR_FAIL_IN_CI("needs e2fsprogs' mkfs.ext4 and debugfs on PATH");
  }
  testing::ScopedTempDir dir;
  const std::string image = dir.path() + "/fs.img";
  ProcessResult run;
  std::string err;
  ASSERT_TRUE(RunProcess(
      {"sh", "-c",
       "truncate -s 64M '" + image + "' && mkfs.ext4 -q -F -b 4096 -I 256 '" + image + "'"},
      {}, &run, &err))
      << err;
  ASSERT_EQ(run.exit_code, 0) << run.error_output;
  std::vector<BlockTraceJournalHandles> handles = {{42, {1, 2, 3, 4}, {2, 13, 0, 99999999}, {}, 0},
                                                   {43, {5}, {}, {}, 0}};
  ASSERT_TRUE(MapHandleBuffers(image, &handles, &err)) << err;
  EXPECT_EQ(handles[0].block_bytes, 4096u);
  ASSERT_EQ(handles[0].buffer_sectors.size(), 4u);
  const int64_t root = handles[0].buffer_sectors[0];
  EXPECT_GT(root, 0);
  EXPECT_EQ(root % 8, 0) << "a 4 KiB block's first sector";
  EXPECT_EQ(handles[0].buffer_sectors[1],
            root + 8 * ((13 - 1) * 256 / 4096 - (2 - 1) * 256 / 4096));
  EXPECT_EQ(handles[0].buffer_sectors[2], -1);
  EXPECT_EQ(handles[0].buffer_sectors[3], -1);
  EXPECT_TRUE(handles[1].buffer_sectors.empty()) << "no inodes: nothing to map";
  // Not a file system debugfs reads: one line, the handles as they were.
  std::vector<BlockTraceJournalHandles> before = handles;
  EXPECT_FALSE(MapHandleBuffers(dir.path() + "/nothing", &handles, &err));
  EXPECT_NE(err.find("debugfs"), std::string::npos) << err;
  EXPECT_EQ(handles, before);
}

}  // namespace
}  // namespace elevbench
