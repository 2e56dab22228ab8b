#pragma once
// The kernel side of the request tracer: finding (or mounting) tracefs, a private instance with
// the block events of one device, the global `blk` tracer for the scheduler's own log, and a
// thread that streams a trace_pipe into a file. Everything changed is journaled first
// (RestoreJournal) and undone on every exit path; a private instance disturbs nobody else's
// tracing, the global tracer is taken only when it is free (`nop`). docs/request-tracing.md.

#include <atomic>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "harness/device/restore_journal.h"

namespace elevbench {

/// Where tracefs is mounted ("/sys/kernel/tracing", or debugfs' "tracing/"). When it is not
/// mounted at all, mounts it at /sys/kernel/tracing, journaled (the journal's undo unmounts it).
/// err is one line.
[[nodiscard]] bool LocateTracefs(RestoreJournal* journal, std::string* root, std::string* err);

/// Whether the global tracer is free for `--trace-requests full`, read without mounting anything:
/// false with "--trace-requests full needs the global tracer, but <tracefs>/current_tracer is
/// 'X' (someone else is tracing); use --trace-requests summary" when a mounted tracefs shows a
/// tracer other than nop. True when it is nop or tracefs is not mounted (nobody traces then;
/// BlkTracer::Start checks again once it is mounted). For the run's checks before anything is
/// made.
[[nodiscard]] bool GlobalTracerFree(std::string* err);

/// The block events a cell's trace needs, as "block/block_rq_issue" paths under events/.
std::vector<std::string> RequestEvents();
/// kyber's own events (kyber_latency, kyber_adjust, kyber_throttled), when the kernel has them.
std::vector<std::string> KyberEvents(const std::string& tracefs);

/// A private tracefs instance ("instances/elevbench-<pid>") recording `events` of one device.
class TracefsInstance {
 public:
  TracefsInstance() = default;
  ~TracefsInstance();  ///< removes the instance if Remove() was not called (never throws)
  TracefsInstance(const TracefsInstance&) = delete;
  TracefsInstance& operator=(const TracefsInstance&) = delete;

  /// Journals then makes the instance, sets its clock to `mono` (one clock across CPUs), its
  /// per-CPU buffer to `buffer_kb`, and enables every event, those of block/ filtered to
  /// `dev == (major << 20) | minor`, those of writeback/ to the bdi `name == "major:minor"`
  /// (others, such as sched/sched_process_fork, have neither).
  /// Tracing stays off until SetTracing(true). An event the kernel lacks fails it.
  /// The instance is `elevbench-<pid>`, or `elevbench-<pid>-<lane>` for lane >= 0 (--lanes:
  /// one instance per lane's disk), or `elevbench-<pid>-bios` with `bios` (a BlockCapture,
  /// which may run beside the run's request tracer: run replay's own account).
  [[nodiscard]] bool Create(RestoreJournal* journal, const std::string& tracefs, uint32_t major,
                            uint32_t minor, const std::vector<std::string>& events,
                            uint32_t buffer_kb, std::string* err, int lane = -1, bool bios = false);
  /// Removes the instance (rmdir) and its journal entry. Idempotent.
  [[nodiscard]] bool Remove(std::string* err);

  [[nodiscard]] bool SetTracing(bool on, std::string* err) const;
  /// Writes `text` into the instance's trace_marker (a tracing_mark_write line in the stream).
  [[nodiscard]] bool Mark(const std::string& text, std::string* err) const;
  /// Events lost so far: the sum over CPUs of per_cpu/cpuN/stats "overrun" and "dropped events".
  [[nodiscard]] bool LostEvents(uint64_t* lost, std::string* err) const;
  /// Whether the instance's directory still exists (someone may remove it under a run).
  bool Exists() const;

  const std::string& path() const { return path_; }
  std::string PipePath() const { return path_ + "/trace_pipe"; }

 private:
  RestoreJournal* journal_ = nullptr;
  std::string path_;
};

/// The global `blk` tracer on one disk, for the scheduler's messages (bfq logs only there):
/// current_tracer=blk, /sys/block/DISK/trace/act_mask=notify (messages only) and enable=1,
/// tracing_on=1, each journaled first. Refused with one line when current_tracer is not `nop`
/// (someone else is tracing).
class BlkTracer {
 public:
  BlkTracer() = default;
  ~BlkTracer();  ///< Stop() if still started
  BlkTracer(const BlkTracer&) = delete;
  BlkTracer& operator=(const BlkTracer&) = delete;

  [[nodiscard]] bool Start(RestoreJournal* journal, const std::string& tracefs,
                           const std::string& disk, std::string* err);
  /// Writes back every value it changed (and drops the journal entries). Idempotent.
  [[nodiscard]] bool Stop(std::string* err);
  std::string PipePath() const { return tracefs_ + "/trace_pipe"; }
  bool started() const { return !tracefs_.empty(); }

 private:
  RestoreJournal* journal_ = nullptr;
  std::string tracefs_;
  std::vector<std::pair<std::string, std::string>> saved_;  // path, original, in change order
};

/// Copies a trace_pipe into a file on its own thread until Stop(), then drains what is left.
class TracePipeReader {
 public:
  TracePipeReader() = default;
  ~TracePipeReader();  ///< Stop() (never throws)
  TracePipeReader(const TracePipeReader&) = delete;
  TracePipeReader& operator=(const TracePipeReader&) = delete;

  /// Opens `pipe` (non-blocking) and `out` (created, truncated) and starts the thread.
  [[nodiscard]] bool Start(const std::string& pipe, const std::string& out, std::string* err);
  /// Reads until the pipe is empty, joins the thread and closes both files. err: a failed read
  /// or write (the file is then incomplete). Idempotent.
  [[nodiscard]] bool Stop(std::string* err);
  uint64_t bytes() const { return bytes_; }

 private:
  void Loop();
  int pipe_fd_ = -1;
  int out_fd_ = -1;
  std::thread thread_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> bytes_{0};
  std::string error_;
};

}  // namespace elevbench
