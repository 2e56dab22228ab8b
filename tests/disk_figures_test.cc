// Each new profile's published figures, measured on the model on a virtual clock
// (harness/disk/disk_figures.h): every figure a profile claims within 10 %.

#include "harness/disk/disk_figures.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace elevbench {
namespace {

DiskProfile FiguresProfile(const std::string& name) {
  DiskProfile p;
  std::string err;
  EXPECT_TRUE(LookupDiskProfile(name, &p, &err)) << err;
  return p;
}

class DiskFiguresClaimTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DiskFiguresClaimTest, EveryClaimedFigureWithinTenPercent) {
  const DiskProfile p = FiguresProfile(GetParam());
  const std::vector<ModelFigure> figures = ModelFiguresOf(p);
  ASSERT_FALSE(figures.empty());
  for (const ModelFigure& f : figures) {
    ASSERT_GT(f.published, 0) << f.figure;
    const double ratio = f.model / f.published;
    RecordProperty(f.figure, std::to_string(f.model) + " " + f.unit + " (published " +
                                 std::to_string(f.published) + ")");
    if (!f.claimed) {
      EXPECT_FALSE(f.note.empty()) << f.figure;
      continue;
    }
    EXPECT_NEAR(ratio, 1.0, 0.10) << GetParam() << ": " << f.figure << " model " << f.model << " "
                                  << f.unit << ", published " << f.published;
  }
}

INSTANTIATE_TEST_SUITE_P(TodaysDrives, DiskFiguresClaimTest,
                         ::testing::Values("hus728t8", "st2000dm006", "870evo", "pm883"));

TEST(DiskFiguresTest, TheHardDisksClaimWhatTheIssueAsks) {
  // At least QD1 and QD32 random read, sequential read, and (st2000dm006) the flush after 64.
  for (const char* name : {"hus728t8", "st2000dm006"}) {
    std::string claimed;
    for (const ModelFigure& f : ModelFiguresOf(FiguresProfile(name))) {
      if (f.claimed) claimed += f.figure + ";";
    }
    EXPECT_NE(claimed.find("random read, QD1"), std::string::npos) << name;
    EXPECT_NE(claimed.find("random read, QD32"), std::string::npos) << name;
    EXPECT_NE(claimed.find("sequential read"), std::string::npos) << name;
  }
  bool flush64 = false;
  for (const ModelFigure& f : ModelFiguresOf(FiguresProfile("st2000dm006"))) {
    flush64 |= f.claimed && f.figure.find("after 64") != std::string::npos;
  }
  EXPECT_TRUE(flush64);
}

TEST(DiskFiguresTest, AFlushTakesAboutTheDestageOfItsWrites) {
  const DiskProfile p = FiguresProfile("st2000dm006");
  const double after8 = ModelFlushAfterMs(p, 8);
  const double after64 = ModelFlushAfterMs(p, 64);
  // Roughly proportional to the writes: each needs its own positioning.
  EXPECT_GT(after64, 5 * after8);
  EXPECT_LT(after64, 10 * after8);
  // Without a write cache there is nothing to flush.
  DiskProfile off = p;
  off.write_cache_bytes = 0;
  EXPECT_EQ(ModelFlushAfterMs(off, 64), 0.0);
}

// Issue 59's block-layer calibration: a 1 MiB write reaches the drive as eight 128 KiB pieces,
// several in flight, out of order, a FUSE round trip apart. The cache merges them into one run
// and destages it as one: the media rate, as a whole 1 MiB write gives.
TEST(DiskFiguresTest, ASequentialStreamInPiecesIsDestagedAsOneRun) {
  constexpr uint64_t kMiB = 1024 * 1024;
  for (const char* name : {"st2000dm006", "hus728t8"}) {
    const DiskProfile p = FiguresProfile(name);
    const double whole = ModelSequentialMBps(p, true, kMiB, 256 * kMiB);
    EXPECT_NEAR(whole, p.write_mbps, 0.02 * p.write_mbps) << name;
    for (const int in_flight : {1, 8, 32}) {
      for (const bool shuffled : {false, true}) {
        const WritePieces pieces{.request_bytes = kMiB,
                                 .piece_bytes = 128 * 1024,
                                 .in_flight = in_flight,
                                 .gap_ns = 45'000,
                                 .shuffled = shuffled};
        EXPECT_NEAR(ModelSequentialPiecesMBps(p, pieces, 256 * kMiB), whole, 0.03 * whole)
            << name << " in flight " << in_flight << (shuffled ? " shuffled" : " in order");
      }
    }
  }
}

// The published 124 IOPS is over 30 s: the 3 MiB cache absorbs a burst (768 writes), then the
// destage sets the rate. Over 10 s the burst weighs three times as much (disk calibrate's
// default --runtime 10 measured 174.9 through the block layer).
TEST(DiskFiguresTest, RandomWritesAreTheCachesBurstThenTheDestageRate) {
  const DiskProfile p = FiguresProfile("st2000dm006");
  const double over10 = ModelRandomWriteIops(p, 10);
  const double over30 = ModelRandomWriteIops(p, 30);
  const double over120 = ModelRandomWriteIops(p, 120);
  EXPECT_NEAR(over30, 124, 12.4);
  EXPECT_NEAR(over10, 174.9, 17.5);
  EXPECT_GT(over30, over120);
  // The burst is the cache's 768 blocks: the rest is one destage rate.
  const double burst = p.write_cache_bytes / 4096.0;
  const double steady = (over120 * 120 - burst) / 120;
  EXPECT_NEAR((burst + steady * 30) / 30, over30, 0.03 * over30);
}

TEST(DiskFiguresTest, TheOldProfilesClaimNothingHere) {
  for (const char* name : {"ide-2003", "sata-7200", "ssd"}) {
    EXPECT_TRUE(ModelFiguresOf(FiguresProfile(name)).empty()) << name;
  }
}

}  // namespace
}  // namespace elevbench
