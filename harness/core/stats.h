#pragma once
// Pure statistics over repetitions (google/benchmark's statistics.cc style).

#include <vector>

namespace elevbench {

/// Arithmetic mean; 0 for an empty vector.
double Mean(const std::vector<double>& v);
/// Sample standard deviation (n-1); 0 when fewer than two values.
double StdDev(const std::vector<double>& v);
/// min/max ratio in [0,1]; 1 = perfectly fair. 0 when the max is 0 or the vector is empty.
double MinMaxRatio(const std::vector<double>& v);

}  // namespace elevbench
