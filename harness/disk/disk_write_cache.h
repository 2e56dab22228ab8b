#pragma once
// A hard disk's volatile write cache as the disk model (disk_model.h) keeps it: the dirty
// extents not yet on the media, in the order they were cached, with adjacent and overlapping
// writes merged whatever order they came in, so that a sequential stream is destaged in runs (one
// positioning per run). Bookkeeping only:
// the model decides when to destage and charges the time. docs/emulated-disk.md, "Write cache".

#include <cstddef>
#include <cstdint>
#include <vector>

namespace elevbench {

/// One run of dirty bytes: [offset, offset + length).
struct DirtyExtent {
  uint64_t offset = 0;
  uint64_t length = 0;
  /// When its oldest bytes came into the cache: its place among the extents (the oldest first).
  int64_t cached_ns = 0;
  /// When the bytes at `offset` came in: a destage, which writes from there, starts no sooner.
  /// The bytes after them are taken to be there too (the host's link is faster than the media).
  int64_t front_ns = 0;
};

/// Dirty extents in cache order (oldest first), at most capacity bytes in all.
class DiskWriteCache {
 public:
  /// `capacity_bytes` > 0: the profile's write_cache_bytes.
  explicit DiskWriteCache(uint64_t capacity_bytes) : capacity_(capacity_bytes) {}

  uint64_t capacity() const { return capacity_; }
  uint64_t used() const { return used_; }
  bool empty() const { return extents_.empty(); }
  /// Whether `length` more bytes fit now.
  bool HasRoomFor(uint64_t length) const { return used_ + length <= capacity_; }
  /// The dirty extents, oldest first.
  const std::vector<DirtyExtent>& extents() const { return extents_; }

  /// Adds [offset, offset + length), in the cache from `cached_ns`. Every extent it touches
  /// (overlaps, or ends or starts exactly at its edge) is merged with it into one extent, which
  /// takes the place and the time of the oldest of them and the front time of the one it starts
  /// with (bytes written twice count once); one that touches none is a new youngest extent. The
  /// caller has checked HasRoomFor(length).
  void Insert(uint64_t offset, uint64_t length, int64_t cached_ns);
  /// Removes the first min(max_bytes, length) bytes of extent `index` (they are now on the
  /// media) and returns them; an extent with bytes left keeps its place and its times. `index` must
  /// be valid.
  DirtyExtent TakeFront(size_t index, uint64_t max_bytes);

 private:
  uint64_t capacity_;
  uint64_t used_ = 0;
  std::vector<DirtyExtent> extents_;
};

}  // namespace elevbench
