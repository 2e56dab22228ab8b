// `elevbench merge`'s work that needs the table of suites: the shards' files joined
// (harness/run/shard_files.h) and the suite's summary redone by the suite of the document.

#include "app/suites_merge.h"

#include "app/suites.h"
#include "harness/core/error.h"
#include "harness/run/shard_files.h"

namespace elevbench {

bool MergeShardFiles(const std::vector<std::string>& paths, const std::string& out,
                     ResultsDocument* merged, std::string* err) {
  const SummarizeShards summarize = [](ResultsDocument* doc, std::string* e) {
    const SuiteEntry* entry = FindSuite(doc->suite);
    if (entry == nullptr) return Fail(e, "merge: unknown suite '" + doc->suite + "'");
    doc->summary = entry->make()->Summarize(*doc);
    return true;
  };
  return JoinShardFiles(paths, out, summarize, merged, err);
}

}  // namespace elevbench
