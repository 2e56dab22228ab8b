#pragma once
// Con Kolivas's contest (docs/legacy-suites.md §2): a kernel-like compile timed beside
// each of eleven loads, reported as Time, CPU%, Loads, LCPU% and Ratio against no_load. The
// compile tree (generated C, or a real tree copied with --compile-tree) and the loads' files are
// laid out once per run on the target; each cell is one load × the compile (scenarios/contest/
// contest_cell.h), with the compile's products removed after it. docs/contest.md.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the contest suite (the table of suites calls this).
std::unique_ptr<Suite> MakeContestSuite();

}  // namespace elevbench
