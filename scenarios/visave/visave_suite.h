#pragma once
// The "vi save" latency probe of seed 003 (lkml 2005, CFQ on 2.6.11/2.6.12-rc6-mm1;
// docs/legacy-suites.md §8) as a suite: while a heavy buffered writer runs (one fio
// stream writing through the page cache in 1 MiB calls, time-based), a 200-byte file is saved
// the way vi saves it (scenarios/visave/vi_save.h) --saves times with --interval seconds between
// saves, each save timed with its rusage. docs/visave.md.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the visave suite (the table of suites calls this).
std::unique_ptr<Suite> MakeVisaveSuite();

}  // namespace elevbench
