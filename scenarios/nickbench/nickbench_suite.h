#pragma once
// Nick Piggin's "nickbench" Benches 2–6 (docs/legacy-suites.md §3) as a suite: one file
// per stream, laid out one after another before the first cell; each bench runs its streams
// together until the first one ends; one record per bench.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the nickbench suite (the table of suites calls this).
std::unique_ptr<Suite> MakeNickbenchSuite();

}  // namespace elevbench
