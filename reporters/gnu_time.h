#pragma once
// The field formats of GNU time 1.7 (`/usr/bin/time`, shared/docs/legacy-suites.md §7), as Nick
// Piggin's cat / ls -lr probe lines show them: "0.03user 0.13system 5:21.39elapsed".
//
// time 1.7 prints from struct timeval: whole seconds, then tv_usec / 1000 / 10 centiseconds, so
// the hundredths are truncated, never rounded. A time given here as double seconds is first
// rounded to the nearest microsecond (the resolution of rusage and gettimeofday), so that
// 0.29 s (0.28999999999999998 as a double) prints "0.29" and 59.999 s prints "0:59.99".
// Negative and non-finite times print as 0.

#include <string>

namespace elevbench {

/// `%U`, `%S` and `%e`: "%ld.%02ld", seconds and truncated centiseconds ("0.03", "321.39").
std::string GnuTimeSeconds(double seconds);

/// `%E`: "%ld:%02ld.%02ld" (m:ss.cc, truncated centiseconds) below an hour, else
/// "%ld:%02ld:%02ld" (h:mm:ss, no fraction): "5:21.39", "59:59.99", "1:00:00".
std::string GnuTimeElapsed(double seconds);

/// `%P`: "%lu%%" of (user ms + system ms) · 100 / elapsed ms, integer-truncated, each time
/// truncated to milliseconds as time 1.7 does; "?%" when the elapsed time is under 1 ms.
std::string GnuTimeCpuPercent(double user_seconds, double system_seconds, double elapsed_seconds);

/// The first three fields of time 1.7's default format, as Nick posted them:
/// "%Uuser %Ssystem %Eelapsed" → "0.03user 0.13system 5:21.39elapsed" (no newline).
std::string GnuTimeCutLine(double user_seconds, double system_seconds, double elapsed_seconds);

}  // namespace elevbench
