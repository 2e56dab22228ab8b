// GNU time 1.7's field formats (shared/docs/legacy-suites.md §7): truncated centiseconds, the
// m:ss.cc / h:mm:ss switch at one hour, and Nick's cut line from the seed posts.

#include "reporters/gnu_time.h"

#include <gtest/gtest.h>

#include <limits>

namespace elevbench {
namespace {

TEST(GnuTimeTest, SecondsAreTruncatedToCentiseconds) {
  EXPECT_EQ(GnuTimeSeconds(0.03), "0.03");
  EXPECT_EQ(GnuTimeSeconds(0.13), "0.13");
  EXPECT_EQ(GnuTimeSeconds(0.039999), "0.03");  // truncated, not rounded
  EXPECT_EQ(GnuTimeSeconds(1.999), "1.99");
  EXPECT_EQ(GnuTimeSeconds(321.39), "321.39");
  EXPECT_EQ(GnuTimeSeconds(0), "0.00");
  EXPECT_EQ(GnuTimeSeconds(5), "5.00");
}

TEST(GnuTimeTest, DoublesBelowTheirDecimalStillPrintIt) {
  // 0.29 is 0.28999999999999998 as a double, 0.57 is 0.56999999999999995; rusage held whole
  // microseconds, so they are rounded to the microsecond before truncating.
  EXPECT_EQ(GnuTimeSeconds(0.29), "0.29");
  EXPECT_EQ(GnuTimeSeconds(0.57), "0.57");
  EXPECT_EQ(GnuTimeSeconds(0.0999995), "0.10");  // rounds to 100000 µs
  EXPECT_EQ(GnuTimeSeconds(0.0999994), "0.09");
}

TEST(GnuTimeTest, ElapsedUnderAnHourIsMinutesSecondsCentiseconds) {
  EXPECT_EQ(GnuTimeElapsed(321.39), "5:21.39");
  EXPECT_EQ(GnuTimeElapsed(14.50), "0:14.50");
  EXPECT_EQ(GnuTimeElapsed(846.45), "14:06.45");
  EXPECT_EQ(GnuTimeElapsed(0), "0:00.00");
  EXPECT_EQ(GnuTimeElapsed(59.999), "0:59.99");
  EXPECT_EQ(GnuTimeElapsed(60), "1:00.00");
  EXPECT_EQ(GnuTimeElapsed(3599.99), "59:59.99");
  EXPECT_EQ(GnuTimeElapsed(3599.999), "59:59.99");
}

TEST(GnuTimeTest, ElapsedFromAnHourIsHoursMinutesSeconds) {
  EXPECT_EQ(GnuTimeElapsed(3600), "1:00:00");
  EXPECT_EQ(GnuTimeElapsed(3600.99), "1:00:00");  // no fraction
  EXPECT_EQ(GnuTimeElapsed(3661.5), "1:01:01");
  EXPECT_EQ(GnuTimeElapsed(36000 + 59 * 60 + 59), "10:59:59");
  EXPECT_EQ(GnuTimeElapsed(100 * 3600), "100:00:00");
}

TEST(GnuTimeTest, NegativeAndNonFiniteTimesPrintAsZero) {
  EXPECT_EQ(GnuTimeSeconds(-1), "0.00");
  EXPECT_EQ(GnuTimeElapsed(-0.5), "0:00.00");
  EXPECT_EQ(GnuTimeSeconds(std::numeric_limits<double>::quiet_NaN()), "0.00");
  EXPECT_EQ(GnuTimeElapsed(std::numeric_limits<double>::infinity()), "0:00.00");
}

TEST(GnuTimeTest, CpuPercentIsTruncatedAndUnknownForZeroElapsed) {
  EXPECT_EQ(GnuTimeCpuPercent(0.03, 0.13, 321.39), "0%");
  EXPECT_EQ(GnuTimeCpuPercent(0.18, 0.31, 0.98), "50%");
  EXPECT_EQ(GnuTimeCpuPercent(0.5, 0.499, 1.0), "99%");
  EXPECT_EQ(GnuTimeCpuPercent(1, 1, 1), "200%");
  EXPECT_EQ(GnuTimeCpuPercent(0.1, 0.1, 0), "?%");
  EXPECT_EQ(GnuTimeCpuPercent(0.1, 0.1, 0.0004), "?%");  // under 1 ms
}

TEST(GnuTimeTest, CutLinesOfTheSeed) {
  // Every probe row of the 27 Mar 2003 post, from its published values.
  struct Row {
    double user, system, elapsed;
    const char* line;
  };
  const Row rows[] = {
      {0.03, 0.13, 321.39, "0.03user 0.13system 5:21.39elapsed"},
      {0.02, 0.14, 14.50, "0.02user 0.14system 0:14.50elapsed"},
      {0.01, 0.13, 292.79, "0.01user 0.13system 4:52.79elapsed"},
      {0.03, 0.14, 846.45, "0.03user 0.14system 14:06.45elapsed"},
      {0.02, 0.14, 16.33, "0.02user 0.14system 0:16.33elapsed"},
      {0.18, 0.31, 24.32, "0.18user 0.31system 0:24.32elapsed"},
      {0.19, 0.32, 9.39, "0.19user 0.32system 0:09.39elapsed"},
      {0.18, 0.29, 23.76, "0.18user 0.29system 0:23.76elapsed"},
      {0.23, 0.34, 73.90, "0.23user 0.34system 1:13.90elapsed"},
      {0.18, 0.32, 5.49, "0.18user 0.32system 0:05.49elapsed"},
      {0.20, 0.33, 47.19, "0.20user 0.33system 0:47.19elapsed"},
  };
  for (const Row& r : rows) EXPECT_EQ(GnuTimeCutLine(r.user, r.system, r.elapsed), r.line);
}

TEST(GnuTimeTest, CutLineOfALongProbe) {
  EXPECT_EQ(GnuTimeCutLine(1.5, 12.25, 4000.5), "1.50user 12.25system 1:06:40elapsed");
}

}  // namespace
}  // namespace elevbench
