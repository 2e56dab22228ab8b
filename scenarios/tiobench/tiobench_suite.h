#pragma once
// tiobench as a suite of the run loop: tiobench.pl's options, one variant per thread count, one
// record per phase of a cell (scenarios/tiobench/tiobench_records.h).

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the tiobench suite (the table of suites calls this).
std::unique_ptr<Suite> MakeTiobenchSuite();

}  // namespace elevbench
