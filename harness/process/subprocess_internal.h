#pragma once
// Internals shared by the subprocess units (spawn, ChildProcess, run); not part of the API. See
// subprocess.h for the contracts.

#include <sys/types.h>
#include <time.h>

#include <cstring>
#include <string>
#include <vector>

#include "harness/process/subprocess.h"

namespace elevbench::subprocess_internal {

/// CLOCK_MONOTONIC in seconds: the clock of a child's wall time.
inline double MonotonicSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) / 1e9;
}

inline std::string Errno(int e) { return strerror(e); }

/// A child that is executing: its pid (= its process group, registered for signal forwarding),
/// the time just before the fork, and the non-blocking read ends of its captured stdout and
/// stderr (-1 when not captured). The caller owns the descriptors.
struct SpawnedChild {
  pid_t pid = 0;
  double started_at = 0;
  int out_fd = -1;
  int err_fd = -1;
};

/// Opens the child's descriptors, forks and execs argv (searched in PATH) with `options`, and
/// waits for the exec's report. True once the program is executing; false with *err, every
/// descriptor closed and any forked child reaped, when it did not start (the messages of
/// ChildProcess::Start).
bool SpawnChild(const std::vector<std::string>& argv, const ProcessOptions& options,
                SpawnedChild* child, std::string* err);

}  // namespace elevbench::subprocess_internal
