#include "harness/run/session_hooks.h"

#include <utility>

namespace elevbench {

std::function<bool(std::string* err)> RemakeThenRepin(std::function<bool(std::string* err)> remake,
                                                      DeviceControl* control) {
  return [remake = std::move(remake), control](std::string* err) {
    return remake(err) && (control == nullptr || control->ReapplyPinned(err));
  };
}

std::function<nlohmann::json()> EmulatedDiskCounters(const EmulatedStack* stack) {
  return [stack]() -> nlohmann::json {
    nlohmann::json counters;
    std::string e;
    return ReadDiskCounters(*stack, &counters, &e) ? counters : nlohmann::json(nullptr);
  };
}

}  // namespace elevbench
