// `elevbench kernels [--json]` and `elevbench kernels fetch debian:PACKAGE|image:IMAGE… [--json]`:
// the kernels a run can boot in a guest (docs/kernels.md), listed from the cache, or fetched into
// it with the Debian client, or a user's build copied into it.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/strings.h"
#include "harness/guest/kernel_build.h"
#include "harness/guest/kernel_cache.h"
#include "harness/run/kernel_rows.h"
#include "reporters/kernels_text.h"

namespace elevbench {
namespace {

struct KernelsOptions {
  bool json = false;
  std::vector<std::string> fetch;  // `kernels fetch PACKAGE…`: the packages
};

// Every choice checked before anything is fetched or copied: a Debian name the package lists
// know, a build whose files are whole (kernel_build.h). An exit code, kExitOk when all passed.
int CheckFetchChoices(const std::vector<KernelChoice>& choices, std::vector<KernelBuild>* builds) {
  builds->assign(choices.size(), KernelBuild{});
  std::string err;
  for (size_t i = 0; i < choices.size(); ++i) {
    const KernelChoice& c = choices[i];
    if (!c.image.empty()) {
      if (!InspectKernelBuild(c.image, c.modroot, &(*builds)[i], &err)) {
        PrintError("kernels fetch: " + err);
        return kExitUsage;
      }
      continue;
    }
    // A name the package lists do not know is bad input: refused before the cache is made
    // (the fourth newcomer pass: apt-get's failure, exit 1, and an empty cache folder left).
    bool known = false;
    if (!DebianPackageKnown(c.package, &known, &err)) {
      PrintError("kernels fetch: " + err);
      return kExitFailure;
    }
    if (!known) {
      PrintError("kernels fetch: " + UnknownKernelPackageLine(c.package));
      return kExitUsage;
    }
  }
  return kExitOk;
}

int FetchKernels(const std::vector<std::string>& words, const std::string& cache) {
  std::vector<KernelChoice> choices;
  std::string err;
  if (!ParseKernelChoices(JoinWith(words, ","), &choices, &err)) {
    PrintError(err.replace(0, std::string("--kernels").size(), "kernels fetch"));
    return kExitUsage;
  }
  // A label names a run's rows (run --kernels K@LABEL); a cache entry is named by its package
  // or build, so a label here would be dropped without a word (issue 57 §4.3): refused.
  for (const KernelChoice& c : choices) {
    if (c.label.empty()) continue;
    PrintError("kernels fetch: '" + c.word + "': @" + c.label +
               " would label a run's rows, and kernels fetch has none (the cache names a kernel "
               "by its package or build): leave @" +
               c.label + " out, give it to run --kernels");
    return kExitUsage;
  }
  std::vector<KernelBuild> builds;
  if (const int rc = CheckFetchChoices(choices, &builds); rc != kExitOk) return rc;
  for (size_t i = 0; i < choices.size(); ++i) {
    CachedKernel k;
    bool copied = false;
    if (!choices[i].image.empty()) {
      if (!CacheKernelBuild(cache, builds[i], &k, &copied, &err)) {
        PrintError(err);
        return kExitFailure;
      }
      PrintNote((copied ? "copied " : "already cached: ") + builds[i].image + " (" +
                builds[i].release + ") as " + cache + "/" + builds[i].entry);
      continue;
    }
    PrintNote("fetching " + choices[i].package + " into " + cache + " (apt-get download)");
    if (!FetchDebianKernel(cache, choices[i].package, &k, &err)) {
      PrintError(err);
      return kExitFailure;
    }
  }
  return kExitOk;
}

int KernelsCommand(const KernelsOptions& o) {
  const std::string cache = DefaultKernelCacheDir();
  if (!o.fetch.empty()) {
    if (const int rc = FetchKernels(o.fetch, cache); rc != kExitOk) return rc;
  }
  const std::vector<CachedKernel> kernels = ListCachedKernels(cache);
  std::cout << (o.json ? KernelsJson(kernels).dump(2) + "\n" : RenderKernelsText(kernels, cache));
  return kExitOk;
}

}  // namespace

SubcommandRunner AddKernelsSubcommand(CLI::App* cmd, const std::string&) {
  auto o = std::make_shared<KernelsOptions>();
  AddJsonFlag(cmd, &o->json, "JSON output");
  // A subcommand of its own (#45: `kernels fetch --help` printed the page of `kernels`, fetch
  // being a word of it).
  CLI::App* fetch = cmd->add_subcommand(
      "fetch",
      "Fetch these kernels into the cache ($ELEVBENCH_KERNEL_CACHE, else "
      "/var/cache/elevbench/kernels as root, else ~/.cache/elevbench/kernels) with apt-get "
      "download, or copy your own build there (image:IMAGE[:MODROOT]), then list the cache; "
      "never installed on the host");
  fetch->fallthrough();  // --json after the packages
  fetch
      ->add_option("packages", o->fetch,
                   "debian:PACKAGE…: Debian kernel packages; image:IMAGE[:MODROOT]…: your "
                   "builds; no @LABEL, which names a run's rows (docs/kernels.md)")
      ->type_name("KERNEL")
      ->required();
  return [o] { return KernelsCommand(*o); };
}

}  // namespace elevbench
