#include "harness/disk/disk_geometry.h"

#include <algorithm>
#include <cmath>

namespace elevbench {

DiskGeometry::DiskGeometry(double rpm, double media_mbps)
    : revolution_ns_(std::max<int64_t>(1, std::llround(60e9 / rpm))),
      track_bytes_(std::max<uint64_t>(
          1, static_cast<uint64_t>(std::llround(media_mbps * 1e6 * 60.0 / rpm)))) {}

double DiskGeometry::AngleOf(uint64_t offset) const {
  return static_cast<double>(offset % track_bytes_) / static_cast<double>(track_bytes_);
}

double DiskGeometry::PhaseAt(int64_t t_ns) const {
  int64_t r = t_ns % revolution_ns_;
  if (r < 0) r += revolution_ns_;
  return static_cast<double>(r) / static_cast<double>(revolution_ns_);
}

int64_t DiskGeometry::RotationWaitNs(uint64_t offset, int64_t t_ns) const {
  double frac = AngleOf(offset) - PhaseAt(t_ns);
  if (frac < 0) frac += 1.0;
  const int64_t wait = std::llround(frac * static_cast<double>(revolution_ns_));
  return wait >= revolution_ns_ ? 0 : wait;
}

}  // namespace elevbench
