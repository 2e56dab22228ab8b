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

constexpr int kSchemaVersion = 1;

using JournalFile = JournalContents;

constexpr const char* kKindNames[] = {
    "sysfs_value",      "loop_device",    "mount",       "fuse_mount",   "file",
    "directory",        "process",        "driver_tags", "loop_created", "cgroup",
    "tracefs_instance", "fuse_connection"};

bool IsLoopDevicePath(const std::string& p) {
  return p.rfind("/dev/loop", 0) == 0 && p.size() > 9 &&
         p.find_first_not_of("0123456789", 9) == std::string::npos;
}

std::string Join(const std::string& dir, const char* name) { return dir + "/" + name; }

bool PathIsSafe(const std::string& p) {
  bool dotdot_tail = p.size() >= 3 && p.compare(p.size() - 3, 3, "/..") == 0;
  return p.size() > 1 && p[0] == '/' && !dotdot_tail && p.find("/../") == std::string::npos &&
         p.find("/./") == std::string::npos && p.find('\n') == std::string::npos;
}

// A cgroup the run made: "/sys/fs/cgroup/<hierarchy path>/elevbench-<name>", never a hierarchy's
// root nor a directory someone else named, so a damaged journal cannot make restore remove one.
bool IsElevbenchCgroupPath(const std::string& p) {
  constexpr std::string_view kRoot = "/sys/fs/cgroup/";
  const size_t slash = p.rfind('/');
  if (p.rfind(kRoot, 0) != 0 || slash + 1 < kRoot.size() || p.find("//") != std::string::npos) {
    return false;
  }
  const std::string name = p.substr(slash + 1);
  return name.rfind("elevbench-", 0) == 0 && name.size() > 10 &&
         name.find_first_not_of(
             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
             std::string::npos;
}

// A tracefs instance the run made: "<tracefs>/instances/elevbench-<digits>" with no ".." and no
// empty component, so a damaged journal cannot make restore remove someone else's instance.
bool IsElevbenchInstancePath(const std::string& p) {
  constexpr std::string_view kParent = "/instances/elevbench-";
  const size_t at = p.rfind(kParent);
  if (at == std::string::npos || at == 0 || p.find("//") != std::string::npos) return false;
  // elevbench-<pid>, elevbench-<pid>-<lane> (--lanes), elevbench-<pid>-bios (a bio capture
  // beside the request tracer: run replay's own account).
  const std::string name = p.substr(at + kParent.size());
  const size_t dash = name.find('-');
  auto digits = [](const std::string& s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  const std::string rest = dash == std::string::npos ? std::string() : name.substr(dash + 1);
  return digits(name.substr(0, dash)) &&
         (dash == std::string::npos || digits(rest) || rest == "bios");
}

bool ValidateEntry(const JournalEntry& e, std::string* err) {
  bool ok = PathIsSafe(e.path);
  if (e.kind == JournalEntryKind::kSysfsValue) {
    ok = ok && (e.path.rfind("/sys/", 0) == 0 || e.path.rfind("/proc/sys/", 0) == 0);
  } else if (e.kind == JournalEntryKind::kLoopDevice || e.kind == JournalEntryKind::kLoopCreated) {
    ok = ok && IsLoopDevicePath(e.path) && PathIsSafe(e.backing_file);
  } else if (e.kind == JournalEntryKind::kDriverTags) {
    ok = ok && !DiskOfNrRequests(e.path).empty() && !e.original.empty() &&
         e.original.find_first_not_of("0123456789") == std::string::npos && e.original.size() < 7 &&
         std::stoi(e.original) >= 1;
  } else if (e.kind == JournalEntryKind::kProcess) {
    ok = e.pid > 1 && e.start_time > 0;
  } else if (e.kind == JournalEntryKind::kCgroup) {
    ok = ok && IsElevbenchCgroupPath(e.path);
  } else if (e.kind == JournalEntryKind::kTracefsInstance) {
    ok = ok && IsElevbenchInstancePath(e.path);
  } else if (e.kind == JournalEntryKind::kFuseConnection) {
    ok = ok && e.pid > 1 && e.start_time > 0 && !e.original.empty() && e.original.size() < 11 &&
         e.original.find_first_not_of("0123456789") == std::string::npos;
  }
  if (!ok) *err = std::string("invalid ") + KindName(e.kind) + " entry '" + e.path + "'";
  return ok;
}

nlohmann::json EntryToJson(const JournalEntry& e) {
  nlohmann::json j = {{"kind", KindName(e.kind)}};
  if (e.kind == JournalEntryKind::kProcess || e.kind == JournalEntryKind::kFuseConnection) {
    j["pid"] = e.pid;
    j["start_time"] = e.start_time;
    j["comm"] = e.comm;
    if (e.kind == JournalEntryKind::kProcess) return j;
    j["path"] = e.path;
    j["connection"] = e.original;
    return j;
  }
  const bool loop =
      e.kind == JournalEntryKind::kLoopDevice || e.kind == JournalEntryKind::kLoopCreated;
  j[loop ? "device" : "path"] = e.path;
  if (e.kind == JournalEntryKind::kSysfsValue || e.kind == JournalEntryKind::kDriverTags) {
    j["original"] = e.original;
  }
  if (loop) j["backing_file"] = e.backing_file;
  return j;
}

bool EntryFromJson(const nlohmann::json& j, JournalEntry* e, std::string* err) {
  try {
    std::string kind = j.at("kind").get<std::string>();
    size_t i = 0;
    while (i < std::size(kKindNames) && kind != kKindNames[i]) ++i;
    if (i == std::size(kKindNames)) return Fail(err, "unknown journal entry kind '" + kind + "'");
    *e = JournalEntry();
    e->kind = static_cast<JournalEntryKind>(i);
    if (e->kind == JournalEntryKind::kProcess || e->kind == JournalEntryKind::kFuseConnection) {
      // Numbers through GetJsonField: a float such as 1e56 read as an integer is undefined
      // behaviour in nlohmann's get<>.
      if (!GetJsonField(j, "pid", &e->pid, err) ||
          !GetJsonField(j, "start_time", &e->start_time, err)) {
        return Fail(err, "bad journal entry: " + *err);
      }
      e->comm = j.value("comm", "");
      if (e->kind == JournalEntryKind::kFuseConnection) {
        e->path = j.at("path");
        e->original = j.at("connection");
      }
    } else {
      const bool loop =
          e->kind == JournalEntryKind::kLoopDevice || e->kind == JournalEntryKind::kLoopCreated;
      e->path = j.at(loop ? "device" : "path");
      if (e->kind == JournalEntryKind::kSysfsValue || e->kind == JournalEntryKind::kDriverTags) {
        e->original = j.at("original");
      }
      if (loop) e->backing_file = j.at("backing_file");
    }
  } catch (const nlohmann::json::exception& ex) {
    return Fail(err, std::string("bad journal entry: ") + ex.what());
  }
  return ValidateEntry(*e, err);
}

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

std::string Serialize(const JournalFile& jf) {
  nlohmann::json entries = nlohmann::json::array();
  for (const JournalEntry& e : jf.entries) entries.push_back(EntryToJson(e));
  nlohmann::json j = {{"schema_version", kSchemaVersion},
                      {"tool", "elevbench"},
                      {"owner", jf.owner},
                      {"owner_pid", jf.owner_pid},
                      {"owner_start_time", jf.owner_start_time},
                      {"sysfs_root", jf.sysfs_root},
                      {"entries", entries}};
  // Invalid UTF-8 in a path must not throw; the replacement only affects the log text.
  return j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
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

bool ParseJournal(std::string_view text, const std::string& name, JournalContents* out,
                  std::string* err) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    return Fail(err, name + " is not valid JSON; inspect it and remove it by hand");
  }
  try {
    int schema = 0;
    if (!GetJsonField(j, "schema_version", &schema, err) || schema != kSchemaVersion) {
      return Fail(err, name + " has an unknown schema_version");
    }
    out->owner = j.value("owner", "");
    if (!GetJsonField(j, "owner_pid", &out->owner_pid, err)) return Fail(err, name + ": " + *err);
    out->owner_start_time = 0;
    if (j.contains("owner_start_time") &&
        !GetJsonField(j, "owner_start_time", &out->owner_start_time, err)) {
      return Fail(err, name + ": " + *err);
    }
    out->sysfs_root = j.at("sysfs_root").get<std::string>();
    for (const nlohmann::json& e : j.at("entries")) {
      out->entries.emplace_back();
      if (!EntryFromJson(e, &out->entries.back(), err)) return Fail(err, name + ": " + *err);
    }
  } catch (const nlohmann::json::exception& ex) {
    return Fail(err, name + ": " + ex.what());
  }
  return true;
}

const char* KindName(JournalEntryKind kind) { return kKindNames[static_cast<int>(kind)]; }

bool JournalEntry::SameResource(const JournalEntry& other) const {
  if (kind != other.kind) return false;
  if (kind == JournalEntryKind::kProcess) {
    return pid == other.pid && start_time == other.start_time;
  }
  return path == other.path;
}

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
  return WriteAtomically(state_dir_, Serialize(jf), err);
}

bool RestoreJournal::Record(const JournalEntry& entry, std::string* err) {
  if (!is_open()) return Fail(err, "restore journal is not open");
  if (!ValidateEntry(entry, err)) return false;
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
    bool written = jf.entries.empty() ? RemoveJournalFile(state_dir, &write_err)
                                      : WriteAtomically(state_dir, Serialize(jf), &write_err);
    if (!written) *err = ok ? write_err : *err + "; " + write_err;
    if (!ok && written) *err += "; journal kept in " + path;
    ok = ok && written;
  }
  close(fd);
  return ok;
}

}  // namespace elevbench
