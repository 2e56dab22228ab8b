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

#include "harness/device/sysfs.h"

namespace elevbench {

/// What an entry undoes. The order of entries is the order of changes; undo runs backwards.
enum class JournalEntryKind {
  kSysfsValue,   ///< write `original` back to sysfs/procfs `path` (read-back verified).
  kLoopDevice,   ///< detach loop device `path` if it still backs `backing_file`.
  kMount,        ///< unmount `path`.
  kFuseMount,    ///< unmount the FUSE filesystem at `path`.
  kFile,         ///< unlink `path`.
  kDirectory,    ///< rmdir `path` (never recursive: it must be empty by then).
  kProcess,      ///< terminate `pid` if it is still the process started at `start_time`.
  kDriverTags,   ///< resize the driver tags of the disk of `path` (".../queue/nr_requests") back
                 ///< to `original` (ResizeDriverTags: none, nr_requests, verified in debugfs).
  kLoopCreated,  ///< remove loop device `path` (LOOP_CTL_REMOVE), created for the run, unless it
                 ///< is bound to a file other than `backing_file`.
  kCgroup,       ///< remove the cgroup directory `path` (an "elevbench-*" directory under
                 ///< /sys/fs/cgroup/ that the run made), moving any task left in it to the parent.
  kTracefsInstance,  ///< remove the tracefs instance `path` (".../instances/elevbench-<pid>"),
                     ///< after turning its tracing off.
  kFuseConnection,   ///< the FUSE connection `original` (a number) of daemon `pid` serving
                     ///< mountpoint `path`. Acted on first, before anything is undone: a
                     ///< stopped daemon gets SIGCONT, a silent one its connection aborted
                     ///< (fuse_connection.h), so nothing above it can hang the restore.
};

/// The kind's name in the journal file: "sysfs_value", "loop_device", ...
const char* KindName(JournalEntryKind kind);

/// One undo step. Build entries with the named constructors; unused fields stay empty.
struct JournalEntry {
  JournalEntryKind kind = JournalEntryKind::kFile;
  std::string path;          ///< attribute, "/dev/loopN", mountpoint, file or directory.
  std::string original;      ///< kSysfsValue: the value to restore (scheduler: bare name);
                             ///< kDriverTags: the depth; kFuseConnection: the number.
  std::string backing_file;  ///< kLoopDevice, kLoopCreated.
  pid_t pid = 0;             ///< kProcess, kFuseConnection (the daemon).
  uint64_t start_time = 0;   ///< kProcess, kFuseConnection: /proc/<pid>/stat field 22, guards
                             ///< against pid reuse.
  std::string comm;          ///< kProcess, kFuseConnection: for the log only.

  /// An entry of `kind` for `path`; the named constructors below fill the other fields.
  static JournalEntry Of(JournalEntryKind kind, std::string path) {
    JournalEntry e;
    e.kind = kind;
    e.path = std::move(path);
    return e;
  }
  /// Named constructors, one per kind; they fill only the fields that kind uses.
  static JournalEntry SysfsValue(std::string path, std::string original) {
    JournalEntry e = Of(JournalEntryKind::kSysfsValue, std::move(path));
    e.original = std::move(original);
    return e;
  }
  static JournalEntry LoopDevice(std::string device, std::string backing_file) {
    JournalEntry e = Of(JournalEntryKind::kLoopDevice, std::move(device));
    e.backing_file = std::move(backing_file);
    return e;
  }
  /// `disk` is a kernel name ("loop8"); `original` the tag depth to restore.
  static JournalEntry DriverTags(const std::string& disk, int original) {
    JournalEntry e = Of(JournalEntryKind::kDriverTags, "/sys/block/" + disk + "/queue/nr_requests");
    e.original = std::to_string(original);
    return e;
  }
  static JournalEntry LoopCreated(std::string device, std::string backing_file) {
    JournalEntry e = Of(JournalEntryKind::kLoopCreated, std::move(device));
    e.backing_file = std::move(backing_file);
    return e;
  }
  static JournalEntry Mount(std::string mountpoint) {
    return Of(JournalEntryKind::kMount, std::move(mountpoint));
  }
  static JournalEntry FuseMount(std::string mountpoint) {
    return Of(JournalEntryKind::kFuseMount, std::move(mountpoint));
  }
  static JournalEntry File(std::string path) {
    return Of(JournalEntryKind::kFile, std::move(path));
  }
  static JournalEntry Directory(std::string path) {
    return Of(JournalEntryKind::kDirectory, std::move(path));
  }
  /// `path`: the cgroup directory as a system path ("/sys/fs/cgroup/memory/elevbench-machine-7").
  static JournalEntry Cgroup(std::string path) {
    return Of(JournalEntryKind::kCgroup, std::move(path));
  }
  /// `path`: the instance directory ("/sys/kernel/tracing/instances/elevbench-7").
  static JournalEntry TracefsInstance(std::string path) {
    return Of(JournalEntryKind::kTracefsInstance, std::move(path));
  }
  /// The connection `connection` of the FUSE filesystem the daemon `pid` (started at
  /// `start_time`) serves at `mountpoint`.
  static JournalEntry FuseConnection(std::string mountpoint, unsigned connection, pid_t pid,
                                     uint64_t start_time, std::string comm) {
    JournalEntry e = Of(JournalEntryKind::kFuseConnection, std::move(mountpoint));
    e.original = std::to_string(connection);
    e.pid = pid;
    e.start_time = start_time;
    e.comm = std::move(comm);
    return e;
  }
  static JournalEntry Process(pid_t pid, uint64_t start_time, std::string comm) {
    JournalEntry e = Of(JournalEntryKind::kProcess, "");
    e.pid = pid;
    e.start_time = start_time;
    e.comm = std::move(comm);
    return e;
  }

  /// Same kind and same resource (path, or pid + start time). Values are not compared: this is
  /// what makes sysfs entries save-once.
  bool SameResource(const JournalEntry& other) const;
};

/// Reads /proc/<pid>/stat: start time (field 22, clock ticks since boot) and comm. Fails when
/// the process does not exist.
[[nodiscard]] bool ReadProcessIdentity(pid_t pid, uint64_t* start_time, std::string* comm,
                                       std::string* err);

/// What a journal file (journal.json) holds: the run that wrote it and its entries, oldest first.
struct JournalContents {
  pid_t owner_pid = 0;
  uint64_t owner_start_time = 0;  ///< of owner_pid, so a reused pid is not taken for the owner
  std::string owner;              ///< the run's description, for the log
  std::string sysfs_root;         ///< the sysfs root the entries were recorded for
  std::vector<JournalEntry> entries;
};

/// Parses the text of a journal file and checks every entry as Record() does (known kind, safe
/// absolute paths, sysfs values under /sys or /proc/sys, loop devices, tag depths, pids > 1,
/// cgroups only as "elevbench-*" directories under /sys/fs/cgroup/, tracefs instances only as
/// "elevbench-<digits>" under a directory named instances),
/// without acting on anything: the reader behind ApplyLeftoverJournal, kept pure so that a
/// damaged or hostile journal can be tested (and fuzzed) on its own. `name` starts the messages
/// (the file's path). False with one line in err, *out then unspecified. Never throws.
[[nodiscard]] bool ParseJournal(std::string_view text, const std::string& name,
                                JournalContents* out, std::string* err);

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
