#pragma once
// `elevbench merge` (docs/ci.md)'s work that needs the table of suites (suites.h).

#include <string>
#include <vector>

#include "harness/results/results_document.h"

namespace elevbench {

/// `elevbench merge` (docs/ci.md): loads the shards' results files `paths`, joins them
/// (MergeShardDocuments: refused unless they are the shards 1..N of one plan, each once), redoes
/// the suite's summary with the suite of the table, and saves the whole plan's document at
/// `out`, which must not be one of `paths`. False with a one-line err (for exit code 2) when a
/// file cannot be read, the files are not one plan's shards, or `out` cannot be written.
[[nodiscard]] bool MergeShardFiles(const std::vector<std::string>& paths, const std::string& out,
                                   ResultsDocument* merged, std::string* err);

}  // namespace elevbench
