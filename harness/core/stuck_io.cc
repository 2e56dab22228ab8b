#include "harness/core/stuck_io.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <vector>

namespace elevbench {
namespace {

struct BreakerRegistry {
  std::mutex mu;
  int next_token = 1;
  std::map<int, StuckIoBreaker> breakers;
};

BreakerRegistry& Registry() {
  static BreakerRegistry* registry = new BreakerRegistry;  // never destroyed: used at exit
  return *registry;
}

}  // namespace

int RegisterStuckIoBreaker(StuckIoBreaker breaker) {
  BreakerRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  const int token = r.next_token++;
  r.breakers.emplace(token, std::move(breaker));
  return token;
}

void UnregisterStuckIoBreaker(int token) {
  BreakerRegistry& r = Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.breakers.erase(token);
}

int BreakStuckIo(const std::string& what, double waited_seconds) {
  // A breaker's own bounded call must not break again (it would recurse on a stuck breaker).
  thread_local bool breaking = false;
  if (breaking) return 0;
  breaking = true;
  std::vector<StuckIoBreaker> breakers;
  {
    BreakerRegistry& r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    for (const auto& [token, breaker] : r.breakers) breakers.push_back(breaker);
  }
  int acted = 0;
  for (const StuckIoBreaker& breaker : breakers) {
    const std::string line = breaker();
    if (line.empty()) continue;
    ++acted;
    std::fprintf(stderr, "elevbench: %s did not finish within %.0f s: %s\n", what.c_str(),
                 waited_seconds, line.c_str());
  }
  breaking = false;
  return acted;
}

}  // namespace elevbench
