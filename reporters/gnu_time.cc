#include "reporters/gnu_time.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

namespace elevbench {
namespace {

// A time as struct timeval would hold it: whole seconds and microseconds.
struct TimeVal {
  long sec = 0;
  long usec = 0;
};

TimeVal ToTimeVal(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return {};
  seconds = std::min(seconds, 9.0e12);  // keeps seconds · 1e6 inside int64_t
  const int64_t us = std::llround(seconds * 1e6);
  return {static_cast<long>(us / 1000000), static_cast<long>(us % 1000000)};
}

// time 1.7's TV_MSEC: tv_usec / 1000.
long Msec(const TimeVal& tv) { return tv.usec / 1000; }

}  // namespace

std::string GnuTimeSeconds(double seconds) {
  const TimeVal tv = ToTimeVal(seconds);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%ld.%02ld", tv.sec, Msec(tv) / 10);
  return buf;
}

std::string GnuTimeElapsed(double seconds) {
  const TimeVal tv = ToTimeVal(seconds);
  char buf[64];
  if (tv.sec >= 3600) {  // one hour → h:mm:ss
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", tv.sec / 3600, (tv.sec % 3600) / 60,
                  tv.sec % 60);
  } else {  // m:ss.cc
    std::snprintf(buf, sizeof buf, "%ld:%02ld.%02ld", tv.sec / 60, tv.sec % 60, Msec(tv) / 10);
  }
  return buf;
}

std::string GnuTimeCpuPercent(double user_seconds, double system_seconds, double elapsed_seconds) {
  const auto ms = [](double s) {
    const TimeVal tv = ToTimeVal(s);
    return static_cast<unsigned long>(tv.sec) * 1000 + static_cast<unsigned long>(Msec(tv));
  };
  const unsigned long r = ms(elapsed_seconds);
  if (r == 0) return "?%";
  const unsigned long v = ms(user_seconds) + ms(system_seconds);
  return std::to_string(v * 100 / r) + "%";
}

std::string GnuTimeCutLine(double user_seconds, double system_seconds, double elapsed_seconds) {
  return GnuTimeSeconds(user_seconds) + "user " + GnuTimeSeconds(system_seconds) + "system " +
         GnuTimeElapsed(elapsed_seconds) + "elapsed";
}

namespace {

// Negative and non-finite times as 0, huge ones capped (int arithmetic below).
double Sane(double seconds) {
  if (!std::isfinite(seconds) || seconds <= 0) return 0;
  return std::min(seconds, 1.0e9);
}

}  // namespace

std::string ZshElapsed(double seconds) {
  double secs = Sane(seconds);
  int mins = static_cast<int>(secs) / 60;
  const int hours = mins / 60;
  secs -= 60 * mins;
  mins -= 60 * hours;
  char buf[64];
  if (hours) {
    std::snprintf(buf, sizeof buf, "%d:%02d:%05.2f", hours, mins, secs);
  } else if (mins) {
    std::snprintf(buf, sizeof buf, "%d:%05.2f", mins, secs);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f", secs);
  }
  return buf;
}

std::string ZshTimeLine(const std::string& job, double user_seconds, double system_seconds,
                        double elapsed_seconds) {
  const double user = Sane(user_seconds), system = Sane(system_seconds);
  const double elapsed = Sane(elapsed_seconds);
  const int percent =
      elapsed > 0 ? static_cast<int>(std::min(100.0 * (user + system) / elapsed, 1.0e9)) : 0;
  char buf[160];
  std::snprintf(buf, sizeof buf, "%4.2fs user %4.2fs system %d%% cpu ", user, system, percent);
  return (job.empty() ? "" : job + "  ") + buf + ZshElapsed(elapsed) + " total";
}

std::string BashTimeReal(double seconds) {
  const TimeVal tv = ToTimeVal(seconds);
  long sec = tv.sec;
  long ms = tv.usec / 1000 + (tv.usec % 1000 >= 500 ? 1 : 0);
  if (ms >= 1000) {
    sec += 1;
    ms -= 1000;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, "real\t%ldm%ld.%03lds", sec / 60, sec % 60, ms);
  return buf;
}

}  // namespace elevbench
