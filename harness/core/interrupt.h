#pragma once
// Signal handling for clean shutdown: SIGINT, SIGTERM and SIGHUP set a flag instead of killing
// the process, so every exit path runs the same cleanup (restore sysfs values, tear down scratch
// devices) and keeps the results measured so far. The handler also forwards SIGTERM to every
// registered child process group, so fio loads and probes running at the same time all stop.

#include <sys/types.h>

namespace elevbench {

/// How many child process groups can be registered for forwarding at once.
inline constexpr int kMaxChildGroups = 16;

/// Installs handlers for SIGINT, SIGTERM and SIGHUP (without SA_RESTART, so blocking calls return
/// EINTR) and ignores SIGPIPE. The handler records the signal and sends SIGTERM to every
/// registered child process group. Safe to call more than once.
void InstallInterruptHandlers();

/// True once one of the handled signals arrived.
bool InterruptRequested();

/// The signal that arrived first (0 if none).
int InterruptSignal();

/// Stops the run as a signal would (InterruptRequested() turns true and every registered child
/// group gets SIGTERM) for a fault the run found itself (the emulated disk's daemon died, the
/// loop device was detached). InterruptSignal() stays 0, so the run can tell a fault (exit 1)
/// from a user's signal (exit 130). Thread-safe; not for signal handlers.
void RequestFaultStop();

/// True once RequestFaultStop was called.
bool FaultStopRequested();

/// Adds the process group `pgid` (> 0) to the groups the handler forwards SIGTERM to. Returns
/// false when all kMaxChildGroups slots are taken. Async-signal-safe and thread-safe; a group
/// registered twice takes two slots and needs two UnregisterChildGroup calls. ChildProcess
/// (subprocess.h) registers each child it starts and unregisters it before reaping it, so a
/// forwarded signal never reaches a recycled pid.
[[nodiscard]] bool RegisterChildGroup(pid_t pgid);

/// Removes one registration of `pgid`; does nothing if it is not registered.
void UnregisterChildGroup(pid_t pgid);

/// How many groups are registered now (for tests and diagnostics).
int RegisteredChildGroupCount();

/// Resets the flag; for tests only.
void ResetInterruptForTesting();

}  // namespace elevbench
