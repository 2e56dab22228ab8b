#pragma once
// Signal handling for clean shutdown: SIGINT, SIGTERM and SIGHUP set a flag instead of killing
// the process, so every exit path runs the same cleanup (restore sysfs values, tear down scratch
// devices) and keeps the results measured so far.

#include <sys/types.h>

namespace elevbench {

/// Installs handlers for SIGINT, SIGTERM and SIGHUP (without SA_RESTART, so blocking calls return
/// EINTR). The handler records the signal and forwards SIGTERM to the registered child process
/// group, so a long fio run stops promptly. Safe to call more than once.
void InstallInterruptHandlers();

/// True once one of the handled signals arrived.
bool InterruptRequested();

/// The signal that arrived first (0 if none).
int InterruptSignal();

/// Registers the process group whose leader is `pid` as the one to forward signals to (0 clears).
/// The subprocess layer calls this around every child it waits for.
void SetForegroundChild(pid_t pid);

/// Resets the flag; for tests only.
void ResetInterruptForTesting();

}  // namespace elevbench
