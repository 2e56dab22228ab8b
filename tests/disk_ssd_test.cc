// An SSD's dies and write buffer (harness/disk/disk_ssd.h), on a virtual clock.

#include "harness/disk/disk_ssd.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

constexpr uint64_t kPage = SsdDies::kPageBytes;

TEST(SsdDiesTest, PagesAreStripedAcrossTheDies) {
  const SsdDies ssd(4, 50'000, 500'000, 0);
  EXPECT_EQ(ssd.DieOf(0), 0);
  EXPECT_EQ(ssd.DieOf(kPage - 1), 0);
  EXPECT_EQ(ssd.DieOf(kPage), 1);
  EXPECT_EQ(ssd.DieOf(5 * kPage), 1);
}

TEST(SsdDiesTest, AReadWaitsForAProgramOnItsDieOnly) {
  SsdDies ssd(4, 50'000, 500'000, 1 << 20);
  EXPECT_EQ(ssd.Program(0, 4096, 1'000, true), 501'000);  // Die 0 busy to 501 us.
  EXPECT_EQ(ssd.Read(kPage, 4096, 2'000), 52'000);        // Die 1: free.
  EXPECT_EQ(ssd.Read(4 * kPage, 4096, 2'000), 551'000);   // Die 0: after the program.
  // A read over two pages reads them on their dies in parallel.
  EXPECT_EQ(ssd.Read(2 * kPage, 2 * kPage, 600'000), 650'000);
}

TEST(SsdDiesTest, TheBufferHoldsDataUntilItIsProgrammed) {
  SsdDies ssd(2, 50'000, 500'000, 8192);
  EXPECT_TRUE(ssd.BufferHasRoom(8192, 0));
  (void)ssd.Program(0, 4096, 0, true);      // Die 0, programmed at 500 us.
  (void)ssd.Program(kPage, 4096, 0, true);  // Die 1, at 500 us.
  EXPECT_FALSE(ssd.BufferHasRoom(4096, 10'000));
  EXPECT_EQ(ssd.BufferRoomAt(4096, 10'000), 500'000);
  EXPECT_EQ(ssd.AllProgrammedAt(10'000), 500'000);
  EXPECT_TRUE(ssd.BufferHasRoom(8192, 500'000));
  EXPECT_EQ(ssd.AllProgrammedAt(700'000), 700'000);
  const SsdDies none(2, 1, 1, 0);
  EXPECT_EQ(none.buffer_bytes(), 0u);
}

}  // namespace
}  // namespace elevbench
