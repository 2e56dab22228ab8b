#pragma once
// Watches the run's target while the cells run, so that a device lost under the run (the
// emulated disk's daemon killed, the loop device detached) stops it within a second instead of
// at fio's timeout (docs/reliability.md, "Faults survived").

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace elevbench {

/// A thread that asks `lost` every `period` and, the first time it says true, keeps its why and
/// calls `on_lost` once with it (the run prints it and calls RequestFaultStop: children are
/// stopped as on a signal).
/// Stops and joins when destroyed. `lost` and `on_lost` run on the watch's thread.
class TargetWatch {
 public:
  TargetWatch(std::function<bool(std::string* why)> lost,
              std::function<void(const std::string& why)> on_lost,
              std::chrono::milliseconds period);
  ~TargetWatch();
  TargetWatch(const TargetWatch&) = delete;
  TargetWatch& operator=(const TargetWatch&) = delete;

  /// Whether the target was found lost; *why (when not null) gets the reason.
  bool Lost(std::string* why) const;

 private:
  void Loop();

  std::function<bool(std::string*)> lost_fn_;
  std::function<void(const std::string&)> on_lost_;
  std::chrono::milliseconds period_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  bool stopping_ = false;
  bool lost_ = false;
  std::string why_;
  std::thread thread_;
};

}  // namespace elevbench
