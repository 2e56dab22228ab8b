#pragma once
// Live counters and the per-request trace of the emulated disk daemon. Kept
// apart from the FUSE code so that the accounting can be tested and reused
// (stats.json, `elevbench disk` exit summary) without a mount.

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/disk/disk_model.h"

namespace elevbench {

/// A consistent copy of the daemon's counters. Times are nanoseconds.
struct DiskCounters {
  uint64_t requests = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t bytes_read = 0;
  uint64_t bytes_written = 0;
  /// Requests that paid a seek (not sequential to the previous one).
  uint64_t seeks = 0;
  /// Bytes whose transfer the stream cache had already done.
  uint64_t cached_bytes = 0;
  /// Wall time with at least one request inside the daemon (queued or in
  /// service). With queue_depth == 1 this is close to achieved_ns.
  int64_t busy_ns = 0;
  /// Sum of modelled service times.
  int64_t modelled_ns = 0;
  /// Sum of achieved service times (completion - modelled start).
  int64_t achieved_ns = 0;
  /// Largest achieved - modelled of any request (how late the daemon woke).
  int64_t max_overrun_ns = 0;
  /// Most requests inside the daemon at once (1 when queue_depth == 1: the
  /// single-threaded loop takes the next request only after the last).
  int max_queue_depth = 0;
  /// Flushes (fsync of the image: the loop device's REQ_OP_FLUSH, and its FUA writes' post-
  /// flush) served by the model; not counted in requests. Only a profile with a write cache or
  /// dies sends them to the model.
  uint64_t flushes = 0;
  /// Requests failed with EIO by an injected fault (DiskFaults).
  uint64_t failed_requests = 0;
  /// Bytes the disk had moved when the first of them failed (0 while none has).
  uint64_t first_failure_after_bytes = 0;
};

/// Thread-safe accumulator behind stats.json. Enter/Leave bracket each
/// request's stay in the daemon; Record adds one completed request.
class DiskStats {
 public:
  /// A request arrived at `now_ns`; starts a busy period if none is open.
  void Enter(int64_t now_ns);
  /// A request left at `now_ns`; closes the busy period when the last leaves.
  void Leave(int64_t now_ns);
  /// Adds one served request and its achieved service time.
  void Record(const DiskRequest& req, const DiskService& svc, int64_t achieved_ns);
  /// Adds one request failed by an injected fault, the disk having moved `moved_bytes` so far.
  void RecordFailure(uint64_t moved_bytes);
  /// Copy of the counters; an open busy period is counted up to `now_ns`.
  DiskCounters Snapshot(int64_t now_ns) const;

 private:
  mutable std::mutex mu_;
  DiskCounters c_;
  int in_flight_ = 0;
  int64_t busy_since_ns_ = 0;
};

/// Renders stats.json: the counters, the daemon's own CPU time so far
/// (getrusage of the whole process), uptime and the profile.
nlohmann::json DiskStatsToJson(const DiskCounters& counters, const DiskProfile& profile,
                               int64_t uptime_ns);

/// Optional per-request trace, one text line per request:
/// `arrival_ns start_ns end_ns offset len R|W|F seek_distance modelled_ns
/// achieved_ns` (F: a flush, offset and len 0) (CLOCK_MONOTONIC ns; `#` starts the header line).
/// Lines are buffered in memory; FlushIfLarge() is meant to be called inside a request's modelled
/// service window, where the write costs no extra latency. Not thread-safe: only the disk (one
/// thread at a time) appends.
class DiskTrace {
 public:
  DiskTrace() = default;
  DiskTrace(const DiskTrace&) = delete;
  DiskTrace& operator=(const DiskTrace&) = delete;
  ~DiskTrace();

  /// Creates/truncates `path` and writes the header line.
  [[nodiscard]] bool Open(const std::string& path, std::string* err);
  bool is_open() const { return file_ != nullptr; }
  /// Buffers one line for a completed request.
  void Append(const DiskRequest& req, const DiskService& svc, int64_t actual_end_ns);
  /// Writes the buffer out when it holds more than ~1 MiB.
  void FlushIfLarge();
  /// Writes everything and closes the file; false on any write error so far.
  [[nodiscard]] bool Close(std::string* err);

 private:
  void WriteBuffer();

  std::FILE* file_ = nullptr;
  std::string path_;
  std::string buffer_;
  bool write_failed_ = false;
};

}  // namespace elevbench
