#include "scenarios/replay/replay_completions.h"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace elevbench {

bool ReplayCompletions::Init(const ReplayEngineInput& input, std::string* err) {
  const size_t jobs = input.jobs.size();
  done_.clear();
  awaited_by_.assign(jobs, {});
  for (size_t j = 0; j < jobs; ++j) {
    const size_t steps = input.jobs[j].steps.size();
    done_.push_back(std::make_unique<std::atomic<int64_t>[]>(steps));
    for (size_t i = 0; i < steps; ++i) done_[j][i].store(-1, std::memory_order_relaxed);
    awaited_by_[j].resize(steps);
  }
  for (size_t j = 0; j < jobs; ++j) {
    for (const ReplayStep& s : input.jobs[j].steps) {
      const auto of = static_cast<size_t>(s.after_job);
      if (s.after_job < 0 || of == j || of >= jobs || s.after_step >= awaited_by_[of].size()) {
        continue;
      }
      std::vector<uint32_t>& waiters = awaited_by_[of][s.after_step];
      if (waiters.empty() || waiters.back() != j) waiters.push_back(static_cast<uint32_t>(j));
    }
  }
  for (size_t j = 0; j < jobs; ++j) {
    const int fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    if (fd < 0) {
      *err = std::string("eventfd: ") + std::strerror(errno);
      return false;
    }
    fds_.push_back(fd);
  }
  return true;
}

ReplayCompletions::~ReplayCompletions() {
  for (int fd : fds_) close(fd);
}

void ReplayCompletions::Publish(uint32_t job, uint32_t step, int64_t ns) {
  done_[job][step].store(ns, std::memory_order_release);
  for (uint32_t waiter : awaited_by_[job][step]) Wake(waiter);
}

int64_t ReplayCompletions::DoneNs(uint32_t job, uint32_t step) const {
  return done_[job][step].load(std::memory_order_acquire);
}

void ReplayCompletions::WakeAll() {
  for (uint32_t j = 0; j < fds_.size(); ++j) Wake(j);
}

void ReplayCompletions::Wake(uint32_t job) {
  const uint64_t one = 1;
  // A full counter (2^64 − 2 wake-ups) is still readable: nothing is lost by EAGAIN.
  const ssize_t n = write(fds_[job], &one, sizeof one);
  (void)n;
}

}  // namespace elevbench
