#pragma once
// A FUSE connection of the run's own (the emulated disk's daemon) and the one way to end it when
// its daemon will not answer: /sys/fs/fuse/connections/N/abort. Requests waiting on an aborted
// connection fail at once (ENOTCONN), so a umount, a syncfs or the loop device's I/O waiting on a
// stopped or deadlocked daemon goes on instead of sleeping in state D until a reboot.
//
// Nothing here stats or reads the FUSE mount in the caller's process: the connection is found in
// /proc/self/mountinfo, and the daemon is asked (statfs) only from a forked child under a
// deadline (process/bounded_call.h).

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "harness/device/restore_journal.h"

namespace elevbench {

/// The fusectl directory where connections are listed by number.
inline constexpr const char* kFuseConnectionsDir = "/sys/fs/fuse/connections";

/// The connection number (fusectl's directory name: the kernel's dev_t of the superblock,
/// major << 20 | minor) of the FUSE filesystem mounted at `mountpoint` in `mountinfo` (the text of
/// /proc/self/mountinfo). False when no fuse or fuseblk filesystem is mounted exactly there.
bool FuseConnectionFromMountinfo(std::string_view mountinfo, const std::string& mountpoint,
                                 unsigned* connection);

/// FuseConnectionFromMountinfo of this process's /proc/self/mountinfo; err when none is there.
[[nodiscard]] bool FuseConnectionOf(const std::string& mountpoint, unsigned* connection,
                                    std::string* err);

/// Aborts connection `connection` (writes 1 to its abort file). When fusectl is not mounted, the
/// write is made from a forked child that mounts it in a private mount namespace, so the host's
/// mounts stay as they are. True when the connection is aborted or already gone.
[[nodiscard]] bool AbortFuseConnection(unsigned connection, std::string* err);

/// Whether the daemon serving `mountpoint` answers a statfs within `seconds` (asked from a forked
/// child; an aborted connection or a dead daemon does not answer).
bool FuseDaemonAnswers(const std::string& mountpoint, double seconds);

/// What UnblockFuseDaemon found and did.
enum class FuseDaemonCheck {
  kGone,       ///< the filesystem is no longer mounted with that connection: nothing to do
  kAnswering,  ///< the daemon answered (after SIGCONT, if it was stopped)
  kAborted,    ///< the daemon did not answer: its connection was aborted
  kFailed,     ///< it did not answer and the abort failed
};

/// The restore's first step for a journaled FUSE connection (JournalEntry::FuseConnection), taken
/// before anything above the daemon is unmounted: a stopped daemon (state T) gets SIGCONT; one
/// that does not answer a statfs within `answer_seconds` gets its connection aborted. Only the
/// connection still mounted at the entry's path with the journaled number is touched, never a
/// reused number. *line says what it found or did.
FuseDaemonCheck UnblockFuseDaemon(const JournalEntry& entry, double answer_seconds,
                                  std::string* line);

/// Aborts the entry's connection if it is still mounted at its path with its number: the stuck-I/O
/// breaker of a journaled connection (core/stuck_io.h). Returns the line saying so, or empty when
/// there was nothing to abort.
std::string AbortJournaledFuseConnection(const JournalEntry& entry);

}  // namespace elevbench
