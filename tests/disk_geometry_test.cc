// Rotational position (harness/disk/disk_geometry.h): a byte's angle, the platter's phase, the
// wait after a seek.

#include "harness/disk/disk_geometry.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(DiskGeometryTest, ATrackHoldsOneRevolutionAtTheMediaRate) {
  const DiskGeometry g(7200, 205);
  EXPECT_EQ(g.revolution_ns(), 8'333'333);
  // 205e6 bytes/s * 60 / 7200 s = 1 708 333 bytes a track.
  EXPECT_EQ(g.track_bytes(), 1'708'333u);
}

TEST(DiskGeometryTest, AngleRepeatsEveryTrackAndPhaseEveryRevolution) {
  const DiskGeometry g(6000, 100);  // 10 ms a revolution, 1e6 bytes a track.
  ASSERT_EQ(g.track_bytes(), 1'000'000u);
  EXPECT_DOUBLE_EQ(g.AngleOf(0), 0.0);
  EXPECT_DOUBLE_EQ(g.AngleOf(250'000), 0.25);
  EXPECT_DOUBLE_EQ(g.AngleOf(7'250'000), 0.25);  // Track 7, same angle.
  EXPECT_DOUBLE_EQ(g.PhaseAt(0), 0.0);
  EXPECT_DOUBLE_EQ(g.PhaseAt(2'500'000), 0.25);
  EXPECT_DOUBLE_EQ(g.PhaseAt(32'500'000), 0.25);
  EXPECT_DOUBLE_EQ(g.PhaseAt(-7'500'000), 0.25);  // Before the clock's zero too.
}

TEST(DiskGeometryTest, TheWaitIsForTheSectorToComeRound) {
  const DiskGeometry g(6000, 100);
  // The head arrives at phase 0.25: a sector at 0.5 is a quarter turn away, one at 0.25 is
  // under it, one at 0.20 has just passed (almost a whole turn).
  EXPECT_EQ(g.RotationWaitNs(500'000, 2'500'000), 2'500'000);
  EXPECT_EQ(g.RotationWaitNs(250'000, 2'500'000), 0);
  EXPECT_EQ(g.RotationWaitNs(200'000, 2'500'000), 9'500'000);
  // Over uniformly spread arrival times the mean wait is half a revolution.
  double sum = 0;
  constexpr int kN = 1000;
  for (int i = 0; i < kN; ++i) sum += static_cast<double>(g.RotationWaitNs(0, i * 10'000 + 3));
  EXPECT_NEAR(sum / kN, 5e6, 0.01e6);
}

}  // namespace
}  // namespace elevbench
