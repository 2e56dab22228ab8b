// What each of Morton's tests runs, without running it: --tests parsing, the post's sizes and
// their --scale, what is laid out for a selection, and each test's commands and load.

#include "scenarios/morton/morton_plan.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(MortonPlanTest, TestsAreOneToNineEachOnce) {
  std::vector<int> t;
  std::string err;
  ASSERT_TRUE(ParseMortonTests("1,2,3,4,5,6,7,8,9", &t, &err)) << err;
  EXPECT_EQ(t.size(), 9u);
  ASSERT_TRUE(ParseMortonTests("7,1", &t, &err)) << err;
  EXPECT_EQ(t, (std::vector<int>{7, 1}));
  const std::pair<const char*, const char*> bad[] = {
      {"0", "--tests: unknown test '0' (1 to 9)"},
      {"10", "--tests: unknown test '10' (1 to 9)"},
      {"1,x", "--tests: unknown test 'x' (1 to 9)"},
      {"1,,2", "--tests: unknown test '' (1 to 9)"},
      {"1,", "--tests: unknown test '' (1 to 9)"},
      {"3,3", "--tests: 3 is listed twice"},
      {"", "--tests needs at least one test (1 to 9)"},
  };
  for (const auto& [text, message] : bad) {
    t = {5};
    EXPECT_FALSE(ParseMortonTests(text, &t, &err)) << text;
    EXPECT_EQ(err, message);
    EXPECT_EQ(t, std::vector<int>{5});
  }
}

TEST(MortonPlanTest, ThePostsSizesAndTheirScale) {
  const MortonSizes full = MortonSizesFor(1, 142);
  EXPECT_EQ(full.stream_file_bytes, 100u << 20);
  EXPECT_EQ(full.load_file_bytes, 512u << 20);
  EXPECT_EQ(full.write_bytes, 100u << 20);
  EXPECT_EQ(full.tree_bytes, 142'000'000u);
  const MortonSizes small = MortonSizesFor(0.05, 142);
  EXPECT_EQ(small.stream_file_bytes, 5u << 20);
  EXPECT_EQ(small.load_file_bytes, 26u << 20);  // 25.6 MiB rounded to whole MiB
  EXPECT_EQ(small.tree_bytes, 7'100'000u);
  const MortonSizes tiny = MortonSizesFor(0.001, 142);
  EXPECT_EQ(tiny.stream_file_bytes, 1u << 20);  // never below one 1 MiB block
  EXPECT_EQ(tiny.tree_bytes, 1'000'000u);
}

TEST(MortonPlanTest, WhatASelectionLaysOut) {
  MortonNeeds n = MortonNeedsOf({1, 2, 3, 4, 5, 6, 7, 8, 9});
  EXPECT_EQ(n.stream_files, 10);
  EXPECT_EQ(n.trees, 6);
  EXPECT_TRUE(n.load_file);
  EXPECT_TRUE(n.cold_start);
  n = MortonNeedsOf({6});
  EXPECT_EQ(n.stream_files, 1);
  EXPECT_EQ(n.trees, 0);
  EXPECT_TRUE(n.load_file);
  EXPECT_FALSE(n.cold_start);
  n = MortonNeedsOf({4, 8});
  EXPECT_EQ(n.trees, 3);
  EXPECT_EQ(n.stream_files, 0);
  n = MortonNeedsOf({1, 5});
  EXPECT_FALSE(n.load_file);
}

TEST(MortonPlanTest, EachTestsCommandsAndLoad) {
  const MortonPaths p = MortonPathsFor("/t");
  const MortonSizes s = MortonSizesFor(0.05, 142);
  ColdStartProgram cold;
  cold.source = "/usr/bin/ssh";
  cold.args = {"-V"};
  cold.loader = "/t/morton/cold-start/lib/ld.so";
  cold.library_dir = "/t/morton/cold-start/lib";
  cold.binary = "/t/morton/cold-start/bin/ssh";
  cold.bytes = 12345;

  auto t1 = MortonProbesOf(1, p, s, cold);
  ASSERT_EQ(t1.size(), 10u);
  EXPECT_EQ(t1[9].command, "cat 100-meg-file-9 > /dev/null");
  EXPECT_EQ(t1[9].argv, (std::vector<std::string>{"cat", "100-meg-file-9"}));
  EXPECT_EQ(t1[9].working_directory, "/t/morton/streams");
  EXPECT_EQ(t1[9].work_bytes, 5u << 20);

  auto t2 = MortonProbesOf(2, p, s, cold);
  ASSERT_EQ(t2.size(), 1u);
  EXPECT_EQ(t2[0].command, "ssh -V");
  EXPECT_EQ(t2[0].argv[0], cold.loader);
  EXPECT_EQ(t2[0].work_bytes, 12345u);

  auto t4 = MortonProbesOf(4, p, s, cold);
  EXPECT_EQ(t4[0].argv, (std::vector<std::string>{
                            "sh", "-c", "cp -a ./dir-with-three-kernel-trees/ ./new-dir; sync"}));
  EXPECT_EQ(t4[0].working_directory, "/t/morton/trees");

  auto t5 = MortonProbesOf(5, p, s, cold);
  ASSERT_EQ(t5.size(), 6u);
  EXPECT_EQ(t5[0].command, "find kernel-tree-1 -type f | xargs cat > /dev/null");
  EXPECT_EQ(t5[0].working_directory, "/t/morton/trees/dir-with-three-kernel-trees");
  EXPECT_EQ(t5[5].working_directory, "/t/morton/trees");
  EXPECT_EQ(MortonTreeRoot(p, 2), "/t/morton/trees/dir-with-three-kernel-trees/kernel-tree-2");
  EXPECT_EQ(MortonTreeRoot(p, 5), "/t/morton/trees/kernel-tree-5");

  auto t9 = MortonProbesOf(9, p, s, cold);
  EXPECT_EQ(t9[0].command, "dd if=/dev/zero of=outfile bs=1M count=5 conv=fsync");
  EXPECT_EQ(t9[0].working_directory, "/t/morton");

  const char* const loads[] = {"", "", "write", "read", "", "", "write", "write", "read", "read"};
  for (int t = 1; t <= 9; ++t) EXPECT_EQ(MortonLoadDirection(t), loads[t]) << t;
  const StreamSpec reader = MortonLoadStream("read", p, s);
  EXPECT_EQ(reader.rw, "read");
  EXPECT_EQ(reader.filename, "/t/morton/load/512M-file");
  EXPECT_EQ(reader.file_size_bytes, 26u << 20);
  EXPECT_GT(reader.runtime_ms, 0u);  // time-based: loops until stopped
  ASSERT_EQ(reader.extra.size(), 1u);
  EXPECT_EQ(reader.extra[0].first, "invalidate");
  const StreamSpec writer = MortonLoadStream("write", p, s);
  EXPECT_EQ(writer.name, "streaming-writer");
  EXPECT_FALSE(writer.direct);
  EXPECT_TRUE(writer.extra.empty());
}

TEST(MortonPlanTest, DescriptionsSayTheSizes) {
  const MortonSizes s = MortonSizesFor(0.05, 142);
  EXPECT_EQ(MortonDescription(1, s), "ten 5 MB files read at once");
  EXPECT_EQ(MortonDescription(4, s), "cp -a of three 7.1 MB kernel-like trees, then sync");
  EXPECT_EQ(MortonDescription(9, s),
            "5 MB written and fsync'ed during a streaming read (cat loop over a 26 MB file)");
  EXPECT_EQ(MortonDescription(10, s), "");
}

}  // namespace
}  // namespace elevbench
