#include "reporters/kernels_text.h"

#include <algorithm>
#include <sstream>

#include "harness/core/strings.h"

namespace elevbench {

std::string RenderKernelsText(const std::vector<CachedKernel>& kernels,
                              const std::string& cache_dir) {
  if (kernels.empty()) {
    return "no kernel in " + cache_dir +
           " (elevbench kernels fetch debian:linux-image-…, or run --kernels fetches them)\n";
  }
  std::vector<std::vector<std::string>> rows = {
      {"package", "release", "row", "schedulers", "I/O controllers"}};
  for (const CachedKernel& k : kernels) {
    rows.push_back(
        {k.package, k.release, KernelRowLabel(k.release), JoinWith(k.features.schedulers, " "),
         k.features.io_controllers.empty() ? "-" : JoinWith(k.features.io_controllers, " ")});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  std::ostringstream out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - r[i].size() + 2, ' ');
    }
    out << line << "\n";
  }
  return out.str();
}

nlohmann::json KernelsJson(const std::vector<CachedKernel>& kernels) {
  nlohmann::json out = nlohmann::json::array();
  for (const CachedKernel& k : kernels) {
    out.push_back({{"package", k.package},
                   {"release", k.release},
                   {"row", KernelRowLabel(k.release)},
                   {"directory", k.directory},
                   {"schedulers", k.features.schedulers},
                   {"io_controllers", k.features.io_controllers}});
  }
  return out;
}

}  // namespace elevbench
