// The write cache's dirty extents (harness/disk/disk_write_cache.h).

#include "harness/disk/disk_write_cache.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(DiskWriteCacheTest, ContiguousWritesMergeIntoOneRun) {
  DiskWriteCache cache(1 << 20);
  cache.Insert(4096, 4096, 10);
  cache.Insert(1 << 19, 4096, 20);
  cache.Insert(8192, 4096, 30);  // Continues the first.
  ASSERT_EQ(cache.extents().size(), 2u);
  EXPECT_EQ(cache.extents()[0].offset, 4096u);
  EXPECT_EQ(cache.extents()[0].length, 8192u);
  EXPECT_EQ(cache.extents()[0].cached_ns, 10);  // Its first bytes' time.
  EXPECT_EQ(cache.used(), 12288u);
  EXPECT_TRUE(cache.HasRoomFor((1 << 20) - 12288));
  EXPECT_FALSE(cache.HasRoomFor((1 << 20) - 12287));
}

TEST(DiskWriteCacheTest, TakeFrontDestagesAPieceAndKeepsTheRest) {
  DiskWriteCache cache(1 << 20);
  cache.Insert(0, 65536, 0);
  cache.Insert(1 << 19, 4096, 5);
  const DirtyExtent piece = cache.TakeFront(0, 16384);
  EXPECT_EQ(piece.offset, 0u);
  EXPECT_EQ(piece.length, 16384u);
  ASSERT_EQ(cache.extents().size(), 2u);
  EXPECT_EQ(cache.extents()[0].offset, 16384u);
  EXPECT_EQ(cache.used(), 65536u - 16384u + 4096u);
  (void)cache.TakeFront(1, 1 << 20);
  (void)cache.TakeFront(0, 1 << 20);
  EXPECT_TRUE(cache.empty());
  EXPECT_EQ(cache.used(), 0u);
}

}  // namespace
}  // namespace elevbench
