#include "harness/device/restore_journal.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/json_fields.h"
#include "harness/device/driver_tags.h"
#include "harness/device/journal_undo.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

using JournalFile = JournalContents;

std::string Join(const std::string& dir, const char* name) { return dir + "/" + name; }

// A reader (or a crash) sees the old journal or the new one, never a torn one.
bool WriteAtomically(const std::string& dir, const std::string& content, std::string* err) {
  return WriteFileAtomically(Join(dir, RestoreJournal::kJournalFile), content, err);
}

bool RemoveJournalFile(const std::string& dir, std::string* err) {
  std::string target = Join(dir, RestoreJournal::kJournalFile);
  if (unlink(target.c_str()) != 0 && errno != ENOENT) {
    return Fail(err, "cannot remove " + target + ": " + strerror(errno));
  }
  FsyncDirectory(dir);
  return true;
}

bool LoadJournal(const std::string& path, JournalFile* jf, std::string* err) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return ParseJournal(text.str(), path, jf, err);
}

// Opens and exclusively locks <dir>/lock, writing our pid into it for the next contender.
bool AcquireLock(const std::string& dir, int* fd, std::string* err) {
  std::string path = Join(dir, RestoreJournal::kLockFile);
  *fd = open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (*fd < 0) return Fail(err, "cannot open " + path + ": " + strerror(errno));
  if (flock(*fd, LOCK_EX | LOCK_NB) != 0) {
    int saved = errno;
    char buf[32] = {};
    ssize_t n = pread(*fd, buf, sizeof buf - 1, 0);
    long holder = n > 0 ? std::strtol(buf, nullptr, 10) : 0;
    close(*fd);
    *fd = -1;
    if (saved != EWOULDBLOCK) {
      *err = "cannot lock " + path + ": " + strerror(saved);
    } else if (holder > 0 && kill(static_cast<pid_t>(holder), 0) != 0 && errno == ESRCH) {
      *err = "lock " + path + " is held by a leftover child of dead run pid " +
             std::to_string(holder) + " (see fuser " + path + ")";
    } else {
      *err = "another elevbench run (pid " + std::to_string(holder) + ") is active";
    }
    return false;
  }
  std::string pid = std::to_string(getpid()) + "\n";  // for the next contender's message only
  [[maybe_unused]] bool noted =
      ftruncate(*fd, 0) == 0 && pwrite(*fd, pid.data(), pid.size(), 0) > 0;
  return true;
}

}  // namespace

bool ReadProcessIdentity(pid_t pid, uint64_t* start_time, std::string* comm, std::string* err) {
  char state = '?';
  if (pid <= 0 || !ReadProcStat(pid, start_time, comm, &state)) {
    return Fail(err, "no process " + std::to_string(pid));
  }
  return true;
}

std::string DefaultStateDir() {
  const char* env = std::getenv("ELEVBENCH_STATE_DIR");
  if (env && *env) return env;
  if (geteuid() == 0) return "/var/lib/elevbench";
  const char* xdg = std::getenv("XDG_STATE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/elevbench";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.local/state/elevbench";
  return "/tmp/elevbench-" + std::to_string(geteuid());
}

RestoreJournal::RestoreJournal(Sysfs sysfs) : sysfs_(std::move(sysfs)) {}

RestoreJournal::~RestoreJournal() {
  if (lock_fd_ < 0) return;
  std::string ignored;
  if (entries_.empty()) (void)RemoveJournalFile(state_dir_, &ignored);
  close(lock_fd_);
}

bool RestoreJournal::Open(const std::string& state_dir, const std::string& owner_description,
                          std::string* err) {
  if (is_open()) return Fail(err, "journal already open in " + state_dir_);
  std::error_code ec;
  if (fs::create_directories(state_dir, ec)) fs::permissions(state_dir, fs::perms::owner_all, ec);
  if (ec) return Fail(err, "cannot create state directory " + state_dir + ": " + ec.message());
  int fd = -1;
  if (!AcquireLock(state_dir, &fd, err)) return false;
  // A leftover journal with entries holds another run's originals: never overwrite it.
  std::string path = Join(state_dir, kJournalFile);
  JournalFile old;
  if (fs::exists(path, ec) &&
      !(LoadJournal(path, &old, err) &&
        (old.entries.empty() ? RemoveJournalFile(state_dir, err)
                             : Fail(err, path + " holds changes of an earlier run (pid " +
                                             std::to_string(old.owner_pid) +
                                             "); run `elevbench restore` first")))) {
    close(fd);
    return false;
  }
  std::string comm;
  std::string ignored;
  (void)ReadProcessIdentity(getpid(), &owner_start_time_, &comm, &ignored);
  lock_fd_ = fd;
  state_dir_ = state_dir;
  owner_ = owner_description;
  entries_.clear();
  return true;
}

bool RestoreJournal::Persist(std::string* err) {
  if (entries_.empty()) return RemoveJournalFile(state_dir_, err);
  JournalFile jf;
  jf.owner = owner_;
  jf.owner_pid = getpid();
  jf.owner_start_time = owner_start_time_;
  jf.sysfs_root = sysfs_.root();
  jf.entries = entries_;
  return WriteAtomically(state_dir_, SerializeJournal(jf), err);
}

bool RestoreJournal::Record(const JournalEntry& entry, std::string* err) {
  if (!is_open()) return Fail(err, "restore journal is not open");
  if (!ValidateJournalEntry(entry, err)) return false;
  for (const JournalEntry& e : entries_) {
    if (e.SameResource(entry)) return true;
  }
  entries_.push_back(entry);
  if (Persist(err)) return true;
  entries_.pop_back();  // not persisted, so the caller must not make the change
  return false;
}

bool RestoreJournal::RecordSysfsValue(const std::string& path, std::string* err) {
  JournalEntry entry = JournalEntry::SysfsValue(path, "");
  for (const JournalEntry& e : entries_) {
    if (e.SameResource(entry)) return true;
  }
  if (!sysfs_.Read(path, &entry.original, err)) return false;
  if (Sysfs::IsSchedulerPath(path)) {
    std::vector<std::string> available;
    std::string current;
    if (!ParseSchedulerLine(entry.original, &available, &current, err)) return false;
    if (current.empty()) {
      return Fail(err, path + " has no current scheduler ('" + entry.original + "')");
    }
    entry.original = current;
  }
  return Record(entry, err);
}

bool RestoreJournal::RecordDriverTags(const std::string& disk, std::string* err) {
  JournalEntry entry = JournalEntry::DriverTags(disk, kMinDriverTags);
  for (const JournalEntry& e : entries_) {
    if (e.SameResource(entry)) return true;
  }
  int depth = 0;
  bool no_blk_mq_debugfs = false;
  std::string debugfs_err;
  // Without blk-mq debugfs the tags cannot be read: the tag set's own depth is what the device
  // had when it was made (driver_tags.h), and what restoring it gives back.
  if (!ReadDriverTags(sysfs_, disk, &depth, &no_blk_mq_debugfs, &debugfs_err) &&
      (!no_blk_mq_debugfs || !ReadTagSetDepth(sysfs_, disk, &depth, &debugfs_err))) {
    *err = "cannot read the driver tags of " + disk + " to journal them: " + debugfs_err;
    return false;
  }
  entry.original = std::to_string(depth);
  return Record(entry, err);
}

bool RestoreJournal::RecordProcess(pid_t pid, std::string* err) {
  uint64_t start_time = 0;
  std::string comm;
  if (!ReadProcessIdentity(pid, &start_time, &comm, err)) return false;
  return Record(JournalEntry::Process(pid, start_time, comm), err);
}

bool RestoreJournal::Forget(const JournalEntry& entry, std::string* err) {
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (!it->SameResource(entry)) continue;
    entries_.erase(it);
    return Persist(err);
  }
  return true;
}

bool RestoreJournal::RestoreAll(std::vector<std::string>* log, std::string* err) {
  if (entries_.empty()) return true;
  bool ok = RestoreEntries(sysfs_, grace_, &entries_, log, err);
  std::string persist_err;
  if (!Persist(&persist_err)) {
    *err = ok ? persist_err : *err + "; " + persist_err;
    return false;
  }
  if (!ok) *err += "; journal kept in " + Join(state_dir_, kJournalFile);
  return ok;
}

bool RestoreJournal::ApplyLeftoverJournal(const std::string& state_dir,
                                          std::vector<std::string>* log, std::string* err,
                                          const Sysfs& sysfs) {
  std::error_code ec;
  if (!fs::is_directory(state_dir, ec)) {
    log->push_back("no state directory " + state_dir + "; nothing to restore");
    return true;
  }
  int fd = -1;
  if (!AcquireLock(state_dir, &fd, err)) return false;
  std::string path = Join(state_dir, kJournalFile);
  bool ok = true;
  JournalFile jf;
  if (!fs::exists(path, ec)) {
    log->push_back("no leftover journal in " + state_dir);
  } else if (!LoadJournal(path, &jf, err)) {
    ok = false;
  } else if (jf.owner_pid != getpid() && ProcessAlive(jf.owner_pid, jf.owner_start_time)) {
    ok = Fail(err, "another elevbench run (pid " + std::to_string(jf.owner_pid) + ") is active");
  } else if (jf.sysfs_root != sysfs.root()) {
    ok =
        Fail(err, path + " was recorded for sysfs root " + jf.sysfs_root + ", not " + sysfs.root());
  } else {
    log->push_back("restoring " + std::to_string(jf.entries.size()) + " change(s) left by pid " +
                   std::to_string(jf.owner_pid) + " (" + jf.owner + ")");
    ok = RestoreEntries(sysfs, std::chrono::seconds(5), &jf.entries, log, err);
    std::string write_err;
    bool written = jf.entries.empty()
                       ? RemoveJournalFile(state_dir, &write_err)
                       : WriteAtomically(state_dir, SerializeJournal(jf), &write_err);
    if (!written) *err = ok ? write_err : *err + "; " + write_err;
    if (!ok && written) *err += "; journal kept in " + path;
    ok = ok && written;
  }
  close(fd);
  return ok;
}

}  // namespace elevbench
