#pragma once
// A crash-safe undo journal for everything a run changes or creates on the machine.
//
// blktests saves a queue attribute once, before its first change, and restores it on every
// exit path; mmtests and fio never restore, so a crashed run leaves the disk on the wrong
// scheduler. Here the caller records an entry *before* changing a value (or right after creating
// a resource); the entry is on disk, written atomically, before the change happens. A run that
// ends normally calls RestoreAll(); a run that dies leaves the journal behind, and the next run
// (or `elevbench restore`) applies it with ApplyLeftoverJournal(). An exclusive lock in the state
// directory keeps two runs from interleaving their changes.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "harness/device/journal_file.h"
#include "harness/device/sysfs.h"

namespace elevbench {

/// Reads /proc/<pid>/stat: start time (field 22, clock ticks since boot) and comm. Fails when
/// the process does not exist.
[[nodiscard]] bool ReadProcessIdentity(pid_t pid, uint64_t* start_time, std::string* comm,
                                       std::string* err);

/// $ELEVBENCH_STATE_DIR if set; /var/lib/elevbench for root; otherwise
/// $XDG_STATE_HOME/elevbench or ~/.local/state/elevbench.
std::string DefaultStateDir();

/// The journal of one run. Not thread-safe; one per process.
class RestoreJournal {
 public:
  /// File names inside the state directory.
  static constexpr const char* kJournalFile = "journal.json";
  static constexpr const char* kLockFile = "lock";

  /// `sysfs` decides where sysfs_value entries are written back (a fake tree in tests).
  explicit RestoreJournal(Sysfs sysfs = Sysfs());
  /// Releases the lock but does NOT restore: dropping an open journal with entries is exactly
  /// a crash, and the journal file stays for ApplyLeftoverJournal(). Call RestoreAll() first.
  ~RestoreJournal();
  RestoreJournal(const RestoreJournal&) = delete;
  RestoreJournal& operator=(const RestoreJournal&) = delete;

  /// Creates `state_dir` (0700) if needed and takes its lock. Fails if another live run holds
  /// the lock, or if a journal from an earlier run is still there: restore that first, since
  /// overwriting it would lose the originals it holds.
  [[nodiscard]] bool Open(const std::string& state_dir, const std::string& owner_description,
                          std::string* err);

  /// True between a successful Open() and destruction.
  bool is_open() const { return lock_fd_ >= 0; }

  /// Appends `entry` and persists the journal before returning. Call it BEFORE making the
  /// change; if it fails, do not make the change. Recording a resource that is already in the
  /// journal succeeds without changing anything (save-once: the first original wins).
  [[nodiscard]] bool Record(const JournalEntry& entry, std::string* err);

  /// Records the current value of a sysfs/procfs attribute (for queue/scheduler, the bracketed
  /// name). Does not read anything if the path is already recorded.
  [[nodiscard]] bool RecordSysfsValue(const std::string& path, std::string* err);

  /// Records the current driver tag depth of `disk` (read from debugfs) as a driver_tags entry.
  /// Does not read anything if it is already recorded. Fails when debugfs cannot be read.
  [[nodiscard]] bool RecordDriverTags(const std::string& disk, std::string* err);

  /// Records a running process with its start time, read from /proc.
  [[nodiscard]] bool RecordProcess(pid_t pid, std::string* err);

  /// Drops the entry for a resource the caller has already cleaned up itself. Missing entries
  /// are not an error.
  [[nodiscard]] bool Forget(const JournalEntry& entry, std::string* err);

  /// Undoes every entry, newest first, and keeps going past failures. Each step appends one line
  /// to `log`. Entries whose resource is already gone count as done. On full success the
  /// journal file is deleted; otherwise it keeps only the failed entries and err summarises
  /// them. Idempotent: a second call has nothing left to do and succeeds.
  [[nodiscard]] bool RestoreAll(std::vector<std::string>* log, std::string* err);

  /// The entries not yet restored, oldest first.
  const std::vector<JournalEntry>& entries() const { return entries_; }

  /// How long a recorded process gets between SIGTERM and SIGKILL (default 5 s).
  void set_process_grace(std::chrono::milliseconds grace) { grace_ = grace; }

  /// Restores the journal a dead run left in `state_dir`, writing sysfs values through `sysfs`.
  /// Succeeds with nothing to do when there is none. Fails with "another elevbench run (pid N)
  /// is active" when a live run owns it, and refuses a journal recorded for another sysfs root
  /// (a test's fake tree must never be replayed onto the live system, nor the reverse).
  [[nodiscard]] static bool ApplyLeftoverJournal(const std::string& state_dir,
                                                 std::vector<std::string>* log, std::string* err,
                                                 const Sysfs& sysfs = Sysfs());

 private:
  bool Persist(std::string* err);

  Sysfs sysfs_;
  std::string state_dir_;
  std::string owner_;
  uint64_t owner_start_time_ = 0;
  int lock_fd_ = -1;
  std::vector<JournalEntry> entries_;
  std::chrono::milliseconds grace_{5000};
};

}  // namespace elevbench
