#pragma once
// `elevbench merge`'s files (docs/ci.md): the shards' results files read, joined as shards of
// one plan (shard.h's MergeShardDocuments), the summary redone by the caller (it needs the
// suite: app/), and the whole plan's document saved.

#include <functional>
#include <string>
#include <vector>

#include "harness/results/results_document.h"

namespace elevbench {

/// Redoes `doc`'s summary with the suite of the document (app/ knows the suites); false with a
/// one-line err when it cannot.
using SummarizeShards = std::function<bool(ResultsDocument* doc, std::string* err)>;

/// Loads the shards' results files `paths`, joins them (MergeShardDocuments: refused unless
/// they are the shards 1..N of one plan, each once), has `summarize` redo the summary, and
/// saves the whole plan's document at `out`, which must not be one of `paths`. False with a
/// one-line err (for exit code 2) when a file cannot be read, the files are not one plan's
/// shards, the summary cannot be redone, or `out` cannot be written.
[[nodiscard]] bool JoinShardFiles(const std::vector<std::string>& paths, const std::string& out,
                                  const SummarizeShards& summarize, ResultsDocument* merged,
                                  std::string* err);

}  // namespace elevbench
