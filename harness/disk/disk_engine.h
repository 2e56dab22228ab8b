#pragma once
// The emulated disk's request path: real pread/pwrite on the backing file,
// then a sleep to the modelled completion deadline. Serves requests one at a
// time; with queue_depth > 1 a disk thread reorders waiting requests (NCQ).
// Independent of FUSE so that it can be driven directly.

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include "harness/disk/disk_counters.h"
#include "harness/disk/disk_faults.h"
#include "harness/disk/disk_model.h"

namespace elevbench {

/// CLOCK_MONOTONIC in nanoseconds: the time base of the model, the trace and
/// stats.json.
int64_t MonotonicNowNs();

/// Waits until CLOCK_MONOTONIC reaches `deadline_ns`: an absolute
/// clock_nanosleep (restarted on EINTR) to `deadline_ns - spin_ns`, then a
/// busy-wait for the rest. Timer wake-ups on a VM are typically 30-100 us
/// late, which alone would exceed 2% of a 2.5 ms transfer; spinning the last
/// `spin_ns` trades that much CPU per request for on-time completions.
void SleepUntilNs(int64_t deadline_ns, int64_t spin_ns);

/// One disk: a DiskModel plus the backing file descriptor. Two modes:
/// - queue_depth == 1: Submit() serves the request inline on the caller's
///   thread (under a mutex). Arrival order is the order callers reach it; the
///   daemon guarantees it by running a single-threaded FUSE loop.
/// - queue_depth > 1: Submit() queues the request and blocks; a disk thread
///   (Start/Stop) picks the next one with DiskModel::PickNext among the
///   queue_depth oldest and serves it.
/// In both modes start = max(arrival, previous actual completion) and the
/// caller is released at start + modelled service time.
class DiskEngine {
 public:
  /// `fd` is the backing file (not owned); `trace` may be null. `spin_ns` is
  /// passed to SleepUntilNs for every request. `rt_priority` > 0 runs the
  /// serving thread SCHED_FIFO at that priority (when permitted) so that
  /// other load on the host does not delay completions; 0 leaves it alone.
  DiskEngine(int fd, const DiskProfile& profile, DiskStats* stats, DiskTrace* trace,
             int64_t spin_ns, int rt_priority);
  DiskEngine(const DiskEngine&) = delete;
  DiskEngine& operator=(const DiskEngine&) = delete;
  ~DiskEngine();

  /// Starts the disk thread when queue_depth > 1. With queue_depth == 1 the
  /// calling thread is the one that will serve (the FUSE loop thread): it
  /// gets the real-time priority, restored by Stop().
  [[nodiscard]] bool Start(std::string* err);
  /// Serves what is still queued, then joins the disk thread. Call only once
  /// no Submit() is running or will start, from the thread that called
  /// Start().
  void Stop();
  /// Whether the serving thread got SCHED_FIFO (false until it has).
  bool realtime() const { return realtime_.load(); }

  /// One request: reads into / writes from `buf`, returns bytes done or
  /// -errno, and returns no earlier than the modelled completion. A request failed by an injected
  /// fault (DiskFaults) returns -EIO at once, without touching the backing file.
  ssize_t Submit(bool is_write, char* buf, size_t len, uint64_t offset);

  /// A flush (the image's fsync: the loop device turns the kernel's REQ_OP_FLUSH, and the
  /// post-flush of a FUA write, into one): with a write cache or dies (FlushReachesModel) it
  /// goes through the model like a request, queued behind what came before it, and returns 0
  /// no earlier than the modelled completion; otherwise it returns 0 at once, as before.
  int Flush();

  /// Whether `profile` has anything a flush must wait for: a write cache or SSD dies. The
  /// profiles without (ide-2003, sata-7200, ssd) answer flushes at once, as they always did.
  static bool FlushReachesModel(const DiskProfile& profile);

 private:
  struct Pending {
    DiskRequest req;
    char* buf = nullptr;
    ssize_t result = 0;
    bool done = false;
  };

  // Serves `req` inline or through the disk thread; the result of Serve.
  ssize_t SubmitRequest(const DiskRequest& req, char* buf);
  // Model, I/O, sleep, accounting for one request; `mu_` is NOT held.
  ssize_t Serve(const DiskService& svc, const DiskRequest& req, char* buf);
  void DiskThreadMain();
  // Makes the calling thread SCHED_FIFO at rt_priority_ if asked and allowed.
  void BecomeRealtime();

  const int fd_;
  const int64_t spin_ns_;
  const int rt_priority_;
  std::atomic<bool> realtime_{false};
  // Inline mode: the caller's scheduling, restored by Stop().
  bool restore_sched_ = false;
  int saved_policy_ = 0;
  int saved_priority_ = 0;
  DiskStats* stats_;
  DiskTrace* trace_;
  DiskModel model_;    // Guarded by mu_.
  DiskFaults faults_;  // Used where requests are served (one at a time).
  int64_t last_actual_end_ns_ = 0;

  std::mutex mu_;
  std::mutex serve_mu_;  // Serialises the inline mode.
  std::condition_variable work_cv_;
  std::condition_variable done_cv_;
  std::deque<Pending*> waiting_;  // Arrival order.
  bool stopping_ = false;
  std::thread disk_thread_;
};

}  // namespace elevbench
