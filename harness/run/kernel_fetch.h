#pragma once
// `elevbench kernels fetch debian:PACKAGE|image:IMAGE…` (docs/kernels.md): the kernels a run can
// boot in a guest, fetched into the cache with the Debian client, or a user's build copied into
// it. Every choice is checked before anything is fetched or copied.

#include <functional>
#include <string>
#include <vector>

#include "harness/run/run_failure.h"

namespace elevbench {

/// Fetches (or copies) the kernels `words` name into the cache at `cache`, saying each one in
/// `note` as it goes ("fetching …", "copied …", "already cached: …"). First every choice is
/// checked: the words (as --kernels reads them, no @LABEL: a cache entry is named by its package
/// or build, issue 57 §4.3), a Debian name the package lists know, a build whose files are whole.
/// kNone when all were fetched; kUsage for bad words, an unknown package or a build refused,
/// kFailure when the lists could not be read or a fetch or copy failed; err its one line.
RunFailure FetchKernelWords(const std::vector<std::string>& words, const std::string& cache,
                            const std::function<void(const std::string& line)>& note,
                            std::string* err);

}  // namespace elevbench
