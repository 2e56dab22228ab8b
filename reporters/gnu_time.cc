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

}  // namespace elevbench
