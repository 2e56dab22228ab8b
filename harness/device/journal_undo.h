#pragma once
// The undo actions of the restore journal: one per entry kind (write a sysfs value back, unmount,
// detach or remove a loop device, stop a process, remove a file, a directory or a cgroup), and
// the loop that applies a journal's entries newest first. restore_journal.cc keeps the journal
// itself (recording, persisting, locking, parsing); this file is what acts on the machine.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/device/restore_journal.h"
#include "harness/device/sysfs.h"

namespace elevbench {

/// What one undo step found: it undid the change, the resource was already gone, or it failed.
enum class UndoOutcome { kDone, kGone, kFailed };

/// "/sys/block/<disk>/queue/nr_requests" -> "<disk>"; empty if the path has another shape.
std::string DiskOfNrRequests(const std::string& path);

/// Reads /proc/<pid>/stat: start time (field 22), comm and state (field 3). False when the
/// process does not exist or the line cannot be parsed.
bool ReadProcStat(pid_t pid, uint64_t* start_time, std::string* comm, char* state);

/// True while `pid` is the same process (its start time matches) and not a zombie.
bool ProcessAlive(pid_t pid, uint64_t start_time);

/// How long a journaled FUSE daemon gets to answer a statfs before its connection is aborted.
inline constexpr double kFuseAnswerSeconds = 3;

/// The restore's first step: UnblockFuseDaemon (fuse_connection.h) for every FUSE connection in
/// `entries`, one log line each.
void UnblockFuseDaemons(const std::vector<JournalEntry>& entries, std::vector<std::string>* log);

/// Undoes `entries` newest first and keeps going past failures; each step appends one line to
/// `log`. First of all UnblockFuseDaemons, and while it runs every journaled FUSE connection is a
/// stuck-I/O breaker (core/stuck_io.h), so a bounded wait that runs out aborts it. Leaves only the
/// failed entries in *entries. Sysfs values and driver tags that fail get a second chance at the
/// end: an iosched tunable comes back once its scheduler is restored. `grace` is how long a
/// recorded process gets between SIGTERM and SIGKILL. False with a summary in err when any step
/// failed.
bool RestoreEntries(const Sysfs& sysfs, std::chrono::milliseconds grace,
                    std::vector<JournalEntry>* entries, std::vector<std::string>* log,
                    std::string* err);

}  // namespace elevbench
