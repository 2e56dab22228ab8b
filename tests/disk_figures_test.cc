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

TEST(DiskFiguresTest, TheOldProfilesClaimNothingHere) {
  for (const char* name : {"ide-2003", "sata-7200", "ssd"}) {
    EXPECT_TRUE(ModelFiguresOf(FiguresProfile(name)).empty()) << name;
  }
}

}  // namespace
}  // namespace elevbench
