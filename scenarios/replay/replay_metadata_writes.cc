#include "scenarios/replay/replay_metadata_writes.h"

namespace elevbench {

uint64_t MetadataWritesInFlight::Issued() {
  const std::lock_guard<std::mutex> lock(mu_);
  in_flight_.insert(next_);
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

bool MetadataWritesInFlight::DrainedBefore(uint64_t bound) const {
  const std::lock_guard<std::mutex> lock(mu_);
  return in_flight_.empty() || *in_flight_.begin() >= bound;
}

}  // namespace elevbench
