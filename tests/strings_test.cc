// The shared string helpers (harness/core/strings.h): FormatDouble, the one snprintf of a number
// with its unit that the reporters' phrases are made of.

#include "harness/core/strings.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(FormatDoubleTest, WritesTheOneConversionWithItsText) {
  EXPECT_EQ(FormatDouble("%.2f MB", 1.5), "1.50 MB");
  EXPECT_EQ(FormatDouble("%g", 0.05), "0.05");
  EXPECT_EQ(FormatDouble("%+.1f%%", -2.34), "-2.3%");
  EXPECT_EQ(FormatDouble("%.0f×", 140.4), "140×");
}

TEST(FormatDoubleTest, CutsAtSixtyThreeBytes) { EXPECT_EQ(FormatDouble("%.70f", 1.0).size(), 63u); }

}  // namespace
}  // namespace elevbench
