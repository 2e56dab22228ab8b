#pragma once
// The way out of a wait that cannot end by itself. A process waiting on the emulated disk whose
// FUSE daemon stopped answering (stopped by a signal, under a debugger, deadlocked) sleeps in
// state D: no signal ends it, and only aborting the FUSE connection
// (/sys/fs/fuse/connections/N/abort) fails its requests and lets it go on. Whoever owns such a
// disk registers a breaker that aborts its connection; every bounded wait of the harness (a child
// after SIGKILL, umount, syncfs: process/bounded_call.h) calls BreakStuckIo when its deadline
// passes, then waits a little more. The core layer knows nothing of FUSE: a breaker is a callback.

#include <functional>
#include <string>

namespace elevbench {

/// Does what it can to unblock I/O stuck on a device the caller owns. Returns one line saying
/// what it did ("aborted the FUSE connection 45 of the emulated disk"), or empty when it had
/// nothing to do (its device is already gone). Must not block; runs on the caller's thread.
using StuckIoBreaker = std::function<std::string()>;

/// Registers `breaker` for the life of the returned token (> 0). Thread-safe.
int RegisterStuckIoBreaker(StuckIoBreaker breaker);

/// Removes the breaker of `token`; unknown tokens are ignored. Thread-safe.
void UnregisterStuckIoBreaker(int token);

/// Called when `what` ("umount /var/tmp/elevbench-x/mnt", "pid 42 (fio) after SIGKILL") did not
/// finish within its deadline: runs every registered breaker and prints one line per breaker that
/// acted on stderr ("elevbench: <what> did not finish within S s: <breaker's line>"). Returns how
/// many acted. Thread-safe; breakers run outside the registry's lock.
int BreakStuckIo(const std::string& what, double waited_seconds);

/// RAII registration of one breaker.
class ScopedStuckIoBreaker {
 public:
  explicit ScopedStuckIoBreaker(StuckIoBreaker breaker)
      : token_(RegisterStuckIoBreaker(std::move(breaker))) {}
  ~ScopedStuckIoBreaker() { UnregisterStuckIoBreaker(token_); }
  ScopedStuckIoBreaker(const ScopedStuckIoBreaker&) = delete;
  ScopedStuckIoBreaker& operator=(const ScopedStuckIoBreaker&) = delete;

 private:
  int token_;
};

}  // namespace elevbench
