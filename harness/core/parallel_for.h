#pragma once
// A small parallel loop for work that is independent per item (rendering 1,000 results files).

#include <cstddef>
#include <functional>

namespace elevbench {

/// Runs fn(0) … fn(n-1) on up to `threads` threads, the calling one included; each index
/// exactly once, in no particular order. fn must be safe to call concurrently.
void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn);

}  // namespace elevbench
