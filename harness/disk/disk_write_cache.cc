#include "harness/disk/disk_write_cache.h"

#include <algorithm>

namespace elevbench {

void DiskWriteCache::Insert(uint64_t offset, uint64_t length, int64_t cached_ns) {
  used_ += length;
  // Newest first: a stream's last extent is the one it continues.
  for (auto it = extents_.rbegin(); it != extents_.rend(); ++it) {
    if (it->offset + it->length == offset) {
      // The run keeps the time its first bytes came in: those are destaged first.
      it->length += length;
      return;
    }
  }
  extents_.push_back({offset, length, cached_ns});
}

DirtyExtent DiskWriteCache::TakeFront(size_t index, uint64_t max_bytes) {
  DirtyExtent& e = extents_[index];
  const DirtyExtent taken{e.offset, std::min(max_bytes, e.length), e.cached_ns};
  e.offset += taken.length;
  e.length -= taken.length;
  used_ -= taken.length;
  if (e.length == 0) extents_.erase(extents_.begin() + static_cast<std::ptrdiff_t>(index));
  return taken;
}

}  // namespace elevbench
