// The vi-style save of seed 003: the new text ends up under the old name in a new file (the old
// inode, still reachable through a second link, keeps the old text), nothing is left beside it,
// every step is timed, and a failed save leaves the old file as it was.

#include "scenarios/visave/vi_save.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace elevbench {
namespace {

ino_t InodeOf(const std::string& path) {
  struct stat st {};
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_ino;
}

TEST(ViSaveTest, ContentIs200BytesOfTextWithAsEndingInANewline) {
  const std::string c = ViSaveContent();
  EXPECT_EQ(c.size(), 200u);
  EXPECT_EQ(c.back(), '\n');
  EXPECT_NE(c.find('a'), std::string::npos);
  EXPECT_EQ(ViSaveContent(7).size(), 7u);
}

TEST(ViSaveTest, WritesANewFileAndRenamesItOverTheOld) {
  testing::ScopedTempDir dir;
  const std::string path = dir.path() + "/somefile";
  const std::string old_link = dir.path() + "/old-link";
  std::ofstream(path) << "old text\n";
  ASSERT_EQ(link(path.c_str(), old_link.c_str()), 0);
  const ino_t before = InodeOf(path);

  SaveTiming t;
  std::string err;
  ASSERT_TRUE(ViStyleSave(path, ViSaveContent(), &t, &err)) << err;
  EXPECT_EQ(testing::ReadTestFile(path), ViSaveContent());
  EXPECT_NE(InodeOf(path), before);  // a new file took the name (rename), not a rewrite
  EXPECT_EQ(testing::ReadTestFile(old_link), "old text\n");
  EXPECT_FALSE(std::filesystem::exists(ViSaveTempPath(path)));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            2);

  EXPECT_GT(t.wall_seconds, 0);
  EXPECT_GT(t.fsync_seconds, 0);
  EXPECT_GE(t.write_seconds, 0);
  EXPECT_GE(t.rename_seconds, 0);
  EXPECT_NEAR(t.wall_seconds, t.write_seconds + t.fsync_seconds + t.rename_seconds, 1e-6);
  EXPECT_GE(t.user_seconds + t.system_seconds, 0);
}

TEST(ViSaveTest, SavesWhenTheFileDoesNotExistYetAndRemovesALeftoverTempFile) {
  testing::ScopedTempDir dir;
  const std::string path = dir.path() + "/new";
  std::ofstream(ViSaveTempPath(path)) << "left by an interrupted save";
  SaveTiming t;
  std::string err;
  ASSERT_TRUE(ViStyleSave(path, "abc\n", &t, &err)) << err;
  EXPECT_EQ(testing::ReadTestFile(path), "abc\n");
  EXPECT_FALSE(std::filesystem::exists(ViSaveTempPath(path)));
}

TEST(ViSaveTest, AFailedSaveNamesTheStepAndLeavesTheOldFile) {
  testing::ScopedTempDir dir;
  SaveTiming t;
  t.wall_seconds = 42;
  std::string err;
  const std::string missing = dir.path() + "/no-such-dir/somefile";
  EXPECT_FALSE(ViStyleSave(missing, "x\n", &t, &err));
  EXPECT_EQ(err.rfind("create " + ViSaveTempPath(missing) + ": ", 0), 0u) << err;
  EXPECT_EQ(t.wall_seconds, 42);  // untouched

  // The target name is a non-empty directory: the rename fails, the new file is removed.
  const std::string busy = dir.path() + "/busy";
  std::filesystem::create_directories(busy + "/inside");
  EXPECT_FALSE(ViStyleSave(busy, "x\n", &t, &err));
  EXPECT_EQ(err.rfind("rename ", 0), 0u) << err;
  EXPECT_TRUE(std::filesystem::is_directory(busy + "/inside"));
  EXPECT_FALSE(std::filesystem::exists(ViSaveTempPath(busy)));
}

}  // namespace
}  // namespace elevbench
