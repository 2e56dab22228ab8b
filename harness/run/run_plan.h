#pragma once
// The plan of a comparison run: scheduler configuration × suite variant × repetition, with the
// configuration order shuffled in every repetition (seed recorded) so that slow drift of the
// machine does not line up with one scheduler (google/benchmark's random interleaving).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elevbench {

/// One cell: which configuration, which of the suite's variants (a thread count, a bench), which
/// repetition.
struct PlannedCell {
  size_t config_index = 0;
  size_t variant_index = 0;
  uint32_t repetition = 0;
};

/// Builds the plan: for each repetition, the configurations in an order drawn from `seed`
/// (std::mt19937_64, Fisher–Yates), each with all its variants in the suite's order. With a
/// single configuration, or `shuffle` false, the order is the given one.
std::vector<PlannedCell> BuildRunPlan(size_t config_count, size_t variant_count,
                                      uint32_t repetitions, uint64_t seed, bool shuffle = true);

}  // namespace elevbench
