#include "harness/run/kernel_fetch.h"

#include "harness/core/strings.h"
#include "harness/guest/kernel_build.h"
#include "harness/guest/kernel_cache.h"
#include "harness/run/kernel_rows.h"

namespace elevbench {
namespace {

// Every choice checked before anything is fetched or copied: a Debian name the package lists
// know, a build whose files are whole (kernel_build.h). kNone when all passed.
RunFailure CheckFetchChoices(const std::vector<KernelChoice>& choices,
                             std::vector<KernelBuild>* builds, std::string* err) {
  builds->assign(choices.size(), KernelBuild{});
  for (size_t i = 0; i < choices.size(); ++i) {
    const KernelChoice& c = choices[i];
    if (!c.image.empty()) {
      if (!InspectKernelBuild(c.image, c.modroot, &(*builds)[i], err)) {
        *err = "kernels fetch: " + *err;
        return RunFailure::kUsage;
      }
      continue;
    }
    // A name the package lists do not know is bad input: refused before the cache is made
    // (the fourth newcomer pass: apt-get's failure, exit 1, and an empty cache folder left).
    bool known = false;
    if (!DebianPackageKnown(c.package, &known, err)) {
      *err = "kernels fetch: " + *err;
      return RunFailure::kFailure;
    }
    if (!known) {
      *err = "kernels fetch: " + UnknownKernelPackageLine(c.package);
      return RunFailure::kUsage;
    }
  }
  return RunFailure::kNone;
}

// The choices of `words`, without a label. kNone, or kUsage with err.
RunFailure ParseFetchChoices(const std::vector<std::string>& words,
                             std::vector<KernelChoice>* choices, std::string* err) {
  if (!ParseKernelChoices(JoinWith(words, ","), choices, err)) {
    err->replace(0, std::string("--kernels").size(), "kernels fetch");
    return RunFailure::kUsage;
  }
  // A label names a run's rows (run --kernels K@LABEL); a cache entry is named by its package
  // or build, so a label here would be dropped without a word (issue 57 §4.3): refused.
  for (const KernelChoice& c : *choices) {
    if (c.label.empty()) continue;
    *err = "kernels fetch: '" + c.word + "': @" + c.label +
           " would label a run's rows, and kernels fetch has none (the cache names a kernel "
           "by its package or build): leave @" +
           c.label + " out, give it to run --kernels";
    return RunFailure::kUsage;
  }
  return RunFailure::kNone;
}

}  // namespace

RunFailure FetchKernelWords(const std::vector<std::string>& words, const std::string& cache,
                            const std::function<void(const std::string& line)>& note,
                            std::string* err) {
  std::vector<KernelChoice> choices;
  std::vector<KernelBuild> builds;
  if (const RunFailure f = ParseFetchChoices(words, &choices, err); f != RunFailure::kNone) {
    return f;
  }
  if (const RunFailure f = CheckFetchChoices(choices, &builds, err); f != RunFailure::kNone) {
    return f;
  }
  for (size_t i = 0; i < choices.size(); ++i) {
    CachedKernel k;
    bool copied = false;
    if (!choices[i].image.empty()) {
      if (!CacheKernelBuild(cache, builds[i], &k, &copied, err)) return RunFailure::kFailure;
      note((copied ? "copied " : "already cached: ") + builds[i].image + " (" + builds[i].release +
           ") as " + cache + "/" + builds[i].entry);
      continue;
    }
    note("fetching " + choices[i].package + " into " + cache + " (apt-get download)");
    if (!FetchDebianKernel(cache, choices[i].package, &k, err)) return RunFailure::kFailure;
  }
  return RunFailure::kNone;
}

}  // namespace elevbench
