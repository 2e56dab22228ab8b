#include "harness/run/shard_files.h"

#include <filesystem>

#include "harness/core/error.h"
#include "harness/results/results_document.h"
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

bool JoinShardFiles(const std::vector<std::string>& paths, const std::string& out,
                    const SummarizeShards& summarize, ResultsDocument* merged, std::string* err) {
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
  if (!summarize(&doc, err)) return false;
  if (!SaveResultsFile(out, doc, err)) return false;
  *merged = std::move(doc);
  return true;
}

}  // namespace elevbench
