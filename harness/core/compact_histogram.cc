#include "harness/core/compact_histogram.h"

namespace elevbench {

template <typename From, typename To>
void CompactHistogram::CopyStatistics(const From& from, To* to) {
  to->count_ = from.count_;
  to->overflow_count_ = from.overflow_count_;
  to->min_ns_ = from.min_ns_;
  to->max_ns_ = from.max_ns_;
  to->sum_ns_ = from.sum_ns_;
}

CompactHistogram::CompactHistogram(const LatencyHistogram& h) {
  CopyStatistics(h, this);
  for (uint32_t i = 0; i < kHistogramBuckets; ++i) {
    if (h.counts_[i] != 0) buckets_.emplace_back(i, h.counts_[i]);
  }
}

LatencyHistogram CompactHistogram::Expand() const {
  LatencyHistogram h;
  for (const auto& [index, n] : buckets_) h.counts_[index] = n;
  CopyStatistics(*this, &h);
  return h;
}

double CompactHistogram::mean_ns() const {
  return count_ == 0 ? 0.0 : sum_ns_ / static_cast<double>(count_);
}

nlohmann::json CompactHistogram::ToJson() const { return Expand().ToJson(); }

bool CompactHistogram::FromJson(const nlohmann::json& json, CompactHistogram* out,
                                std::string* err) {
  LatencyHistogram h;
  if (!LatencyHistogram::FromJson(json, &h, err)) return false;
  *out = CompactHistogram(h);
  return true;
}

}  // namespace elevbench
