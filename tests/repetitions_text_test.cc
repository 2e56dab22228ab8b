// How the text layouts say what a row is made of (reporters/repetitions_text.h): the means line
// above the tables, the mark on a short row, and the one wording of how many repetitions did not
// finish that the probes', command's, contest's and morton's notes share (issue 60 §6).

#include "reporters/repetitions_text.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(RepetitionsTextTest, HowManyIsBareForASingleRepetition) {
  EXPECT_EQ(HowManyText(1, 1, "DNF"), "DNF");
  EXPECT_EQ(HowManyText(1, 1, "failed", "runs"), "failed");
}

TEST(RepetitionsTextTest, HowManyCountsInTheSuitesWord) {
  EXPECT_EQ(HowManyText(2, 3, "DNF"), "2 of 3 repetitions DNF");
  EXPECT_EQ(HowManyText(1, 5, "failed"), "1 of 5 repetitions failed");
  EXPECT_EQ(HowManyText(2, 3, "DNF", "runs"), "2 of 3 runs DNF");  // contest's posts
}

TEST(RepetitionsTextTest, MeansLineOnlyWhenARowAveragesSeveral) {
  EXPECT_EQ(MeansLine({1, 1}, "x"), "");
  EXPECT_EQ(MeansLine({3, 3}, ""), "(means of 3 repetitions)\n");
  EXPECT_EQ(MeansLine({3, 5}, "IO Rate is a harmonic mean"),
            "(means of 3 to 5 repetitions; IO Rate is a harmonic mean)\n");
}

TEST(RepetitionsTextTest, ShortRowMarkOnlyBelowTheRequestedCount) {
  EXPECT_EQ(ShortRowMark(2, 3), " (n=2 of 3)");
  EXPECT_EQ(ShortRowMark(3, 3), "");
  EXPECT_EQ(ShortRowMark(2, 0), "");  // requested unknown
}

}  // namespace
}  // namespace elevbench
