#pragma once
// Nick Piggin's "cat / ls -lR kernel source during a streaming read / write"
// (docs/legacy-suites.md §5) as a suite of the load-vs-probe engine: a kernel-like source tree and
// one large file are laid out once; each cell runs one probe (cat every file of the tree, or ls -lR
// of it) beside one streaming reader or writer, stopping it at its timeout as DNF.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the probes suite (the table of suites calls this).
std::unique_ptr<Suite> MakeProbesSuite();

}  // namespace elevbench
