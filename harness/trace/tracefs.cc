#include "harness/trace/tracefs.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/device/sysfs.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

constexpr long kTracefsMagic = 0x74726163;  // TRACEFS_MAGIC, include/uapi/linux/magic.h
constexpr const char* kTracefsMount = "/sys/kernel/tracing";

bool IsTracefsDir(const std::string& dir) {
  struct statfs st {};
  return statfs(dir.c_str(), &st) == 0 && st.f_type == kTracefsMagic;
}

// Writes to a file of our own instance (no journal: the instance goes as a whole).
bool WriteTracefsFile(const std::string& path, const std::string& value, std::string* err) {
  const int fd = open(path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) {
    *err = "open " + path + ": " + strerror(errno);
    return false;
  }
  const ssize_t n = write(fd, value.data(), value.size());
  const int saved = errno;
  close(fd);
  if (n != static_cast<ssize_t>(value.size())) {
    *err = "write '" + value + "' to " + path + ": " + strerror(n < 0 ? saved : EIO);
    return false;
  }
  return true;
}

std::string ReadTracefsFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

bool LocateTracefs(RestoreJournal* journal, std::string* root, std::string* err) {
  for (const char* dir : {kTracefsMount, "/sys/kernel/debug/tracing"}) {
    if (IsTracefsDir(dir)) {
      *root = dir;
      return true;
    }
  }
  if (!journal->Record(JournalEntry::Mount(kTracefsMount), err)) return false;
  if (mount("nodev", kTracefsMount, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0) {
    *err = std::string("tracefs is not mounted and mounting it at ") + kTracefsMount +
           " failed: " + strerror(errno);
    std::string ignored;
    (void)journal->Forget(JournalEntry::Mount(kTracefsMount), &ignored);
    return false;
  }
  *root = kTracefsMount;
  return true;
}

bool GlobalTracerFree(std::string* err) {
  for (const char* dir : {kTracefsMount, "/sys/kernel/debug/tracing"}) {
    if (!IsTracefsDir(dir)) continue;
    std::string current;
    if (!Sysfs().Read(std::string(dir) + "/current_tracer", &current, err)) return false;
    if (current == "nop") return true;
    *err = std::string("--trace-requests full needs the global tracer, but ") + dir +
           "/current_tracer is '" + current +
           "' (someone else is tracing); use --trace-requests summary";
    return false;
  }
  return true;
}

std::vector<std::string> RequestEvents() {
  return {"block/block_bio_queue",  "block/block_bio_backmerge", "block/block_bio_frontmerge",
          "block/block_rq_insert",  "block/block_rq_issue",      "block/block_rq_merge",
          "block/block_rq_requeue", "block/block_rq_complete"};
}

std::vector<std::string> KyberEvents(const std::string& tracefs) {
  std::vector<std::string> out;
  for (const char* name : {"kyber_latency", "kyber_adjust", "kyber_throttled"}) {
    std::error_code ec;
    if (fs::is_directory(tracefs + "/events/kyber/" + name, ec)) {
      out.push_back(std::string("kyber/") + name);
    }
  }
  return out;
}

TracefsInstance::~TracefsInstance() {
  std::string ignored;
  (void)Remove(&ignored);
}

bool TracefsInstance::Create(RestoreJournal* journal, const std::string& tracefs, uint32_t major,
                             uint32_t minor, const std::vector<std::string>& events,
                             uint32_t buffer_kb, std::string* err, int lane, bool bios) {
  const std::string path = tracefs + "/instances/elevbench-" + std::to_string(getpid()) +
                           (lane >= 0 ? "-" + std::to_string(lane) : std::string()) +
                           (bios ? "-bios" : "");
  if (!journal->Record(JournalEntry::TracefsInstance(path), err)) return false;
  journal_ = journal;
  if (mkdir(path.c_str(), 0700) != 0) {
    *err = "make tracefs instance " + path + ": " + strerror(errno);
    std::string ignored;
    (void)journal->Forget(JournalEntry::TracefsInstance(path), &ignored);
    journal_ = nullptr;
    return false;
  }
  path_ = path;
  const std::string filter = "dev == " + std::to_string((uint64_t{major} << 20) | uint64_t{minor});
  if (!WriteTracefsFile(path_ + "/tracing_on", "0", err) ||
      !WriteTracefsFile(path_ + "/trace_clock", "mono", err) ||
      !WriteTracefsFile(path_ + "/buffer_size_kb", std::to_string(buffer_kb), err)) {
    return false;
  }
  // The writeback events name the disk by its bdi, "MAJOR:MINOR".
  const std::string bdi_filter =
      "name == \"" + std::to_string(major) + ":" + std::to_string(minor) + "\"";
  for (const std::string& event : events) {
    const std::string dir = path_ + "/events/" + event;
    // Only the block layer's and jbd2's events have a dev field and the writeback ones a bdi
    // name; others (sched/) are recorded whole.
    const bool block = event.rfind("block/", 0) == 0 || event.rfind("jbd2/", 0) == 0;
    const bool writeback = event.rfind("writeback/", 0) == 0;
    if ((block && !WriteTracefsFile(dir + "/filter", filter, err)) ||
        (writeback && !WriteTracefsFile(dir + "/filter", bdi_filter, err)) ||
        !WriteTracefsFile(dir + "/enable", "1", err)) {
      return false;
    }
  }
  return true;
}

bool TracefsInstance::Remove(std::string* err) {
  if (path_.empty()) return true;
  std::string ignored;
  (void)WriteTracefsFile(path_ + "/tracing_on", "0", &ignored);
  if (rmdir(path_.c_str()) != 0 && errno != ENOENT) {
    *err = "remove tracefs instance " + path_ + ": " + strerror(errno);
    return false;
  }
  const bool forgotten = journal_->Forget(JournalEntry::TracefsInstance(path_), err);
  path_.clear();
  return forgotten;
}

bool TracefsInstance::SetTracing(bool on, std::string* err) const {
  return WriteTracefsFile(path_ + "/tracing_on", on ? "1" : "0", err);
}

bool TracefsInstance::Mark(const std::string& text, std::string* err) const {
  return WriteTracefsFile(path_ + "/trace_marker", text, err);
}

bool TracefsInstance::Exists() const {
  std::error_code ec;
  return !path_.empty() && fs::is_directory(path_, ec);
}

bool TracefsInstance::LostEvents(uint64_t* lost, std::string* err) const {
  *lost = 0;
  std::error_code ec;
  bool any = false;
  for (const auto& cpu : fs::directory_iterator(path_ + "/per_cpu", ec)) {
    std::istringstream stats(ReadTracefsFile(cpu.path().string() + "/stats"));
    for (std::string line; std::getline(stats, line);) {
      const size_t colon = line.find(':');
      if (colon == std::string::npos) continue;
      const std::string key = line.substr(0, colon);
      if (key == "overrun" || key == "dropped events") {
        *lost += std::strtoull(line.c_str() + colon + 1, nullptr, 10);
        any = true;
      }
    }
  }
  if (!any) *err = "no per_cpu/cpuN/stats under " + path_;
  return any;
}

BlkTracer::~BlkTracer() {
  std::string ignored;
  (void)Stop(&ignored);
}

bool BlkTracer::Start(RestoreJournal* journal, const std::string& tracefs, const std::string& disk,
                      std::string* err) {
  const Sysfs sysfs;
  std::string current;
  if (!sysfs.Read(tracefs + "/current_tracer", &current, err)) return false;
  if (current != "nop") {
    *err = "the global tracer is '" + current + "' (someone else is tracing): " +
           "--trace-requests full needs it to be nop; use summary";
    return false;
  }
  journal_ = journal;
  tracefs_ = tracefs;
  // Each value is read, journaled, remembered and only then changed; Stop() writes them back in
  // reverse. enable=0 tears the block trace down with its act_mask, so act_mask needs no entry.
  const std::string enable = "/sys/block/" + disk + "/trace/enable";
  const auto save = [&](const std::string& path) {
    std::string original;
    if (!sysfs.Read(path, &original, err) || !journal->RecordSysfsValue(path, err)) return false;
    saved_.emplace_back(path, original);
    return true;
  };
  return save(tracefs + "/current_tracer") &&
         sysfs.WriteVerified(tracefs + "/current_tracer", "blk", err) &&
         save(tracefs + "/tracing_on") && sysfs.WriteVerified(tracefs + "/tracing_on", "1", err) &&
         save(enable) && sysfs.Write("/sys/block/" + disk + "/trace/act_mask", "notify", err) &&
         sysfs.WriteVerified(enable, "1", err);
}

bool BlkTracer::Stop(std::string* err) {
  if (tracefs_.empty()) return true;
  const Sysfs sysfs;
  bool ok = true;
  for (auto it = saved_.rbegin(); it != saved_.rend(); ++it) {
    std::string one;
    if (!sysfs.WriteVerified(it->first, it->second, &one)) {
      if (ok) *err = one;
      ok = false;
      continue;
    }
    if (!journal_->Forget(JournalEntry::SysfsValue(it->first, it->second), &one)) ok = false;
  }
  saved_.clear();
  tracefs_.clear();
  return ok;
}

TracePipeReader::~TracePipeReader() {
  std::string ignored;
  (void)Stop(&ignored);
}

bool TracePipeReader::Start(const std::string& pipe, const std::string& out, std::string* err) {
  pipe_fd_ = open(pipe.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (pipe_fd_ < 0) {
    *err = "open " + pipe + ": " + strerror(errno);
    return false;
  }
  out_fd_ = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (out_fd_ < 0) {
    *err = "create " + out + ": " + strerror(errno);
    close(pipe_fd_);
    pipe_fd_ = -1;
    return false;
  }
  stop_ = false;
  bytes_ = 0;
  error_.clear();
  thread_ = std::thread([this] { Loop(); });
  return true;
}

void TracePipeReader::Loop() {
  char buf[1 << 16];
  bool draining = false;
  while (true) {
    const ssize_t n = read(pipe_fd_, buf, sizeof buf);
    if (n > 0) {
      if (write(out_fd_, buf, static_cast<size_t>(n)) != n) {
        error_ = std::string("write the trace: ") + strerror(errno);
        return;
      }
      bytes_ += static_cast<uint64_t>(n);
      continue;
    }
    if (n < 0 && errno != EAGAIN && errno != EINTR) {
      error_ = std::string("read trace_pipe: ") + strerror(errno);
      return;
    }
    if (draining) return;  // empty after the stop: everything is in the file
    if (stop_) {
      draining = true;
      continue;
    }
    struct pollfd p = {pipe_fd_, POLLIN, 0};
    (void)poll(&p, 1, 50);
  }
}

bool TracePipeReader::Stop(std::string* err) {
  if (pipe_fd_ < 0) return true;
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  close(pipe_fd_);
  pipe_fd_ = -1;
  const bool synced = fsync(out_fd_) == 0;
  close(out_fd_);
  out_fd_ = -1;
  if (!error_.empty() || !synced) {
    *err = error_.empty() ? "fsync the trace file failed" : error_;
    return false;
  }
  return true;
}

}  // namespace elevbench
