#include "scenarios/replay/replay_engine.h"

#include <fcntl.h>
#include <liburing.h>
#include <linux/fs.h>
#include <poll.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/plain_range.h"
#include "scenarios/replay/replay_buffered_writer.h"
#include "scenarios/replay/replay_completions.h"
#include "scenarios/replay/replay_wait_rules.h"

namespace elevbench {
namespace {

// The replay starts this long after the threads are made: each sets up its ring and buffers
// first, so no thread's first I/O is late for its set-up.
constexpr int64_t kEngineLeadInNs = 100000000;
constexpr uint64_t kEngineBufferAlign = 4096;

int64_t EngineNowNs() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::string StepText(const ReplayEngineJob& job, size_t i) {
  const ReplayStep& s = job.steps[i];
  const char* op = s.op == BlockTraceOp::kRead    ? "read"
                   : s.op == BlockTraceOp::kWrite ? "write"
                   : s.op == BlockTraceOp::kFlush ? "flush"
                                                  : "trim";
  return job.name + ": step " + std::to_string(i) + " (" + op + " of " + std::to_string(s.bytes) +
         " bytes at " + std::to_string(s.offset) + ")";
}

// Frees posix_memalign's buffers.
struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

// One thread's replay of one job.
class JobReplayer {
 public:
  JobReplayer(const ReplayEngineJob& job, uint32_t index, int fd, int64_t start_ns,
              int64_t deadline_ns, std::atomic<bool>* abort, ReplayCompletions* completions,
              ReplayWaitRules* rules)
      : job_(job),
        index_(index),
        fd_(fd),
        start_ns_(start_ns),
        deadline_ns_(deadline_ns),
        abort_(abort),
        completions_(completions),
        rules_(rules),
        waiter_(rules) {}

  // Runs the job to its end; false with err_ set.
  bool Run() {
    if (!SetUp()) return Fail();
    const bool ok = Loop();
    // Nothing may be in flight when the ring and buffers go: drain (bounded by the deadline).
    const int64_t drain_until = std::max(EngineNowNs(), deadline_ns_) + 5000000000LL;
    while (in_flight_ > 0 && EngineNowNs() < drain_until) {
      if (!Reap(EngineNowNs() + 100000000)) continue;
    }
    io_uring_queue_exit(&ring_);
    if (in_flight_ > 0) {
      void* still_used = buffers_.release();  // the kernel may still write into them
      (void)still_used;
    }
    Finish();
    return ok || Fail();
  }

  JobResult result;
  std::string err;

 private:
  bool SetUp() {
    const int ret = io_uring_queue_init(std::max<uint32_t>(job_.depth, 1), &ring_, 0);
    if (ret < 0) {
      err = job_.name + ": io_uring_queue_init: " + std::strerror(-ret);
      return false;
    }
    // One worker issues this job's I/Os, in order (see the header); the ring signals the
    // job's eventfd on each completion, where other jobs' completions wake it too.
    unsigned int workers[2] = {1, 1};
    int wret = io_uring_register_iowq_max_workers(&ring_, workers);
    const char* what = "io_uring_register_iowq_max_workers";
    if (wret >= 0) {
      wret = io_uring_register_eventfd(&ring_, completions_->EventFd(index_));
      what = "io_uring_register_eventfd";
    }
    if (wret < 0) {
      io_uring_queue_exit(&ring_);
      err = job_.name + ": " + what + ": " + std::strerror(-wret);
      return false;
    }
    uint64_t largest = kEngineBufferAlign;
    for (const ReplayStep& s : job_.steps) largest = std::max(largest, s.bytes);
    slot_bytes_ = (largest + kEngineBufferAlign - 1) / kEngineBufferAlign * kEngineBufferAlign;
    void* p = nullptr;
    if (posix_memalign(&p, kEngineBufferAlign, slot_bytes_ * job_.depth) != 0) {
      io_uring_queue_exit(&ring_);
      err = job_.name + ": cannot allocate " + std::to_string(slot_bytes_ * job_.depth) + " bytes";
      return false;
    }
    std::memset(p, 0, slot_bytes_ * job_.depth);
    buffers_.reset(p);
    for (uint32_t i = 0; i < job_.depth; ++i) free_slots_.push_back(i);
    issued_ns_.assign(job_.steps.size(), -1);
    done_ns_.assign(job_.steps.size(), -1);
    slot_of_.assign(job_.steps.size(), 0);
    result.name = job_.name;
    result.clones = 1;
    return true;
  }

  // When step i may be issued: -1 while it waits for its predecessor's completion or the one
  // that woke it in the capture (after_job, this job's or another's).
  int64_t ReadyAt(size_t i) const {
    const ReplayStep& s = job_.steps[i];
    const auto us = static_cast<int64_t>(s.us) * 1000;
    if (s.after_job >= 0) {
      const int64_t done = completions_->DoneNs(static_cast<uint32_t>(s.after_job), s.after_step);
      return done < 0 ? -1 : done + us;
    }
    if (!s.after_previous || i == 0) return start_ns_ + us;
    return done_ns_[i - 1] < 0 ? -1 : done_ns_[i - 1] + us;
  }

  bool Loop() {
    size_t next = 0;
    while (next < job_.steps.size() || in_flight_ > 0) {
      if (abort_->load()) {
        err = job_.name + ": stopped, another job failed";
        return false;
      }
      const int64_t now = EngineNowNs();
      if (now > deadline_ns_) {
        err = job_.name + ": the replay ran past its deadline at step " + std::to_string(next) +
              " of " + std::to_string(job_.steps.size());
        return false;
      }
      int64_t wake = deadline_ns_;
      while (next < job_.steps.size() && !free_slots_.empty()) {
        const int64_t at = ReadyAt(next);
        if (at < 0) break;
        if (at > now) {
          wake = std::min(wake, at);
          break;
        }
        // Every wait rule must let it go (replay_wait_rules.h: a change of metadata waits for
        // the metadata writes in flight when it became ready, say).
        if (!waiter_.StepMayGo(index_, static_cast<uint32_t>(next), now)) {
          wake = std::min(wake, now + kReplayRulePollNs);
          break;
        }
        if (!Issue(next)) return false;
        ++next;
      }
      if (!Reap(wake)) return false;
    }
    return true;
  }

  bool Issue(size_t i) {
    const ReplayStep& s = job_.steps[i];
    issued_ns_[i] = EngineNowNs();
    if (s.op == BlockTraceOp::kDiscard) return Discard(i);
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) {
      err = StepText(job_, i) + ": no free submission entry";
      return false;
    }
    const uint32_t slot = free_slots_.back();
    free_slots_.pop_back();
    slot_of_[i] = slot;
    char* buf = static_cast<char*>(buffers_.get()) + slot * slot_bytes_;
    const auto len = static_cast<unsigned>(s.bytes);
    if (s.op == BlockTraceOp::kRead) io_uring_prep_read(sqe, fd_, buf, len, s.offset);
    if (s.op == BlockTraceOp::kWrite) io_uring_prep_write(sqe, fd_, buf, len, s.offset);
    if (s.op == BlockTraceOp::kFlush) {
      // A FLUSH, not a writeback: fsync of a block device first writes back every dirty page of
      // its page cache, which a buffered writer's job keeps full (replay_buffered_writer.h), and
      // the flushing job (jbd2's) would then write the writer's pages and wait for them, where
      // the traced flush (blkdev_issue_flush) wrote none. io_uring's fsync takes a range: the
      // first byte's page only, then the device's flush.
      io_uring_prep_fsync(sqe, fd_, 0);
      sqe->off = 0;
      sqe->len = 1;
    }
    io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);  // never the non-blocking attempt (the header)
    io_uring_sqe_set_data64(sqe, i);
    const int ret = io_uring_submit(&ring_);
    if (ret < 0) {
      err = StepText(job_, i) + ": io_uring_submit: " + std::strerror(-ret);
      free_slots_.push_back(slot);
      return false;
    }
    ++in_flight_;
    rules_->Issued(index_, static_cast<uint32_t>(i));
    return true;
  }

  bool Discard(size_t i) {
    const ReplayStep& s = job_.steps[i];
    uint64_t range[2] = {s.offset, s.bytes};
    if (ioctl(fd_, BLKDISCARD, range) != 0) {
      err = StepText(job_, i) + ": BLKDISCARD: " + std::strerror(errno);
      return false;
    }
    Complete(i, static_cast<int64_t>(s.bytes));
    return true;
  }

  // Reaps every completion there is; if there was none, sleeps on the job's eventfd until a
  // completion of its ring, another job's completion it waits for, or `until` (absolute),
  // whichever first, and reaps again (ReplayCompletions: no wake-up is lost).
  bool Reap(int64_t until) {
    bool ok = true;
    if (ReapReady(&ok) > 0 || !ok) return ok;
    const int64_t wait = std::max<int64_t>(until - EngineNowNs(), 0);
    const timespec ts{static_cast<time_t>(wait / 1000000000), static_cast<long>(wait % 1000000000)};
    pollfd p{completions_->EventFd(index_), POLLIN, 0};
    if (ppoll(&p, 1, &ts, nullptr) < 0 && errno != EINTR) {
      err = job_.name + ": ppoll: " + std::strerror(errno);
      return false;
    }
    uint64_t count = 0;
    const ssize_t n = read(p.fd, &count, sizeof count);  // EAGAIN: nothing signalled
    (void)n;
    ReapReady(&ok);
    return ok;
  }

  // Reaps the completions in the ring without waiting; how many. *ok false on a failed I/O.
  size_t ReapReady(bool* ok) {
    size_t reaped = 0;
    io_uring_cqe* cqe = nullptr;
    while (io_uring_peek_cqe(&ring_, &cqe) == 0 && cqe != nullptr) {
      const auto i = static_cast<size_t>(io_uring_cqe_get_data64(cqe));
      const int res = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      --in_flight_;
      ++reaped;
      free_slots_.push_back(slot_of_[i]);
      if (res < 0 && *ok) {
        err = StepText(job_, i) + ": " + std::strerror(-res);
        *ok = false;
      }
      Complete(i, std::max(res, 0));
      cqe = nullptr;
    }
    return reaped;
  }

  void Complete(size_t i, int64_t bytes) {
    const int64_t now = EngineNowNs();
    rules_->Completed(index_, static_cast<uint32_t>(i));
    done_ns_[i] = now;
    completions_->Publish(index_, static_cast<uint32_t>(i), now);
    last_done_ns_ = std::max(last_done_ns_, now);
    if (first_issue_ns_ < 0) first_issue_ns_ = issued_ns_[i];
    const auto latency = static_cast<uint64_t>(std::max<int64_t>(now - issued_ns_[i], 0));
    const BlockTraceOp op = job_.steps[i].op;
    if (op == BlockTraceOp::kFlush) {
      ++result.sync_ios;
      return;
    }
    JobDirectionResult& d = op == BlockTraceOp::kRead    ? result.read
                            : op == BlockTraceOp::kWrite ? result.write
                                                         : result.trim;
    d.bytes += static_cast<uint64_t>(bytes);
    ++d.ios;
    d.clat.Record(latency);
  }

  void Finish() {
    const double runtime = first_issue_ns_ < 0 || last_done_ns_ < first_issue_ns_
                               ? 0
                               : static_cast<double>(last_done_ns_ - first_issue_ns_) / 1e9;
    for (JobDirectionResult* d : {&result.read, &result.write, &result.trim}) {
      if (d->ios > 0) d->runtime_seconds = runtime;
    }
    rusage ru{};
    if (getrusage(RUSAGE_THREAD, &ru) == 0) {
      result.cpu_seconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                           static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    }
  }

  bool Fail() {
    abort_->store(true);
    completions_->WakeAll();
    return false;
  }

  const ReplayEngineJob& job_;
  const uint32_t index_;
  const int fd_;
  const int64_t start_ns_, deadline_ns_;
  std::atomic<bool>* abort_;
  ReplayCompletions* completions_;
  ReplayWaitRules* rules_;
  ReplayRuleWaiter waiter_;  // this thread's holds by the rules
  io_uring ring_{};
  std::unique_ptr<void, FreeDeleter> buffers_;
  uint64_t slot_bytes_ = 0;
  std::vector<uint32_t> free_slots_;
  std::vector<int64_t> issued_ns_, done_ns_;
  std::vector<uint32_t> slot_of_;
  uint32_t in_flight_ = 0;
  int64_t first_issue_ns_ = -1, last_done_ns_ = -1;

 public:
  int64_t last_done_ns() const { return last_done_ns_; }
};

bool OpenTarget(const ReplayEngineInput& input, int* fd, std::string* err) {
  *fd = open(input.device.c_str(), (input.writes ? O_RDWR : O_RDONLY) | O_DIRECT | O_CLOEXEC);
  if (*fd < 0) {
    *err = "cannot open " + input.device + ": " + std::strerror(errno);
    return false;
  }
  struct stat st {};
  uint64_t size = 0;
  if (fstat(*fd, &st) != 0 || !S_ISBLK(st.st_mode) || ioctl(*fd, BLKGETSIZE64, &size) != 0) {
    *err = input.device + " is not a block device: the engine replays onto block devices only";
    close(*fd);
    return false;
  }
  for (const ReplayEngineJob& job : input.jobs) {
    if (job.buffered && !input.writes) {
      *err = job.name + ": a buffered writer on a read-only replay";
      close(*fd);
      return false;
    }
    for (size_t i = 0; i < job.steps.size(); ++i) {
      const ReplayStep& s = job.steps[i];
      const bool data = s.op != BlockTraceOp::kFlush;
      if ((data && (s.offset > size || s.bytes > size - s.offset)) ||
          (!input.writes && (s.op == BlockTraceOp::kWrite || s.op == BlockTraceOp::kDiscard)) ||
          (data &&
           (s.offset % 512 != 0 || s.bytes % 512 != 0 || s.bytes == 0 || s.bytes > (1ULL << 30)))) {
        *err = StepText(job, i) + ": outside the " + std::to_string(size) + " bytes of " +
               input.device + ", unaligned, or a write on a read-only replay";
        close(*fd);
        return false;
      }
    }
  }
  return true;
}

// Per job, whether it is a reader: a job with reads, not one replaying a writer's writeback
// (whose reads, a flusher's bitmap read, are not a reader's).
std::vector<char> ReaderJobs(const ReplayEngineInput& input) {
  std::vector<char> reader(input.jobs.size(), 0);
  for (size_t j = 0; j < input.jobs.size(); ++j) {
    const auto& steps = input.jobs[j].steps;
    reader[j] = !input.jobs[j].writer_writeback &&
                std::any_of(steps.begin(), steps.end(),
                            [](const ReplayStep& s) { return s.op == BlockTraceOp::kRead; });
  }
  return reader;
}

}  // namespace

bool RunReplayEngine(const ReplayEngineInput& input, double timeout_seconds,
                     ReplayEngineResult* result, std::string* err) {
  int fd = -1;
  if (!OpenTarget(input, &fd, err)) return false;
  const int64_t start = EngineNowNs() + kEngineLeadInNs;
  const int64_t deadline = timeout_seconds > 0
                               ? start + static_cast<int64_t>(timeout_seconds * 1e9)
                               : start + 24LL * 3600 * 1000000000;  // a bound all the same
  std::atomic<bool> abort{false};
  ReplayCompletions completions;
  if (!completions.Init(input, err)) {
    close(fd);
    return false;
  }
  // A buffered writer that wrote until the readers ended stops when they have.
  const std::vector<char> reader = ReaderJobs(input);
  std::atomic<int> readers_left{static_cast<int>(std::count(reader.begin(), reader.end(), 1))};
  // A replayer for each job of steps; a buffered writer's job runs RunBufferedWriter instead.
  ReplayWaitRules rules(input);
  std::vector<std::unique_ptr<JobReplayer>> replayers;
  for (size_t j = 0; j < input.jobs.size(); ++j) {
    replayers.push_back(input.jobs[j].buffered
                            ? nullptr
                            : std::make_unique<JobReplayer>(input.jobs[j], static_cast<uint32_t>(j),
                                                            fd, start, deadline, &abort,
                                                            &completions, &rules));
  }
  const BufferedWriterContext writer_context{input.device, start,         deadline,
                                             &abort,       &readers_left, &rules};
  std::vector<std::thread> threads;
  std::vector<char> ok(replayers.size(), 0);
  std::vector<JobResult> results(replayers.size());
  std::vector<std::string> errors(replayers.size());
  std::vector<int64_t> last_done(replayers.size(), start);
  for (size_t i = 0; i < replayers.size(); ++i) {
    threads.emplace_back([&, i] {
      const ReplayEngineJob& job = input.jobs[i];
      pthread_setname_np(pthread_self(), job.name.substr(0, 15).c_str());
      if (job.buffered) {
        ok[i] = RunBufferedWriter(job.name, *job.buffered, writer_context, &results[i],
                                  &last_done[i], &errors[i]);
        if (!ok[i]) {
          abort.store(true);
          completions.WakeAll();
        }
      } else {
        ok[i] = replayers[i]->Run() ? 1 : 0;
        results[i] = replayers[i]->result;
        errors[i] = replayers[i]->err;
        last_done[i] = replayers[i]->last_done_ns();
      }
      if (reader[i]) --readers_left;
    });
  }
  for (std::thread& t : threads) t.join();
  close(fd);
  ReplayEngineResult out;
  int64_t last = start;
  std::string first_err;
  for (size_t i = 0; i < replayers.size(); ++i) {
    // The failure that stopped the others is the cause.
    const bool cause = errors[i].find("another job failed") == std::string::npos;
    if (!ok[i] && (first_err.empty() || cause)) first_err = errors[i];
    out.jobs.push_back(results[i]);
    last = std::max(last, last_done[i]);
  }
  if (std::find(ok.begin(), ok.end(), 0) != ok.end()) {
    *err = first_err;
    return false;
  }
  out.seconds = static_cast<double>(last - start) / 1e9;
  out.waits = rules.Counts();
  for (const ReplayWaitCount& w : out.waits) {
    if (w.rule == "metadata_after_handle") out.journal_wait_seconds = w.seconds;
  }
  *result = std::move(out);
  return true;
}

namespace {

struct ReplayEngineArgs {
  std::string input, result;
  double timeout = 0;
};

bool ReadEngineInput(const std::string& path, ReplayEngineInput* input, std::string* err) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    *err = "cannot read " + path;
    return false;
  }
  const nlohmann::json j = nlohmann::json::parse(text.str(), nullptr, false);
  if (j.is_discarded() || !ReplayEngineInputFromJson(j, input, err)) {
    *err = path + ": " + (j.is_discarded() ? std::string("not JSON") : *err);
    return false;
  }
  return true;
}

}  // namespace

std::function<int(std::string* err)> AddReplayEngineCommand(CLI::App* cmd) {
  auto args = std::make_shared<ReplayEngineArgs>();
  cmd->add_option("--input", args->input, "The replay's input (JSON)")->required();
  cmd->add_option("--result", args->result, "Where to write the result (JSON)")->required();
  cmd->add_option("--timeout", args->timeout, "Seconds until the replay gives up (0: a day)")
      ->check(PlainRange(0.0, 86400.0, "seconds"));
  return [args](std::string* err) {
    ReplayEngineInput input;
    ReplayEngineResult result;
    if (!ReadEngineInput(args->input, &input, err) ||
        !RunReplayEngine(input, args->timeout, &result, err) ||
        !WriteFileAtomically(args->result, ReplayEngineResultToJson(result).dump() + "\n", err)) {
      *err = "replay-engine: " + *err;
      return 1;
    }
    return 0;
  };
}

}  // namespace elevbench
