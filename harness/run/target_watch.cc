#include "harness/run/target_watch.h"

namespace elevbench {

TargetWatch::TargetWatch(std::function<bool(std::string* why)> lost,
                         std::function<void(const std::string& why)> on_lost,
                         std::chrono::milliseconds period)
    : lost_fn_(std::move(lost)), on_lost_(std::move(on_lost)), period_(period) {
  if (lost_fn_) thread_ = std::thread([this] { Loop(); });
}

TargetWatch::~TargetWatch() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool TargetWatch::Lost(std::string* why) const {
  std::lock_guard<std::mutex> lock(mu_);
  if (lost_ && why != nullptr) *why = why_;
  return lost_;
}

void TargetWatch::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    if (cv_.wait_for(lock, period_, [this] { return stopping_; })) break;
    lock.unlock();
    std::string why;
    const bool lost = lost_fn_(&why);
    lock.lock();
    if (!lost) continue;
    lost_ = true;
    why_ = why;
    lock.unlock();
    if (on_lost_) on_lost_(why);
    return;
  }
}

}  // namespace elevbench
