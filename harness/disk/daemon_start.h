#pragma once
// Starting the emulated disk's daemon so that it survives a signal to the run and can always be
// stopped: its own session, re-parented to init, and its pid delivered to the caller even when an
// interrupt arrives while it starts.

#include <sys/types.h>

#include <string>
#include <vector>

namespace elevbench {

/// What the daemon's watcher appends to the log when a signal ended the daemon, followed by the
/// signal's number ("elevbench disk daemon: killed by signal 9").
inline constexpr char kDaemonKilledBySignal[] = "elevbench disk daemon: killed by signal ";

/// Starts `argv` (argv[0] a path) as a daemon: in its own session (a terminal's Ctrl-C must not
/// reach it: it has to outlive the loop device on top of it until the journal takes the stack
/// down in order), never the caller's child: its parent is a small watcher process, re-parented
/// to init, that reaps it at once (so /proc/<pid> shows when it exits) and appends how it ended
/// to `log_path` (kDaemonKilledBySignal N, or its exit status), which only a parent can learn;
/// the watcher holds none of the caller's descriptors. stdin /dev/null, stdout and stderr to
/// `log_path` (truncated), default signal dispositions. Sets *pid. A read or wait interrupted by a
/// signal (EINTR: the run's handlers are installed without SA_RESTART) is retried: once forked the
/// daemon runs, and its pid must reach the caller to be journaled, or nothing would stop it (a
/// SIGTERM during the start left a daemon behind that way). False with err when the fork fails.
[[nodiscard]] bool StartDetachedDaemon(const std::vector<std::string>& argv,
                                       const std::string& log_path, pid_t* pid, std::string* err);

}  // namespace elevbench
