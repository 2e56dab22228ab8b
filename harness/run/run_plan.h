#pragma once
// The plan of a comparison run: scheduler configuration × thread count × repetition, with the
// configuration order shuffled in every repetition (seed recorded) so that slow drift of the
// machine does not line up with one scheduler (google/benchmark's random interleaving).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elevbench {

/// One cell: which configuration, how many threads, which repetition.
struct PlannedCell {
  size_t config_index = 0;
  uint32_t threads = 0;
  uint32_t repetition = 0;
};

/// Builds the plan: for each repetition, the configurations in an order drawn from `seed`
/// (std::mt19937_64, Fisher–Yates), each with all thread counts in the order given. With a single
/// configuration, or `shuffle` false, the order is the given one.
std::vector<PlannedCell> BuildRunPlan(size_t config_count, const std::vector<uint32_t>& threads,
                                      uint32_t repetitions, uint64_t seed, bool shuffle = true);

}  // namespace elevbench
