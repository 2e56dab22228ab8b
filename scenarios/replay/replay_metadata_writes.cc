#include "scenarios/replay/replay_metadata_writes.h"

#include <algorithm>

namespace elevbench {

uint64_t MetadataWritesInFlight::Issued(uint64_t offset, uint64_t bytes, bool log) {
  const std::lock_guard<std::mutex> lock(mu_);
  in_flight_[next_] = {offset, bytes, log};
  return next_++;
}

void MetadataWritesInFlight::Completed(uint64_t ticket) {
  const std::lock_guard<std::mutex> lock(mu_);
  in_flight_.erase(ticket);
}

uint64_t MetadataWritesInFlight::Next() const {
  const std::lock_guard<std::mutex> lock(mu_);
  return next_;
}

bool MetadataWritesInFlight::DrainedBefore(uint64_t bound,
                                           const std::vector<ReplayBuffer>& buffers) const {
  const std::lock_guard<std::mutex> lock(mu_);
  for (auto it = in_flight_.begin(); it != in_flight_.end() && it->first < bound; ++it) {
    const Write& w = it->second;
    if (buffers.empty() || w.log) return false;
    const bool overlaps = std::any_of(buffers.begin(), buffers.end(), [&](const ReplayBuffer& b) {
      return w.offset < b.first + b.second && b.first < w.offset + w.bytes;
    });
    if (overlaps) return false;
  }
  return true;
}

}  // namespace elevbench
