// `elevbench merge`'s work that needs the table of suites: the shards' files joined
// (harness/run/shard.h) and the suite's summary redone by the suite of the document.

#include <filesystem>

#include "app/suites.h"
#include "app/suites_commands.h"
#include "harness/core/error.h"
#include "harness/run/shard.h"

namespace elevbench {
namespace {

// Whether two paths name the same file (an --out that would overwrite a shard).
bool SameMergeFile(const std::string& a, const std::string& b) {
  std::error_code ec, ec_a, ec_b;
  if (std::filesystem::equivalent(a, b, ec)) return true;
  const std::filesystem::path pa = std::filesystem::weakly_canonical(a, ec_a);
  const std::filesystem::path pb = std::filesystem::weakly_canonical(b, ec_b);
  return !ec_a && !ec_b && pa == pb;
}

}  // namespace

bool MergeShardFiles(const std::vector<std::string>& paths, const std::string& out,
                     ResultsDocument* merged, std::string* err) {
  if (paths.empty()) return Fail(err, "merge: no shards' results files given");
  if (out.empty()) return Fail(err, "merge: --out FILE is needed (the whole plan's results)");
  std::vector<ResultsDocument> shards(paths.size());
  for (size_t k = 0; k < paths.size(); ++k) {
    if (SameMergeFile(paths[k], out)) {
      return Fail(err, "merge: --out " + out + " is one of the shards' files");
    }
    if (!LoadResultsFile(paths[k], &shards[k], err)) return false;
  }
  ResultsDocument doc;
  if (!MergeShardDocuments(shards, paths, &doc, err)) return Fail(err, "merge: " + *err);
  const SuiteEntry* entry = FindSuite(doc.suite);
  if (entry == nullptr) return Fail(err, "merge: unknown suite '" + doc.suite + "'");
  doc.summary = entry->make()->Summarize(doc);
  if (!SaveResultsFile(out, doc, err)) return false;
  *merged = std::move(doc);
  return true;
}

}  // namespace elevbench
