#pragma once
// The span of bios in the kernel's view, from the first queued to the last completed: what a
// capture, one of its processes, or a replay (or one of its jobs) took as the kernel traced it.
// The replay's fidelity holds the two against each other (replay_fidelity.h).

#include <algorithm>
#include <cstdint>
#include <vector>

#include "harness/trace/block_trace_file.h"

namespace elevbench {

/// The span of bios in the kernel's view, from the first queued to the last completed
/// (time_ns + latency_ns; an untimed bio ends where it was queued): of a capture, of one of its
/// processes, of a replay or one of its jobs as the kernel traced them.
struct KernelSpan {
  uint64_t first_ns = UINT64_MAX;
  uint64_t last_ns = 0;
  void Add(const BlockTraceRecord& r) {
    first_ns = std::min(first_ns, r.time_ns);
    last_ns =
        std::max(last_ns, r.time_ns + static_cast<uint64_t>(std::max<int64_t>(r.latency_ns, 0)));
  }
  /// Seconds; 0 for no bios (or bios that took no time).
  double Seconds() const {
    return last_ns > first_ns ? static_cast<double>(last_ns - first_ns) / 1e9 : 0;
  }
};

/// KernelSpan over every one of `records`, seconds; 0 for none.
inline double KernelSpanSeconds(const std::vector<BlockTraceRecord>& records) {
  KernelSpan span;
  for (const BlockTraceRecord& r : records) span.Add(r);
  return span.Seconds();
}

}  // namespace elevbench
