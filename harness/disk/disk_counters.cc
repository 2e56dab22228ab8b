#include "harness/disk/disk_counters.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>

namespace elevbench {
namespace {

constexpr size_t kTraceFlushBytes = 1 << 20;

double TimevalSeconds(const timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
}

}  // namespace

void DiskStats::Enter(int64_t now_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  if (in_flight_++ == 0) busy_since_ns_ = now_ns;
  c_.max_queue_depth = std::max(c_.max_queue_depth, in_flight_);
}

void DiskStats::Leave(int64_t now_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  if (in_flight_ > 0 && --in_flight_ == 0) c_.busy_ns += now_ns - busy_since_ns_;
}

void DiskStats::Record(const DiskRequest& req, const DiskService& svc, int64_t achieved_ns) {
  std::lock_guard<std::mutex> lock(mu_);
  if (req.flush) {
    ++c_.flushes;
    c_.modelled_ns += svc.service_ns;
    c_.achieved_ns += achieved_ns;
    c_.max_overrun_ns = std::max(c_.max_overrun_ns, achieved_ns - svc.service_ns);
    return;
  }
  ++c_.requests;
  if (req.is_write) {
    ++c_.writes;
    c_.bytes_written += req.length;
  } else {
    ++c_.reads;
    c_.bytes_read += req.length;
  }
  if (!svc.sequential) ++c_.seeks;
  c_.cached_bytes += svc.cached_bytes;
  c_.modelled_ns += svc.service_ns;
  c_.achieved_ns += achieved_ns;
  c_.max_overrun_ns = std::max(c_.max_overrun_ns, achieved_ns - svc.service_ns);
}

void DiskStats::RecordFailure(uint64_t moved_bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  if (c_.failed_requests++ == 0) c_.first_failure_after_bytes = moved_bytes;
}

DiskCounters DiskStats::Snapshot(int64_t now_ns) const {
  std::lock_guard<std::mutex> lock(mu_);
  DiskCounters copy = c_;
  if (in_flight_ > 0) copy.busy_ns += now_ns - busy_since_ns_;
  return copy;
}

nlohmann::json DiskStatsToJson(const DiskCounters& c, const DiskProfile& profile,
                               int64_t uptime_ns) {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  nlohmann::json j{
      {"requests", c.requests},
      {"reads", c.reads},
      {"writes", c.writes},
      {"bytes_read", c.bytes_read},
      {"bytes_written", c.bytes_written},
      {"seeks", c.seeks},
      {"cached_bytes", c.cached_bytes},
      {"busy_ns", c.busy_ns},
      {"modelled_ns", c.modelled_ns},
      {"achieved_ns", c.achieved_ns},
      {"max_overrun_ns", c.max_overrun_ns},
      {"max_queue_depth", c.max_queue_depth},
      {"uptime_ns", uptime_ns},
      {"cpu_user_s", TimevalSeconds(ru.ru_utime)},
      {"cpu_sys_s", TimevalSeconds(ru.ru_stime)},
      {"profile", DiskProfileToJson(profile)},
      {"failed_requests", c.failed_requests},
  };
  if (c.failed_requests > 0) j["first_failure_after_bytes"] = c.first_failure_after_bytes;
  // Only profiles with a write cache or dies send flushes to the model (DiskEngine::Flush).
  if (profile.write_cache_bytes > 0 || profile.ssd_dies > 0) j["flushes"] = c.flushes;
  return j;
}

DiskTrace::~DiskTrace() {
  if (file_ != nullptr) {
    std::string ignored;
    (void)Close(&ignored);
  }
}

bool DiskTrace::Open(const std::string& path, std::string* err) {
  file_ = std::fopen(path.c_str(), "we");
  if (file_ == nullptr) {
    *err = "cannot create trace " + path + ": " + std::strerror(errno);
    return false;
  }
  path_ = path;
  buffer_.reserve(kTraceFlushBytes + 4096);
  buffer_ = "# arrival_ns start_ns end_ns offset len rw seek_distance modelled_ns achieved_ns\n";
  return true;
}

void DiskTrace::Append(const DiskRequest& req, const DiskService& svc, int64_t actual_end_ns) {
  if (file_ == nullptr) return;
  char line[256];
  const int n = std::snprintf(line, sizeof(line),
                              "%" PRId64 " %" PRId64 " %" PRId64 " %" PRIu64 " %" PRIu64
                              " %c %" PRIu64 " %" PRId64 " %" PRId64 "\n",
                              req.arrival_ns, svc.start_ns, actual_end_ns, req.offset, req.length,
                              req.flush ? 'F' : (req.is_write ? 'W' : 'R'), svc.seek_distance,
                              svc.service_ns, actual_end_ns - svc.start_ns);
  if (n > 0) buffer_.append(line, std::min(static_cast<size_t>(n), sizeof(line) - 1));
}

void DiskTrace::FlushIfLarge() {
  if (file_ != nullptr && buffer_.size() >= kTraceFlushBytes) WriteBuffer();
}

void DiskTrace::WriteBuffer() {
  if (!buffer_.empty() && std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    write_failed_ = true;
  }
  buffer_.clear();
}

bool DiskTrace::Close(std::string* err) {
  if (file_ == nullptr) return true;
  WriteBuffer();
  const bool close_failed = std::fclose(file_) != 0;
  file_ = nullptr;
  if (write_failed_ || close_failed) {
    *err = "cannot write trace " + path_;
    return false;
  }
  return true;
}

}  // namespace elevbench
