#pragma once
// The `time` output formats of the 2003 posts, in one place (docs/legacy-suites.md §4, §7):
// GNU time 1.7 (`/usr/bin/time`), as Nick Piggin's cat / ls -lr probe lines show it:
// "0.03user 0.13system 5:21.39elapsed"; zsh's `time` keyword, as Andrew Morton's test #1 shows
// it: "0.00s user 0.18s system 2% cpu 6.115 total"; and bash's `time` keyword, as his test #5
// shows it: "real\t6m57.537s". Each follows its shell's or tool's own arithmetic (truncation
// or rounding) so that published lines come out byte for byte.
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

/// zsh's `time` line with its default TIMEFMT "%J  %U user %S system %P cpu %*E total"
/// (zsh 4's printtime): `job` as %J, then user and system time as "%4.2fs" (printf rounding),
/// %P as (int)(100 · (user + system) / elapsed) "%d%%" (truncated; "0%" when elapsed is 0),
/// and %*E as printhhmmss: "%.3f" below a minute ("6.115"), "%d:%05.2f" below an hour
/// ("2:12.00"), "%d:%02d:%05.2f" above. zsh's quirk is kept: the minutes come from the
/// truncated seconds and the rest is rounded by printf, so 119.996 s prints "1:60.00". An empty
/// `job` leaves the two spaces out, as Andrew quoted the lines. No newline.
std::string ZshTimeLine(const std::string& job, double user_seconds, double system_seconds,
                        double elapsed_seconds);

/// zsh's %*E alone (printhhmmss, see ZshTimeLine): "6.115", "2:12.00", "1:02:03.50".
std::string ZshElapsed(double seconds);

/// bash's `time` real line, "real\t%ldm%d.%03ds": minutes, seconds and milliseconds rounded
/// to the nearest (bash's timeval_to_secs, with carry): "real\t6m57.537s", "real\t0m0.000s".
/// No newline.
std::string BashTimeReal(double seconds);

}  // namespace elevbench
