#pragma once
// `elevbench run post-2003`: Nick Piggin's whole post of 25/27 March 2003 (seed 000) in one
// command — cat/ls -lR of a source tree during a streaming read and write, contest (no_load,
// io_load, read_load, list_load), tiobench (1 and 4 threads, 1024 MB), the OraSim stand-in and
// nickbench Benches 2–6, in the post's order, for every configuration. It is a composite of the
// table's suites (scenarios/composite/); its report prints the post's layout, and with
// --beside-2003 the seed's line under each row.

#include <memory>
#include <string>
#include <vector>

#include "harness/run/suite.h"
#include "scenarios/composite/composite_suite.h"

namespace elevbench {

/// The post's parts, in its order, with their default options.
const std::vector<CompositePart>& Post2003Parts();

/// The scheduler configurations the post compares, as `--schedulers` takes them: DL, AS, CF and
/// none (mq-deadline, bfq with low_latency=0 for anticipation, bfq, none).
inline constexpr char kPost2003Schedulers[] = "mq-deadline@DL,bfq:low_latency=0@AS,bfq@CF,none";

/// Makes the post-2003 suite, its parts found through `lookup` (the table of suites calls this
/// with its own).
std::unique_ptr<Suite> MakePost2003Suite(PartSuiteLookup lookup);

}  // namespace elevbench
