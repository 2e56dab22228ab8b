// The time formats of the posts (docs/legacy-suites.md §4, §7): GNU time 1.7's fields
// (truncated centiseconds, the m:ss.cc / h:mm:ss switch at one hour, Nick's cut line), zsh's
// `time` line of Andrew Morton's test #1 and bash's `real` line of his test #5, each checked
// against every line the posts published.

#include "reporters/gnu_time.h"

#include <gtest/gtest.h>

#include <limits>
#include <utility>

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

// Every time line of Andrew Morton's test #1 (seed 002, 20 Feb 2003), from its printed values.
TEST(ZshTimeTest, LinesOfAndrewMortonsParallelReads) {
  struct Row {
    double user, system, elapsed;
    const char* line;
  };
  const Row rows[] = {
      {0.00, 0.18, 6.115, "0.00s user 0.18s system 2% cpu 6.115 total"},
      {0.02, 0.22, 14.312, "0.02s user 0.22s system 1% cpu 14.312 total"},
      {0.01, 0.16, 37.007, "0.01s user 0.16s system 0% cpu 37.007 total"},
      {0.01, 0.16, 132.00, "0.01s user 0.16s system 0% cpu 2:12.00 total"},
      {0.01, 0.15, 132.12, "0.01s user 0.15s system 0% cpu 2:12.12 total"},
      {0.01, 0.19, 133.51, "0.01s user 0.19s system 0% cpu 2:13.51 total"},
      {0.01, 0.16, 50.778, "0.01s user 0.16s system 0% cpu 50.778 total"},
      {0.01, 0.16, 51.067, "0.01s user 0.16s system 0% cpu 51.067 total"},
      {0.01, 0.18, 92.34, "0.01s user 0.18s system 0% cpu 1:32.34 total"},
      {0.01, 0.17, 27.995, "0.01s user 0.17s system 0% cpu 27.995 total"},
      {0.01, 0.18, 30.550, "0.01s user 0.18s system 0% cpu 30.550 total"},
      {0.01, 0.16, 34.832, "0.01s user 0.16s system 0% cpu 34.832 total"},
  };
  for (const Row& r : rows) EXPECT_EQ(ZshTimeLine("", r.user, r.system, r.elapsed), r.line);
  EXPECT_EQ(ZshTimeLine("cat 100-meg-file-0 > /dev/null", 0, 0.18, 6.115),
            "cat 100-meg-file-0 > /dev/null  0.00s user 0.18s system 2% cpu 6.115 total");
}

TEST(ZshTimeTest, ElapsedSwitchesAtTheMinuteAndTheHourAndKeepsZshsQuirk) {
  EXPECT_EQ(ZshElapsed(0), "0.000");
  EXPECT_EQ(ZshElapsed(59.9994), "59.999");
  EXPECT_EQ(ZshElapsed(60), "1:00.00");
  EXPECT_EQ(ZshElapsed(61.5), "1:01.50");
  EXPECT_EQ(ZshElapsed(3723.5), "1:02:03.50");
  EXPECT_EQ(ZshElapsed(119.996), "1:60.00");  // zsh: minutes truncated, seconds rounded
  EXPECT_EQ(ZshElapsed(-1), "0.000");
  EXPECT_EQ(ZshElapsed(std::numeric_limits<double>::quiet_NaN()), "0.000");
}

TEST(ZshTimeTest, CpuPercentIsTruncatedAndZeroWithoutElapsedTime) {
  EXPECT_EQ(ZshTimeLine("", 0.5, 0.499, 1), "0.50s user 0.50s system 99% cpu 1.000 total");
  EXPECT_EQ(ZshTimeLine("", 0.1, 0.1, 0), "0.10s user 0.10s system 0% cpu 0.000 total");
  EXPECT_EQ(ZshTimeLine("", 1.5, 0.5, 1), "1.50s user 0.50s system 200% cpu 1.000 total");
}

// Every `real` value of Andrew Morton's test #5 (seed 002), including the Orlov rerun.
TEST(BashTimeTest, RealLinesOfAndrewMortonsSixReaders) {
  const std::pair<double, const char*> rows[] = {
      {417.537, "real\t6m57.537s"}, {417.916, "real\t6m57.916s"}, {220.188, "real\t3m40.188s"},
      {236.791, "real\t3m56.791s"}, {315.932, "real\t5m15.932s"}, {350.602, "real\t5m50.602s"},
      {44.573, "real\t0m44.573s"},  {53.087, "real\t0m53.087s"},  {372.767, "real\t6m12.767s"},
      {373.085, "real\t6m13.085s"},
  };
  for (const auto& [seconds, line] : rows) EXPECT_EQ(BashTimeReal(seconds), line);
}

TEST(BashTimeTest, MillisecondsAreRoundedWithCarry) {
  EXPECT_EQ(BashTimeReal(0), "real\t0m0.000s");
  EXPECT_EQ(BashTimeReal(1.0004), "real\t0m1.000s");
  EXPECT_EQ(BashTimeReal(1.0005), "real\t0m1.001s");  // bash rounds, GNU time truncates
  EXPECT_EQ(BashTimeReal(59.9996), "real\t1m0.000s");
  EXPECT_EQ(BashTimeReal(3600), "real\t60m0.000s");  // no hours in bash's %lR
  EXPECT_EQ(BashTimeReal(-3), "real\t0m0.000s");
}

}  // namespace
}  // namespace elevbench
