#include "reporters/kernels_text.h"

#include "harness/core/strings.h"
#include "reporters/text_table.h"

namespace elevbench {

std::string RenderKernelsText(const std::vector<CachedKernel>& kernels,
                              const std::string& cache_dir) {
  if (kernels.empty()) {
    return "no kernel in " + cache_dir +
           " (elevbench kernels fetch debian:linux-image-…, or run --kernels fetches them; "
           "a build of yours, --kernels image:…, is copied here)\n";
  }
  std::vector<std::vector<std::string>> rows = {
      {"source", "package", "release", "row", "schedulers", "I/O controllers"}};
  for (const CachedKernel& k : kernels) {
    rows.push_back(
        {k.source, k.package, k.release, KernelRowLabel(k.release),
         JoinWith(k.features.schedulers, " "),
         k.features.io_controllers.empty() ? "-" : JoinWith(k.features.io_controllers, " ")});
  }
  return RenderTextTable(rows);
}

nlohmann::json KernelsJson(const std::vector<CachedKernel>& kernels) {
  nlohmann::json out = nlohmann::json::array();
  for (const CachedKernel& k : kernels) {
    out.push_back({{"source", k.source},
                   {"package", k.package},
                   {"release", k.release},
                   {"row", KernelRowLabel(k.release)},
                   {"directory", k.directory},
                   {"schedulers", k.features.schedulers},
                   {"io_controllers", k.features.io_controllers}});
  }
  return out;
}

}  // namespace elevbench
