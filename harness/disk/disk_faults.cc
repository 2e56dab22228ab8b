#include "harness/disk/disk_faults.h"

namespace elevbench {

DiskFaults::DiskFaults(const DiskProfile& profile)
    : after_bytes_(profile.fail_after_mb * 1'000'000),
      rate_(profile.fail_rate),
      draws_(profile.fail_seed) {}

bool DiskFaults::Fails(uint64_t length) {
  if (after_bytes_ > 0 && moved_bytes_ >= after_bytes_) return true;
  if (rate_ > 0) {
    // 53 random bits as a double in [0, 1): the same sequence on every standard library
    // (std::generate_canonical's is not specified exactly).
    const double u = static_cast<double>(draws_() >> 11) * 0x1.0p-53;
    if (u < rate_) return true;
  }
  moved_bytes_ += length;
  return false;
}

}  // namespace elevbench
