#include "harness/disk/disk_write_cache.h"

#include <algorithm>
#include <vector>

namespace elevbench {

void DiskWriteCache::Insert(uint64_t offset, uint64_t length, int64_t cached_ns) {
  uint64_t begin = offset;
  uint64_t end = offset + length;
  int64_t first_ns = cached_ns;
  int64_t front_ns = cached_ns;
  size_t oldest = extents_.size();  // The merged extent's place: the oldest one it takes in.
  uint64_t merged_bytes = 0;        // The bytes of the extents it takes in.
  std::vector<bool> taken(extents_.size(), false);
  // Growing the range may make it touch an extent passed over: look again until none joins.
  for (bool joined = true; joined;) {
    joined = false;
    for (size_t i = 0; i < extents_.size(); ++i) {
      const DirtyExtent& e = extents_[i];
      if (taken[i] || e.offset > end || e.offset + e.length < begin) continue;
      taken[i] = true;
      joined = true;
      if (e.offset < begin) front_ns = e.front_ns;
      if (e.offset == begin) front_ns = std::min(front_ns, e.front_ns);
      begin = std::min(begin, e.offset);
      end = std::max(end, e.offset + e.length);
      first_ns = std::min(first_ns, e.cached_ns);
      oldest = std::min(oldest, i);
      merged_bytes += e.length;
    }
  }
  used_ += (end - begin) - merged_bytes;
  if (oldest == extents_.size()) {
    extents_.push_back({offset, length, cached_ns, cached_ns});
    return;
  }
  extents_[oldest] = {begin, end - begin, first_ns, front_ns};
  taken[oldest] = false;
  size_t kept = 0;
  for (size_t i = 0; i < extents_.size(); ++i) {
    if (!taken[i]) extents_[kept++] = extents_[i];
  }
  extents_.resize(kept);
}

DirtyExtent DiskWriteCache::TakeFront(size_t index, uint64_t max_bytes) {
  DirtyExtent& e = extents_[index];
  const DirtyExtent taken{e.offset, std::min(max_bytes, e.length), e.cached_ns, e.front_ns};
  e.offset += taken.length;
  e.length -= taken.length;
  used_ -= taken.length;
  if (e.length == 0) extents_.erase(extents_.begin() + static_cast<std::ptrdiff_t>(index));
  return taken;
}

}  // namespace elevbench
