#pragma once
// A system call that may block on the emulated disk (umount2, syncfs, fsync of a device), run
// under a deadline. The call runs in a forked child, so the caller's own thread never sleeps in
// state D: the caller polls the child, and when the deadline passes it breaks the stuck I/O
// (core/stuck_io.h: aborts the disk's FUSE connection), waits a little more, and at worst
// abandons the child with a one-line error. fork() of a threaded process is fine here: the child
// only makes the call and exits.

#include <sys/types.h>

#include <functional>
#include <string>

namespace elevbench {

/// The deadlines of one bounded call.
struct BoundedCallLimits {
  /// Seconds the call may take before the stuck I/O is broken (BreakStuckIo).
  double deadline_seconds = 30;
  /// Seconds it gets after that before it is abandoned.
  double after_break_seconds = 10;
  /// Whether to call BreakStuckIo at the deadline; false for a probe whose caller decides what a
  /// silent daemon means (and for the breakers' own calls).
  bool break_stuck_io = true;
};

/// Runs `call` in a forked child (every signal blocked, no descriptor of the caller's but 0-2,
/// dies with the caller) and waits for it
/// within `limits`. `call` returns 0 or an errno value and may only make system calls on data
/// prepared before (no allocation, no locks: it runs in a fork of a threaded process). True when
/// the call returned: *call_error gets its result. False with err "<what> did not finish within
/// S s (…)" when it had to be abandoned, or "<what>: fork: …" when no child could be made.
/// `what` names the call in messages ("umount /mnt/x").
[[nodiscard]] bool RunBounded(const std::string& what, const std::function<int()>& call,
                              const BoundedCallLimits& limits, int* call_error, std::string* err);

/// Polls the child `pid` (non-blocking waitpid, sleeping 1 to 50 ms between looks) until it has
/// exited or `seconds` pass. True once reaped (*status filled), or when `pid` is no child of this
/// process any more; false when the time ran out.
bool ReapChildWithin(pid_t pid, double seconds, int* status);

/// Flushes one filesystem (syncfs of a descriptor of `path`) or, for a block device, its dirty
/// pages (fsync), under `limits`: the cache drop's sync, never the whole machine's. err names
/// the path on failure.
[[nodiscard]] bool SyncPathBounded(const std::string& path, const BoundedCallLimits& limits,
                                   std::string* err);

/// umount2(path, flags) under `limits`; *call_error as RunBounded.
[[nodiscard]] bool UnmountBounded(const std::string& path, int flags,
                                  const BoundedCallLimits& limits, int* call_error,
                                  std::string* err);

}  // namespace elevbench
