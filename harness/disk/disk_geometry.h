#pragma once
// Rotational position of a hard disk's platter, for the disk model (disk_model.h): where a byte
// sits on its track and where the platter is at a given time, so that positioning can count the
// wait for the target sector after a seek instead of half a revolution on average. Pure: the
// caller gives the clock. Formulas: docs/emulated-disk.md, "Rotational position".

#include <cstdint>

namespace elevbench {

/// The simple geometry the model uses: every track holds what the head reads in one revolution
/// at the media rate (`track_bytes = media_mbps * 1e6 * 60 / rpm`), and logical bytes follow
/// each other around a track, track after track. A byte's angle is its offset within its track
/// divided by track_bytes (a fraction of a revolution, 0 <= angle < 1); the platter's phase at
/// time t is (t mod revolution) / revolution, with phase 0 at t = 0. Zoned recording, skew
/// between tracks and spare sectors are left out: the model needs a deterministic angle per
/// byte, not a real drive's layout.
class DiskGeometry {
 public:
  /// `rpm` > 0 and `media_mbps` > 0 (a hard disk whose profile passed ValidateDiskProfile).
  DiskGeometry(double rpm, double media_mbps);

  /// One revolution in nanoseconds: 60e9 / rpm.
  int64_t revolution_ns() const { return revolution_ns_; }
  /// Bytes on one track (at least 1).
  uint64_t track_bytes() const { return track_bytes_; }
  /// The angle of the byte at `offset`, as a fraction of a revolution in [0, 1).
  double AngleOf(uint64_t offset) const;
  /// The platter's phase (the angle under the head) at `t_ns`, in [0, 1).
  double PhaseAt(int64_t t_ns) const;
  /// How long a head that arrives on the track at `t_ns` waits for the byte at `offset` to come
  /// under it: ((angle - phase) mod 1) revolutions, in [0, revolution_ns).
  int64_t RotationWaitNs(uint64_t offset, int64_t t_ns) const;

 private:
  int64_t revolution_ns_;
  uint64_t track_bytes_;
};

}  // namespace elevbench
