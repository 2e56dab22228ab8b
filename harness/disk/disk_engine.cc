#include "harness/disk/disk_engine.h"

#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <system_error>
#include <vector>

namespace elevbench {
namespace {

// Full pread/pwrite of `len` bytes (retrying short transfers and EINTR).
// Returns bytes done (short only at end of file) or -errno.
ssize_t FullIo(int fd, bool is_write, char* buf, size_t len, uint64_t offset) {
  size_t done = 0;
  while (done < len) {
    const off_t at = static_cast<off_t>(offset + done);
    const ssize_t n =
        is_write ? pwrite(fd, buf + done, len - done, at) : pread(fd, buf + done, len - done, at);
    if (n < 0) {
      if (errno == EINTR) continue;
      return done > 0 ? static_cast<ssize_t>(done) : -errno;
    }
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  return static_cast<ssize_t>(done);
}

}  // namespace

int64_t MonotonicNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void SleepUntilNs(int64_t deadline_ns, int64_t spin_ns) {
  const int64_t wake_ns = deadline_ns - std::max<int64_t>(0, spin_ns);
  if (MonotonicNowNs() < wake_ns) {
    timespec ts{};
    ts.tv_sec = static_cast<time_t>(wake_ns / 1'000'000'000);
    ts.tv_nsec = static_cast<long>(wake_ns % 1'000'000'000);
    // Restart on EINTR; on any other error fall through to the busy-wait.
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
  while (MonotonicNowNs() < deadline_ns) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
}

DiskEngine::DiskEngine(int fd, const DiskProfile& profile, DiskStats* stats, DiskTrace* trace,
                       int64_t spin_ns, int rt_priority)
    : fd_(fd),
      spin_ns_(spin_ns),
      rt_priority_(rt_priority),
      stats_(stats),
      trace_(trace),
      model_(profile),
      faults_(profile) {}

DiskEngine::~DiskEngine() { Stop(); }

void DiskEngine::BecomeRealtime() {
  if (rt_priority_ <= 0) return;
  sched_param param{};
  param.sched_priority = rt_priority_;
  // EPERM without CAP_SYS_NICE: keep running, just less robust to host load.
  if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &param) == 0) realtime_ = true;
}

bool DiskEngine::Start(std::string* err) {
  if (model_.profile().queue_depth <= 1) {
    sched_param param{};
    if (!restore_sched_ && rt_priority_ > 0 &&
        pthread_getschedparam(pthread_self(), &saved_policy_, &param) == 0) {
      saved_priority_ = param.sched_priority;
      restore_sched_ = true;
      BecomeRealtime();
    }
    return true;
  }
  if (disk_thread_.joinable()) return true;
  try {
    disk_thread_ = std::thread([this] { DiskThreadMain(); });
  } catch (const std::system_error& e) {
    *err = std::string("cannot start disk thread: ") + e.what();
    return false;
  }
  return true;
}

void DiskEngine::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  if (disk_thread_.joinable()) disk_thread_.join();
  if (restore_sched_) {
    sched_param param{};
    param.sched_priority = saved_priority_;
    pthread_setschedparam(pthread_self(), saved_policy_, &param);
    restore_sched_ = false;
  }
}

ssize_t DiskEngine::Submit(bool is_write, char* buf, size_t len, uint64_t offset) {
  DiskRequest req;
  req.offset = offset;
  req.length = len;
  req.is_write = is_write;
  return SubmitRequest(req, buf);
}

bool DiskEngine::FlushReachesModel(const DiskProfile& profile) {
  return profile.write_cache_bytes > 0 || profile.ssd_dies > 0;
}

int DiskEngine::Flush() {
  if (!FlushReachesModel(model_.profile())) return 0;
  DiskRequest req;
  req.flush = true;
  return static_cast<int>(SubmitRequest(req, nullptr));
}

ssize_t DiskEngine::SubmitRequest(const DiskRequest& request, char* buf) {
  const int64_t arrival_ns = MonotonicNowNs();
  stats_->Enter(arrival_ns);
  DiskRequest req = request;
  req.arrival_ns = arrival_ns;
  ssize_t result = 0;
  if (model_.profile().queue_depth <= 1) {
    std::lock_guard<std::mutex> serve_lock(serve_mu_);
    DiskRequest effective = req;
    effective.arrival_ns = std::max(arrival_ns, last_actual_end_ns_);
    const DiskService svc = model_.Serve(effective);
    result = Serve(svc, req, buf);
  } else {
    Pending pending;
    pending.req = req;
    pending.buf = buf;
    std::unique_lock<std::mutex> lock(mu_);
    waiting_.push_back(&pending);
    work_cv_.notify_one();
    done_cv_.wait(lock, [&pending] { return pending.done; });
    result = pending.result;
  }
  stats_->Leave(MonotonicNowNs());
  return result;
}

ssize_t DiskEngine::Serve(const DiskService& svc, const DiskRequest& req, char* buf) {
  if (!req.flush && faults_.enabled() && faults_.Fails(req.length)) {
    stats_->RecordFailure(faults_.moved_bytes());
    return -EIO;
  }
  // A flush moves no data here: the backing file is on tmpfs, and the model charges the
  // destage.
  const ssize_t result = req.flush ? 0 : FullIo(fd_, req.is_write, buf, req.length, req.offset);
  // Trace output is written inside the service window, before the sleep, so
  // it does not add latency unless it overruns the deadline.
  if (trace_ != nullptr) trace_->FlushIfLarge();
  SleepUntilNs(svc.end_ns, spin_ns_);
  const int64_t end_ns = MonotonicNowNs();
  last_actual_end_ns_ = end_ns;
  stats_->Record(req, svc, end_ns - svc.start_ns);
  if (trace_ != nullptr) trace_->Append(req, svc, end_ns);
  return result;
}

void DiskEngine::DiskThreadMain() {
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
  BecomeRealtime();
  std::vector<DiskRequest> candidates;
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    work_cv_.wait(lock, [this] { return stopping_ || !waiting_.empty(); });
    if (waiting_.empty()) break;  // Stopping and drained.
    const size_t n = std::min(waiting_.size(), static_cast<size_t>(model_.profile().queue_depth));
    candidates.clear();
    for (size_t i = 0; i < n; ++i) candidates.push_back(waiting_[i]->req);
    const int64_t now_ns = MonotonicNowNs();
    model_.AdvanceTo(now_ns);  // Destaging in idle time moves the head (write cache only).
    const size_t pick = model_.PickNext(candidates, now_ns);
    Pending* p = waiting_[pick];
    waiting_.erase(waiting_.begin() + static_cast<std::ptrdiff_t>(pick));
    lock.unlock();

    DiskRequest effective = p->req;
    effective.arrival_ns = std::max(p->req.arrival_ns, last_actual_end_ns_);
    const DiskService svc = model_.Serve(effective);
    const ssize_t result = Serve(svc, p->req, p->buf);

    lock.lock();
    p->result = result;
    p->done = true;
    done_cv_.notify_all();
  }
}

}  // namespace elevbench
