#pragma once
// Injected faults of the emulated disk (`--disk-set fail_after_mb=N`, `fail_rate=P`): which
// requests fail with EIO. Pure and deterministic (a seeded generator, no clock), so a failing
// run can be repeated and the decision is unit-tested without a daemon (docs/reliability.md).

#include <cstdint>
#include <random>

#include "harness/disk/disk_model.h"

namespace elevbench {

/// Decides, request by request, whether the disk fails it. Not thread-safe: the disk serves one
/// request at a time (the engine calls it where it serves).
class DiskFaults {
 public:
  explicit DiskFaults(const DiskProfile& profile);

  /// Whether any fault is configured (false: Fails() is always false).
  bool enabled() const { return after_bytes_ > 0 || rate_ > 0; }

  /// The next request, of `length` bytes: true when it fails. A request fails when the disk has
  /// already moved fail_after_mb MB (of requests that did not fail), or, with fail_rate, when
  /// the seeded draw falls below it. A request that does not fail counts toward the bytes moved.
  bool Fails(uint64_t length);

  /// Bytes moved by requests that did not fail so far.
  uint64_t moved_bytes() const { return moved_bytes_; }

 private:
  uint64_t after_bytes_ = 0;  // 0 = no limit
  double rate_ = 0;
  uint64_t moved_bytes_ = 0;
  std::mt19937_64 draws_;
};

}  // namespace elevbench
