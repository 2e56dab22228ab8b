#pragma once
// `elevbench run command -- CMD ARGS`: the user's own program as the workload (issue #31 §1,
// docs/command.md). The program runs on the target, in a directory of the suite's at the
// target's root that is emptied before each cell, under every configuration, interleaved and
// repeated like every suite. `--setup 'CMD'` (sh -c) runs before it in each cell; the set-up's
// data is synced and the caches are evicted before the measured run (the probes' hygiene).
// `--load` runs one of the suites' streams beside it, started and warmed up first. The cell
// records the program's wait4 account and the target disks' counters over its run.

#include <memory>
#include <string>
#include <vector>

#include "harness/run/suite.h"

namespace elevbench {

/// Makes the command suite (the table of suites calls this).
std::unique_ptr<Suite> MakeCommandSuite();

/// The program as a shell would show it: the words joined by blanks, a word with a blank, a
/// quote or a shell metacharacter (or an empty one) in single quotes. {"sh", "-c", "dd of=f"}
/// → "sh -c 'dd of=f'".
std::string CommandText(const std::vector<std::string>& argv);

/// The last `max_lines` non-empty lines of `text`, joined by " | ", cut to their last
/// `max_bytes` bytes (with "…" in front when cut): a failed program's stderr in one line.
std::string StderrTail(const std::string& text, size_t max_lines = 3, size_t max_bytes = 300);

}  // namespace elevbench
