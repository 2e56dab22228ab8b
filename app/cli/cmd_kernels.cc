// `elevbench kernels [--json]` and `elevbench kernels fetch debian:PACKAGE… [--json]`: the
// kernels a run can boot in a guest (docs/kernels.md), listed from the cache, or fetched into it
// with the Debian client.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/strings.h"
#include "harness/guest/kernel_cache.h"
#include "harness/run/kernel_rows.h"
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
    std::vector<KernelChoice> choices;
    std::string err;
    if (!ParseKernelChoices(JoinWith(o.fetch, ","), &choices, &err)) {
      PrintError(err.replace(0, std::string("--kernels").size(), "kernels fetch"));
      return kExitUsage;
    }
    // A name the package lists do not know is bad input: refused before the cache is made
    // (the fourth newcomer pass: apt-get's failure, exit 1, and an empty cache folder left).
    for (const KernelChoice& c : choices) {
      bool known = false;
      if (!DebianPackageKnown(c.package, &known, &err)) {
        PrintError("kernels fetch: " + err);
        return kExitFailure;
      }
      if (!known) {
        PrintError("kernels fetch: debian:" + c.package +
                   ": no such package in this machine's Debian package lists (apt-cache search "
                   "linux-image lists them)");
        return kExitUsage;
      }
    }
    for (const KernelChoice& c : choices) {
      CachedKernel k;
      PrintNote("fetching " + c.package + " into " + cache + " (apt-get download)");
      if (!FetchDebianKernel(cache, c.package, &k, &err)) {
        PrintError(err);
        return kExitFailure;
      }
    }
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
      "download, then list the cache; never installed on the host");
  fetch->fallthrough();  // --json after the packages
  fetch->add_option("packages", o->fetch, "debian:PACKAGE[@LABEL]…: the Debian kernel packages")
      ->type_name("PACKAGE")
      ->required();
  return [o] { return KernelsCommand(*o); };
}

}  // namespace elevbench
