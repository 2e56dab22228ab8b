// The page-cache evictions: EvictFileFromPageCache (tiobench's read phases rely on it to read
// from the disk) and the forgiving EvictFilesFromPageCache / EvictTreeFromPageCache of the probes.

#include "harness/engine/page_cache.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace elevbench {
namespace {

// Pages of the file's first `bytes` that are in the page cache (mincore over a mapping).
size_t ResidentPages(const std::string& path, size_t bytes) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  void* map = mmap(nullptr, bytes, PROT_READ, MAP_SHARED, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return 0;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> vec((bytes + page - 1) / page);
  size_t resident = 0;
  if (mincore(map, bytes, vec.data()) == 0) {
    for (unsigned char v : vec) resident += v & 1;
  }
  munmap(map, bytes);
  return resident;
}

TEST(PageCacheTest, EvictingAMissingFileIsNothingToDo) {
  testing::ScopedTempDir temp;
  std::string err;
  EXPECT_TRUE(EvictFileFromPageCache(temp.path() + "/absent", &err)) << err;
}

TEST(PageCacheTest, EvictingAFileThatCannotBeOpenedFails) {
  std::string err;
  testing::ScopedTempDir temp;
  const std::string path = temp.path() + "/notadir/file";
  // A path through a regular file: ENOTDIR, not ENOENT.
  const int fd = open((temp.path() + "/notadir").c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  close(fd);
  EXPECT_FALSE(EvictFileFromPageCache(path, &err));
  EXPECT_NE(err.find(path), std::string::npos) << err;
}

TEST(PageCacheTest, EvictedCleanPagesLeaveThePageCache) {
  testing::ScopedTempDir temp("/var/tmp");
  struct statfs fs {};
  ASSERT_EQ(statfs(temp.path().c_str(), &fs), 0);
  if (fs.f_type == TMPFS_MAGIC) GTEST_SKIP() << "tmpfs pages cannot be evicted";
  const std::string path = temp.path() + "/data";
  const size_t bytes = 1 << 20;
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  const std::string block(bytes, 'x');
  ASSERT_EQ(write(fd, block.data(), bytes), static_cast<ssize_t>(bytes));
  ASSERT_EQ(fsync(fd), 0);  // clean pages: DONTNEED drops them at once
  close(fd);
  ASSERT_GT(ResidentPages(path, bytes), 0u) << "just written, so cached";
  std::string err;
  ASSERT_TRUE(EvictFileFromPageCache(path, &err)) << err;
  EXPECT_EQ(ResidentPages(path, bytes), 0u);
}

TEST(PageCacheTest, TheForgivingEvictionsCountWhatTheyAdvisedAndFollowNoSymlink) {
  testing::ScopedTempDir temp;
  const std::string root = temp.path() + "/tree";
  ASSERT_EQ(mkdir(root.c_str(), 0700), 0);
  ASSERT_EQ(mkdir((root + "/sub").c_str(), 0700), 0);
  for (const std::string& name : {root + "/a", root + "/sub/b"}) {
    const int fd = open(name.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    close(fd);
  }
  ASSERT_EQ(symlink((root + "/a").c_str(), (root + "/link").c_str()), 0);
  EXPECT_EQ(EvictTreeFromPageCache(root), 2u);  // a and sub/b, not the link
  EXPECT_EQ(EvictTreeFromPageCache(temp.path() + "/absent"), 0u);
  EXPECT_EQ(EvictFilesFromPageCache({root + "/a", root + "/link", root + "/gone"}), 1u);
}

}  // namespace
}  // namespace elevbench
