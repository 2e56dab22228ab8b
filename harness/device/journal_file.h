#pragma once
// The restore journal's file (journal.json, restore_journal.h): its entries, what each undoes,
// and the file's text, parsed and checked, or written, without acting on anything, so that a
// damaged or hostile journal can be tested (and fuzzed) on its own. The journal that records
// and restores is restore_journal.h's.

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

/// Checks one entry as Record() does and ParseJournal does each (known kind, safe absolute
/// paths, …): false with one line in err for an entry restore must never act on.
[[nodiscard]] bool ValidateJournalEntry(const JournalEntry& entry, std::string* err);

/// The text of a journal file holding `contents` (what ParseJournal reads back). Invalid UTF-8
/// in a path does not throw; the replacement only affects the log text.
std::string SerializeJournal(const JournalContents& contents);

}  // namespace elevbench
