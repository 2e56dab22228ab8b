#pragma once
// `elevbench kernels`: the kernels in the cache (harness/guest/kernel_cache.h) as a table, one
// row a kernel, with the schedulers and cgroup I/O controllers its config offers, or as JSON.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/guest/kernel_cache.h"

namespace elevbench {

/// The table: source ("debian", or "build": a user's bzImage copied by `--kernels image:…`, its
/// package the cache entry "image-<release>-<hash>"), package, release, the row label a run gives
/// it, schedulers, I/O controllers; or one line saying the cache at `cache_dir` is empty and how to
/// fill it.
std::string RenderKernelsText(const std::vector<CachedKernel>& kernels,
                              const std::string& cache_dir);

/// The same as a JSON array of objects.
nlohmann::json KernelsJson(const std::vector<CachedKernel>& kernels);

}  // namespace elevbench
