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

TEST(DiskWriteCacheTest, PiecesInAnyOrderMergeIntoOneRun) {
  // A 1 MiB write as eight 128 KiB pieces, as the block layer hands it over, out of order.
  constexpr uint64_t kPiece = 128 * 1024;
  DiskWriteCache cache(4 << 20);
  int64_t t = 100;
  for (uint64_t i : {3, 1, 0, 7, 2, 5, 6, 4}) cache.Insert((1 << 20) + i * kPiece, kPiece, t++);
  ASSERT_EQ(cache.extents().size(), 1u);
  EXPECT_EQ(cache.extents()[0].offset, 1u << 20);
  EXPECT_EQ(cache.extents()[0].length, 1u << 20);
  EXPECT_EQ(cache.extents()[0].cached_ns, 100);  // The oldest piece's time.
  EXPECT_EQ(cache.extents()[0].front_ns, 102);   // Piece 0 came third.
  EXPECT_EQ(cache.used(), 1u << 20);
}

TEST(DiskWriteCacheTest, AWriteFillingAHoleJoinsBothSidesAndKeepsTheOldestPlace) {
  DiskWriteCache cache(1 << 20);
  cache.Insert(1 << 19, 4096, 10);  // Unrelated, oldest.
  cache.Insert(8192, 4096, 20);
  cache.Insert(0, 4096, 30);
  ASSERT_EQ(cache.extents().size(), 3u);
  cache.Insert(4096, 4096, 40);  // Fills the hole between the last two.
  ASSERT_EQ(cache.extents().size(), 2u);
  EXPECT_EQ(cache.extents()[0].offset, 1u << 19);
  EXPECT_EQ(cache.extents()[1].offset, 0u);
  EXPECT_EQ(cache.extents()[1].length, 12288u);
  EXPECT_EQ(cache.extents()[1].cached_ns, 20);
  EXPECT_EQ(cache.extents()[1].front_ns, 30);  // Its front, at 0, came at 30.
  EXPECT_EQ(cache.used(), 16384u);
}

TEST(DiskWriteCacheTest, BytesWrittenTwiceCountOnce) {
  DiskWriteCache cache(1 << 20);
  cache.Insert(0, 8192, 0);
  cache.Insert(4096, 8192, 5);  // Overlaps the second half.
  cache.Insert(0, 4096, 6);     // Inside.
  ASSERT_EQ(cache.extents().size(), 1u);
  EXPECT_EQ(cache.extents()[0].length, 12288u);
  EXPECT_EQ(cache.used(), 12288u);
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
