#pragma once
// The dependent replayer's shared table of completions (replay_engine.h): each engine thread
// replays one traced process, and a step may wait for a step of another thread's job, the
// completion that woke it in the capture (ReplayStep::after_job). A thread publishes each of its
// steps' completion times here and wakes the threads that wait for that step; a waiting thread
// reads the time. Each thread sleeps on its own eventfd, which its io_uring also signals on
// every completion (io_uring_register_eventfd), so one bounded ppoll wakes it for either.
//
// Safety: a time is written once (release) before the waiter's eventfd is written, and read
// (acquire) after the waiter drained its eventfd, so a completion published after the read
// leaves the eventfd signalled and the next ppoll returns at once: no wake-up is lost. No lock.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "scenarios/replay/replay_engine_input.h"

namespace elevbench {

/// Completion times of every step of every job of one replay, and one eventfd per job.
class ReplayCompletions {
 public:
  /// Sized for `input`'s jobs and steps (all times unknown), with one eventfd per job. False
  /// with err when an eventfd cannot be made.
  [[nodiscard]] bool Init(const ReplayEngineInput& input, std::string* err);
  ~ReplayCompletions();

  /// Records that step `step` of job `job` completed at `ns` (CLOCK_MONOTONIC) and wakes every
  /// other job with a step waiting for it.
  void Publish(uint32_t job, uint32_t step, int64_t ns);
  /// When step `step` of job `job` completed, or -1 while it has not.
  int64_t DoneNs(uint32_t job, uint32_t step) const;
  /// Job `job`'s eventfd (non-blocking, a counter): readable when a completion it may wait for
  /// was published, or (once registered with its ring) its ring has a completion.
  int EventFd(uint32_t job) const { return fds_[job]; }
  /// Wakes every job (one failed: the others stop waiting and see the abort).
  void WakeAll();

 private:
  void Wake(uint32_t job);

  std::vector<std::unique_ptr<std::atomic<int64_t>[]>> done_;
  /// awaited_by_[job][step]: the other jobs with a step waiting for it.
  std::vector<std::vector<std::vector<uint32_t>>> awaited_by_;
  std::vector<int> fds_;
};

}  // namespace elevbench
