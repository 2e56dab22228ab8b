#include "harness/run/run_plan.h"

#include <numeric>
#include <random>

namespace elevbench {

std::vector<PlannedCell> BuildRunPlan(size_t config_count, size_t variant_count,
                                      uint32_t repetitions, uint64_t seed, bool shuffle) {
  std::vector<PlannedCell> plan;
  std::mt19937_64 rng(seed);
  std::vector<size_t> order(config_count);
  for (uint32_t rep = 0; rep < repetitions; ++rep) {
    std::iota(order.begin(), order.end(), size_t{0});
    if (shuffle) {
      // Explicit Fisher–Yates: std::shuffle's draw sequence is implementation-defined, and the
      // recorded seed must reproduce the same order with any standard library.
      for (size_t i = order.size(); i > 1; --i) {
        size_t j = static_cast<size_t>(rng() % i);
        std::swap(order[i - 1], order[j]);
      }
    }
    for (size_t c : order) {
      for (size_t v = 0; v < variant_count; ++v) plan.push_back(PlannedCell{c, v, rep});
    }
  }
  return plan;
}

}  // namespace elevbench
