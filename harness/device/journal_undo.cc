#include "harness/device/journal_undo.h"

#include <fcntl.h>
#include <linux/loop.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "harness/core/stuck_io.h"
#include "harness/device/driver_tags.h"
#include "harness/device/fuse_connection.h"
#include "harness/process/bounded_call.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Outcome = UndoOutcome;

constexpr std::string_view kNrRequestsSuffix = "/queue/nr_requests";

// Sets the log line of an undo step and returns its outcome, to keep the steps readable.
Outcome Say(std::string* line, Outcome outcome, std::string text) {
  *line = std::move(text);
  return outcome;
}

Outcome UndoSysfs(const Sysfs& sysfs, const JournalEntry& e, bool last_chance, std::string* line) {
  std::string current;
  std::string err;
  if (!sysfs.Read(e.path, &current, &err)) {
    if (errno == ENOENT && last_chance) {
      return Say(line, Outcome::kGone,
                 e.path + " is gone (device or scheduler removed); nothing to restore");
    }
    return Say(line, Outcome::kFailed, "FAILED " + err);
  }
  if (Sysfs::ValueMatches(e.path, e.original, current)) {
    return Say(line, Outcome::kDone, e.path + " already '" + e.original + "'");
  }
  if (!DiskOfNrRequests(e.path).empty()) {
    // nr_requests is a scheduler's pool. Under none a write would resize the driver tags, which
    // elevbench changes only through a driver_tags entry; DeviceControl never writes it there.
    std::string line_text;
    std::vector<std::string> names;
    std::string scheduler;
    const std::string sched_path =
        e.path.substr(0, e.path.size() - kNrRequestsSuffix.size()) + "/queue/scheduler";
    if (sysfs.Read(sched_path, &line_text, &err) &&
        ParseSchedulerLine(line_text, &names, &scheduler, &err) && scheduler == "none") {
      return Say(line, Outcome::kDone,
                 e.path + " left at '" + current + "': scheduler none has no request pool");
    }
  }
  if (!sysfs.WriteVerified(e.path, e.original, &err)) {
    return Say(line, Outcome::kFailed, "FAILED " + err);
  }
  return Say(line, Outcome::kDone, "restored " + e.path + " to '" + e.original + "'");
}

// Resizes the driver tags back (through scheduler none, see driver_tags.h). The scheduler found
// is selected again afterwards; an older sysfs_value entry restores the original one.
Outcome UndoDriverTags(const Sysfs& sysfs, const JournalEntry& e, std::string* line) {
  const std::string disk = DiskOfNrRequests(e.path);
  std::error_code ec;
  if (!fs::exists(sysfs.Map("/sys/block/" + disk), ec)) {
    return Say(line, Outcome::kGone, disk + " is gone; no driver tags to restore");
  }
  const int want = std::stoi(e.original);
  int now = 0;
  std::string err;
  if (ReadDriverTags(sysfs, disk, &now, &err) && now == want) {
    return Say(line, Outcome::kDone, "driver tags of " + disk + " already " + e.original);
  }
  if (!ResizeDriverTags(sysfs, disk, want, &err)) {
    return Say(line, Outcome::kFailed, "FAILED " + err);
  }
  return Say(line, Outcome::kDone, "restored the driver tags of " + disk + " to " + e.original);
}

// The bound file of a loop device, without the " (deleted)" the kernel appends; false if unbound.
bool LoopBackingFile(const Sysfs& sysfs, const std::string& name, std::string* value) {
  std::string err;
  if (!sysfs.Read("/sys/block/" + name + "/loop/backing_file", value, &err)) return false;
  constexpr std::string_view kDeleted = " (deleted)";
  if (value->size() > kDeleted.size() &&
      value->compare(value->size() - kDeleted.size(), kDeleted.size(), kDeleted) == 0) {
    value->resize(value->size() - kDeleted.size());
  }
  return true;
}

// Removes a loop device the run created, with every queue setting it carries (some, such as the
// writeback-throttling state, cannot be put back through sysfs). Never one bound to another file.
Outcome UndoLoopCreated(const Sysfs& sysfs, const JournalEntry& e, std::string* line) {
  const std::string name = e.path.substr(5);
  if (sysfs.root() != "/") {
    return Say(line, Outcome::kGone, e.path + ": not removed under a fake sysfs root");
  }
  std::error_code ec;
  if (!fs::exists("/sys/block/" + name, ec)) {
    return Say(line, Outcome::kGone, e.path + " is already removed");
  }
  std::string current;
  if (LoopBackingFile(sysfs, name, &current)) {
    if (current != e.backing_file) {
      return Say(line, Outcome::kGone,
                 e.path + " now backs " + current + ", not ours; not removed");
    }
    return Say(line, Outcome::kFailed, "FAILED remove " + e.path + ": still attached");
  }
  const int index = std::stoi(name.substr(4));
  int fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
  if (fd < 0) {
    return Say(line, Outcome::kFailed,
               std::string("FAILED open /dev/loop-control: ") + strerror(errno));
  }
  // EBUSY while something still has the device open (a dying process, a blkid probe).
  int saved = 0;
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (ioctl(fd, LOOP_CTL_REMOVE, index) == 0) {
      close(fd);
      return Say(line, Outcome::kDone, "removed loop device " + e.path);
    }
    saved = errno;
    if (saved != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  close(fd);
  if (saved == ENODEV || saved == ENXIO) {
    return Say(line, Outcome::kGone, e.path + " is already removed");
  }
  return Say(line, Outcome::kFailed, "FAILED remove " + e.path + ": " + strerror(saved));
}

// Reaps the recorded process if it is our exited child; a reused pid is never touched.
void ReapIfOurs(const JournalEntry& e) {
  uint64_t start = 0;
  std::string comm;
  char state = '?';
  if (ReadProcStat(e.pid, &start, &comm, &state) && start == e.start_time && state == 'Z') {
    waitpid(e.pid, nullptr, WNOHANG);
  }
}

// Polls until the process is gone or `limit` passes.
bool WaitGone(const JournalEntry& e, std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  while (true) {
    ReapIfOurs(e);
    if (!ProcessAlive(e.pid, e.start_time)) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Outcome UndoProcess(const JournalEntry& e, std::chrono::milliseconds grace, std::string* line) {
  std::string what = "process " + std::to_string(e.pid) + " (" + e.comm + ")";
  if (e.pid == getpid()) {
    return Say(line, Outcome::kFailed, "FAILED refusing to signal myself: " + what);
  }
  if (!ProcessAlive(e.pid, e.start_time)) {
    ReapIfOurs(e);
    return Say(line, Outcome::kGone, what + " already exited");
  }
  kill(e.pid, SIGTERM);
  kill(e.pid, SIGCONT);  // a stopped process acts on SIGTERM only once continued
  if (WaitGone(e, grace)) return Say(line, Outcome::kDone, "terminated " + what);
  if (ProcessAlive(e.pid, e.start_time)) kill(e.pid, SIGKILL);
  if (WaitGone(e, std::chrono::seconds(2))) {
    return Say(line, Outcome::kDone, "killed " + what + " (ignored SIGTERM)");
  }
  return Say(line, Outcome::kFailed, "FAILED " + what + " survived SIGKILL");
}

// A killed run's fio is still dying (PR_SET_PDEATHSIG) and may hold files open until its last
// I/O to a slow emulated disk completes: give EBUSY 15 s before falling back to a lazy unmount.
// Each umount2 runs under a deadline (bounded_call.h): one that waits on a FUSE daemon which
// stopped answering gets the stuck I/O broken (the journaled connections aborted) after 30 s.
Outcome UndoMount(const JournalEntry& e, std::string* line) {
  const BoundedCallLimits limits;
  int call_error = 0;
  std::string err;
  for (int attempt = 0; attempt < 75; ++attempt) {
    if (!UnmountBounded(e.path, 0, limits, &call_error, &err)) {
      return Say(line, Outcome::kFailed, "FAILED " + err);
    }
    if (call_error == 0) return Say(line, Outcome::kDone, "unmounted " + e.path);
    if (call_error == EINVAL || call_error == ENOENT) {
      return Say(line, Outcome::kGone, e.path + " is not mounted");
    }
    if (call_error != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  std::string first_error = strerror(call_error);
  if (!UnmountBounded(e.path, MNT_DETACH, limits, &call_error, &err)) {
    return Say(line, Outcome::kFailed, "FAILED " + err);
  }
  if (call_error == 0) {
    return Say(line, Outcome::kDone, "lazily detached " + e.path + " (" + first_error + ")");
  }
  return Say(line, Outcome::kFailed, "FAILED umount " + e.path + ": " + strerror(call_error));
}

// At its turn everything above the daemon is already undone (UnblockFuseDaemons ran first); the
// daemon itself goes with the next, older entry.
Outcome UndoFuseConnection(const JournalEntry& e, std::string* line) {
  return Say(line, Outcome::kDone,
             "FUSE connection " + e.original + " of " + e.path + ": its daemon goes next");
}

Outcome UndoLoop(const Sysfs& sysfs, const JournalEntry& e, std::string* line) {
  std::string name = e.path.substr(5);
  auto backing = [&](std::string* value) { return LoopBackingFile(sysfs, name, value); };
  std::string current;
  if (!backing(&current)) return Say(line, Outcome::kGone, e.path + " is already detached");
  if (current != e.backing_file) {
    return Say(line, Outcome::kGone, e.path + " now backs " + current + ", not ours; left alone");
  }
  // LOOP_CLR_FD of an idle device freezes its queue, which waits for the requests in flight: under
  // a deadline (bounded_call.h), like an unmount, in case the disk below stopped answering.
  const char* device = e.path.c_str();
  int saved = 0;
  std::string err;
  if (!RunBounded(
          "detach " + e.path,
          [device]() -> int {
            const int fd = open(device, O_RDONLY | O_CLOEXEC);
            if (fd < 0) return errno;
            const int rc = ioctl(fd, LOOP_CLR_FD, 0) == 0 ? 0 : errno;
            close(fd);
            return rc;
          },
          BoundedCallLimits{}, &saved, &err)) {
    return Say(line, Outcome::kFailed, "FAILED " + err);
  }
  if (saved == ENXIO) return Say(line, Outcome::kGone, e.path + " is already detached");
  if (saved != 0) {
    return Say(line, Outcome::kFailed, "FAILED detach " + e.path + ": " + strerror(saved));
  }
  // A busy device only gets autoclear set and detaches on last close — after a lazy unmount, once
  // the filesystem has written back its dirty pages, which on the emulated 2003 disk takes seconds.
  auto deadline = Clock::now() + std::chrono::seconds(30);
  while (backing(&current) && Clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (backing(&current)) {
    return Say(line, Outcome::kFailed,
               "FAILED " + e.path + " is still attached (busy; autoclear set)");
  }
  return Say(line, Outcome::kDone, "detached " + e.path + " (" + e.backing_file + ")");
}

Outcome UndoPath(const JournalEntry& e, std::string* line) {
  bool dir = e.kind == JournalEntryKind::kDirectory;
  if ((dir ? rmdir(e.path.c_str()) : unlink(e.path.c_str())) == 0) {
    return Say(line, Outcome::kDone, std::string(dir ? "removed directory " : "removed ") + e.path);
  }
  if (errno == ENOENT) return Say(line, Outcome::kGone, e.path + " is already gone");
  return Say(
      line, Outcome::kFailed,
      std::string("FAILED ") + (dir ? "rmdir " : "unlink ") + e.path + ": " + strerror(errno));
}

// Turns the instance's tracing off, then removes it; a reader still holding its trace_pipe
// (EBUSY) gets a few seconds to let go.
Outcome UndoTracefsInstance(const Sysfs& sysfs, const JournalEntry& e, std::string* line) {
  const std::string dir = sysfs.Map(e.path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Say(line, Outcome::kGone, "tracefs instance " + e.path + " is already removed");
  }
  std::string ignored;
  (void)sysfs.Write(e.path + "/tracing_on", "0", &ignored);
  for (int attempt = 0; attempt < 50; ++attempt) {
    if (rmdir(dir.c_str()) == 0 || errno == ENOENT) {
      return Say(line, Outcome::kDone, "removed tracefs instance " + e.path);
    }
    if (errno != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return Say(line, Outcome::kFailed,
             "FAILED rmdir tracefs instance " + e.path + ": " + strerror(errno));
}

// Moves every task listed in `cgroup`/cgroup.procs to `parent`/cgroup.procs, one pid per write
// as the kernel wants; a task that exits meanwhile (ESRCH) is simply gone. Returns how many moved.
int MoveTasksToParent(const Sysfs& sysfs, const std::string& cgroup, const std::string& parent) {
  std::ifstream in(sysfs.Map(cgroup + "/cgroup.procs"));
  std::vector<std::string> pids;
  for (std::string pid; in >> pid;) pids.push_back(pid);
  int moved = 0;
  std::string ignored;
  for (const std::string& pid : pids) moved += sysfs.Write(parent + "/cgroup.procs", pid, &ignored);
  return moved;
}

// Removes a cgroup the run made. Tasks still in it (elevbench itself on an error path, a fio a
// SIGKILL orphaned) go to the parent first; rmdir then fails with EBUSY only while one is still
// exiting, so it is retried for 5 s. A fake tree (tests) holds plain files where the kernel has
// control files, which rmdir would refuse: only there are they unlinked first.
Outcome UndoCgroup(const Sysfs& sysfs, const JournalEntry& e, std::string* line) {
  const std::string dir = sysfs.Map(e.path);
  const std::string parent = e.path.substr(0, e.path.rfind('/'));
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return Say(line, Outcome::kGone, "cgroup " + e.path + " is already removed");
  int moved = 0;
  int saved = 0;
  for (int attempt = 0; attempt < 250; ++attempt) {
    moved += MoveTasksToParent(sysfs, e.path, parent);
    if (sysfs.root() != "/") {
      for (const auto& entry : fs::directory_iterator(dir, ec)) {
        if (entry.is_regular_file(ec)) fs::remove(entry.path(), ec);
      }
    }
    if (rmdir(dir.c_str()) == 0) {
      return Say(
          line, Outcome::kDone,
          "removed cgroup " + e.path +
              (moved > 0 ? " (moved " + std::to_string(moved) + " task(s) to the parent)" : ""));
    }
    saved = errno;
    if (saved == ENOENT)
      return Say(line, Outcome::kGone, "cgroup " + e.path + " is already removed");
    if (saved != EBUSY) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return Say(line, Outcome::kFailed, "FAILED rmdir cgroup " + e.path + ": " + strerror(saved));
}

}  // namespace

std::string DiskOfNrRequests(const std::string& p) {
  constexpr std::string_view kPrefix = "/sys/block/";
  if (p.rfind(kPrefix, 0) != 0 || p.size() <= kPrefix.size() + kNrRequestsSuffix.size() ||
      p.compare(p.size() - kNrRequestsSuffix.size(), kNrRequestsSuffix.size(), kNrRequestsSuffix) !=
          0) {
    return "";
  }
  std::string disk = p.substr(kPrefix.size(), p.size() - kPrefix.size() - kNrRequestsSuffix.size());
  return disk.find('/') == std::string::npos ? disk : "";
}

bool ReadProcStat(pid_t pid, uint64_t* start_time, std::string* comm, char* state) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  size_t open = line.find('(');
  size_t close = line.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  *comm = line.substr(open + 1, close - open - 1);
  std::istringstream rest(line.substr(close + 1));  // field 3 (state) onwards
  std::string skipped;
  rest >> *state;
  for (int field = 4; field < 22; ++field) rest >> skipped;
  return static_cast<bool>(rest >> *start_time);
}

bool ProcessAlive(pid_t pid, uint64_t start_time) {
  uint64_t now_start = 0;
  std::string comm;
  char state = '?';
  if (pid <= 0 || !ReadProcStat(pid, &now_start, &comm, &state)) return false;
  return now_start == start_time && state != 'Z';
}

void UnblockFuseDaemons(const std::vector<JournalEntry>& entries, std::vector<std::string>* log) {
  for (const JournalEntry& e : entries) {
    if (e.kind != JournalEntryKind::kFuseConnection) continue;
    std::string line;
    UnblockFuseDaemon(e, kFuseAnswerSeconds, &line);
    log->push_back(line);
  }
}

bool RestoreEntries(const Sysfs& sysfs, std::chrono::milliseconds grace,
                    std::vector<JournalEntry>* entries, std::vector<std::string>* log,
                    std::string* err) {
  // Before anything above a FUSE daemon is unmounted: continue it, or abort its connection.
  // While the entries are undone, a wait that runs out breaks their connections too.
  UnblockFuseDaemons(*entries, log);
  std::vector<std::unique_ptr<ScopedStuckIoBreaker>> breakers;
  for (const JournalEntry& e : *entries) {
    if (e.kind != JournalEntryKind::kFuseConnection) continue;
    breakers.push_back(
        std::make_unique<ScopedStuckIoBreaker>([e] { return AbortJournaledFuseConnection(e); }));
  }
  size_t total = entries->size();
  std::vector<bool> failed(total, false);
  std::vector<size_t> deferred;
  std::string line;
  std::string first;  // the first failure, without its "FAILED " prefix
  auto undo = [&](const JournalEntry& e, bool last_chance) {
    switch (e.kind) {
      case JournalEntryKind::kSysfsValue:
        return UndoSysfs(sysfs, e, last_chance, &line);
      case JournalEntryKind::kProcess:
        return UndoProcess(e, grace, &line);
      case JournalEntryKind::kMount:
      case JournalEntryKind::kFuseMount:
        return UndoMount(e, &line);
      case JournalEntryKind::kLoopDevice:
        return UndoLoop(sysfs, e, &line);
      case JournalEntryKind::kDriverTags:
        return UndoDriverTags(sysfs, e, &line);
      case JournalEntryKind::kLoopCreated:
        return UndoLoopCreated(sysfs, e, &line);
      case JournalEntryKind::kCgroup:
        return UndoCgroup(sysfs, e, &line);
      case JournalEntryKind::kTracefsInstance:
        return UndoTracefsInstance(sysfs, e, &line);
      case JournalEntryKind::kFuseConnection:
        return UndoFuseConnection(e, &line);
      default:
        return UndoPath(e, &line);
    }
  };
  auto note = [&](size_t k, Outcome outcome) {
    failed[k] = outcome == Outcome::kFailed;
    if (failed[k] && first.empty()) first = line.substr(7);
    log->push_back(line);
  };
  for (size_t k = total; k-- > 0;) {
    Outcome outcome = undo((*entries)[k], false);
    const JournalEntryKind kind = (*entries)[k].kind;
    bool retry = outcome == Outcome::kFailed &&
                 (kind == JournalEntryKind::kSysfsValue || kind == JournalEntryKind::kDriverTags);
    retry ? deferred.push_back(k) : note(k, outcome);
  }
  for (size_t k : deferred) note(k, undo((*entries)[k], true));
  std::vector<JournalEntry> remaining;
  for (size_t k = 0; k < total; ++k) {
    if (failed[k]) remaining.push_back((*entries)[k]);
  }
  *entries = std::move(remaining);
  if (entries->empty()) return true;
  *err = std::to_string(entries->size()) + " of " + std::to_string(total) +
         " restore steps failed (first: " + first + ")";
  return false;
}

}  // namespace elevbench
