#include "harness/core/compact_histogram.h"

namespace elevbench {

CompactHistogram::CompactHistogram(const LatencyHistogram& h)
    : count_(h.count_),
      overflow_count_(h.overflow_count_),
      min_ns_(h.min_ns_),
      max_ns_(h.max_ns_),
      sum_ns_(h.sum_ns_) {
  for (uint32_t i = 0; i < kHistogramBuckets; ++i) {
    if (h.counts_[i] != 0) buckets_.emplace_back(i, h.counts_[i]);
  }
}

LatencyHistogram CompactHistogram::Expand() const {
  LatencyHistogram h;
  for (const auto& [index, n] : buckets_) h.counts_[index] = n;
  h.count_ = count_;
  h.overflow_count_ = overflow_count_;
  h.min_ns_ = min_ns_;
  h.max_ns_ = max_ns_;
  h.sum_ns_ = sum_ns_;
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
