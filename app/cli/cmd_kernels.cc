// `elevbench kernels [--json]` and `elevbench kernels fetch debian:PACKAGE|image:IMAGE… [--json]`:
// the kernels a run can boot in a guest (docs/kernels.md), listed from the cache, or fetched into
// it with the Debian client, or a user's build copied into it.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/guest/kernel_cache.h"
#include "harness/run/kernel_fetch.h"
#include "reporters/kernels_text.h"

namespace elevbench {
namespace {

struct KernelsOptions {
  bool json = false;
  std::vector<std::string> fetch;  // `kernels fetch PACKAGE…`: the packages
};

int KernelsCommand(const KernelsOptions& o) {
  const std::string cache = DefaultKernelCacheDir();
  if (!o.fetch.empty()) {
    std::string err;
    const RunFailure fetched = FetchKernelWords(o.fetch, cache, PrintNote, &err);
    if (fetched != RunFailure::kNone) return ErrorExit(err, ExitCodeOf(fetched));
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
  AddPlainOptions(fetch, {{"packages", "KERNEL",
                           "debian:PACKAGE…: Debian kernel packages; image:IMAGE[:MODROOT]…: "
                           "your builds; no @LABEL, which names a run's rows (docs/kernels.md)",
                           &o->fetch, true}});
  return [o] { return KernelsCommand(*o); };
}

}  // namespace elevbench
