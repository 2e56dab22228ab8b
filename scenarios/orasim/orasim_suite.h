#pragma once
// An OraSim stand-in (docs/legacy-suites.md §6). Oracle's OraSim was never published;
// Nick Piggin's posts show two "bigger is better" numbers per scheduler. This suite runs an
// OLTP-like fio job instead — random 8 KiB reads and synchronous random 8 KiB writes of a data
// file, and a sequential synchronous log — for a fixed time, `--runs` times per cell, and scores
// each run by the I/O operations per second of all streams together. Its output says it is a
// stand-in.

#include <memory>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the OraSim stand-in suite (the table of suites calls this).
std::unique_ptr<Suite> MakeOrasimSuite();

}  // namespace elevbench
