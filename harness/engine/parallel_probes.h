#pragma once
// Several foreground probes started together (Andrew Morton's 2003 tests #1 and #5: ten `cat`s,
// six `find | xargs cat` started with `&` in one shell loop). Each probe is its own child
// (fork/exec, own process group), timed from just before its fork to its reap with wait4's
// rusage, and stopped at its own timeout (DNF) without stopping the others. No probe outlives
// the call: on every return path every started child has been reaped.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "harness/process/subprocess.h"

namespace elevbench {

/// One probe of a group.
struct ParallelProbeSpec {
  std::vector<std::string> argv;          ///< the command (argv[0] searched in PATH)
  std::string working_directory;          ///< where it runs; empty = inherit
  std::string stdout_path = "/dev/null";  ///< where its output goes
  double timeout_seconds = 0;             ///< 0 = none; past it this probe is killed: DNF
};

/// What one probe of a group did.
struct ParallelProbeOutcome {
  ProcessResult process;            ///< rusage, wall time (its own fork to its reap), exit
  bool dnf = false;                 ///< killed at its timeout
  uint64_t bytes_read = 0;          ///< read() bytes (/proc/<pid>/io rchar), last sample
  double start_offset_seconds = 0;  ///< when it was started, after the first probe's start
  pid_t pid = 0;                    ///< its pid (= its process group), reaped by now
};

/// The most probes of one group: the interrupt handler forwards signals to 16 process groups and
/// a background load may hold one of them.
inline constexpr size_t kMaxParallelProbes = 12;

/// Starts every probe, one fork right after the other before any is waited for, then waits for
/// all of them, sampling each one's read bytes every 50 ms and stopping each at its own timeout
/// (SIGTERM, SIGKILL after 2 s). An interrupt (interrupt.h) stops them all. outcomes get one
/// entry per probe, in the order of `probes`. False with err when there are no probes or more
/// than kMaxParallelProbes, when a probe could not be started (the ones already started are
/// stopped and reaped first) or could not be waited for; a probe that exits non-zero is a true
/// return (its exit status is in its outcome).
[[nodiscard]] bool RunParallelProbes(const std::vector<ParallelProbeSpec>& probes,
                                     std::vector<ParallelProbeOutcome>* outcomes, std::string* err);

}  // namespace elevbench
