#include "harness/core/latency_histogram.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <exception>

namespace elevbench {
namespace {

constexpr uint32_t kTopBucket = kHistogramBuckets - 1;
// Values below this have a bucket each (fio: msb <= FIO_IO_U_PLAT_BITS).
constexpr uint64_t kExactLimitNs = uint64_t{1} << (kHistogramPlatBits + 1);

// Width exponent of a bucket above the exact region: the bucket is 2^ErrorBits(index) ns wide.
uint32_t ErrorBits(uint32_t index) { return (index >> kHistogramPlatBits) - 1; }

// Reads a non-negative integer JSON value; false for other types.
bool JsonU64(const nlohmann::json& j, uint64_t* out) {
  if (j.is_number_unsigned()) {
    *out = j.get<uint64_t>();
    return true;
  }
  if (j.is_number_integer() && j.get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(j.get<int64_t>());
    return true;
  }
  return false;
}

}  // namespace

uint32_t LatencyHistogram::BucketIndex(uint64_t value_ns) {
  if (value_ns < kExactLimitNs) return static_cast<uint32_t>(value_ns);
  const uint32_t msb = static_cast<uint32_t>(std::bit_width(value_ns)) - 1;  // >= 7
  const uint32_t error_bits = msb - kHistogramPlatBits;
  const uint64_t base = uint64_t{error_bits + 1} << kHistogramPlatBits;
  const uint64_t offset = (value_ns >> error_bits) & (kHistogramBucketsPerGroup - 1);
  return static_cast<uint32_t>(std::min<uint64_t>(base + offset, kTopBucket));
}

uint64_t LatencyHistogram::BucketLowerNs(uint32_t index) {
  if (index < kExactLimitNs) return index;
  const uint32_t error_bits = ErrorBits(index);
  const uint64_t group_base = uint64_t{1} << (error_bits + kHistogramPlatBits);
  const uint64_t k = index & (kHistogramBucketsPerGroup - 1);
  return group_base + (k << error_bits);
}

uint64_t LatencyHistogram::BucketUpperNs(uint32_t index) {
  if (index < kExactLimitNs) return index;
  return BucketLowerNs(index) + (uint64_t{1} << ErrorBits(index)) - 1;
}

uint64_t LatencyHistogram::BucketValue(uint32_t index) {
  if (index < kExactLimitNs) return index;
  // fio: base + (k + 0.5) * 2^error_bits, exact in integers because error_bits >= 1 here.
  return BucketLowerNs(index) + (uint64_t{1} << (ErrorBits(index) - 1));
}

bool LatencyHistogram::Record(uint64_t value_ns, uint64_t count) {
  const bool in_range = value_ns <= kHistogramMaxTrackableNs;
  if (count == 0) return in_range;
  counts_[BucketIndex(value_ns)] += count;
  count_ += count;
  sum_ns_ += static_cast<double>(value_ns) * static_cast<double>(count);
  min_ns_ = std::min(min_ns_, value_ns);
  max_ns_ = std::max(max_ns_, value_ns);
  if (!in_range) overflow_count_ += count;
  return in_range;
}

bool LatencyHistogram::AddFioBin(uint64_t bin_value_ns, uint64_t count, std::string* err) {
  const uint32_t index = BucketIndex(bin_value_ns);
  if (bin_value_ns > kHistogramMaxTrackableNs || BucketValue(index) != bin_value_ns) {
    *err = "bin " + std::to_string(bin_value_ns) +
           " ns is not a fio bucket value (nearest: " + std::to_string(BucketValue(index)) + ")";
    return false;
  }
  if (count == 0) return true;
  counts_[index] += count;
  count_ += count;
  sum_ns_ += static_cast<double>(bin_value_ns) * static_cast<double>(count);
  min_ns_ = std::min(min_ns_, bin_value_ns);
  max_ns_ = std::max(max_ns_, bin_value_ns);
  return true;
}

bool LatencyHistogram::SetExactStats(uint64_t min_ns, uint64_t max_ns, double mean_ns,
                                     uint64_t count, std::string* err) {
  if (count != count_) {
    *err = "exact count " + std::to_string(count) + " != histogram count " + std::to_string(count_);
    return false;
  }
  if (count == 0) return true;
  if (min_ns > max_ns) {
    *err = "min " + std::to_string(min_ns) + " ns > max " + std::to_string(max_ns) + " ns";
    return false;
  }
  uint32_t lowest = 0;
  while (counts_[lowest] == 0) ++lowest;  // count_ > 0 guarantees a non-empty bucket
  uint32_t highest = kTopBucket;
  while (counts_[highest] == 0) --highest;
  if (BucketIndex(min_ns) != lowest) {
    *err = "min " + std::to_string(min_ns) + " ns is not in the lowest non-empty bucket (" +
           std::to_string(BucketValue(lowest)) + " ns)";
    return false;
  }
  if (BucketIndex(max_ns) != highest) {
    *err = "max " + std::to_string(max_ns) + " ns is not in the highest non-empty bucket (" +
           std::to_string(BucketValue(highest)) + " ns)";
    return false;
  }
  // fio prints the mean with 6 decimals; allow for that rounding.
  if (!std::isfinite(mean_ns) || mean_ns < static_cast<double>(min_ns) - 1.0 ||
      mean_ns > static_cast<double>(max_ns) + 1.0) {
    *err = "mean " + std::to_string(mean_ns) + " ns is outside [min, max]";
    return false;
  }
  min_ns_ = min_ns;
  max_ns_ = max_ns;
  sum_ns_ = mean_ns * static_cast<double>(count);
  if (max_ns > kHistogramMaxTrackableNs) overflow_count_ = std::max<uint64_t>(overflow_count_, 1);
  return true;
}

uint64_t LatencyHistogram::Merge(const LatencyHistogram& other) {
  if (other.count_ == 0) return 0;
  for (uint32_t i = 0; i < kHistogramBuckets; ++i) counts_[i] += other.counts_[i];
  count_ += other.count_;
  overflow_count_ += other.overflow_count_;
  sum_ns_ += other.sum_ns_;
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
  return other.overflow_count_;
}

void LatencyHistogram::Clear() { *this = LatencyHistogram(); }

double LatencyHistogram::mean_ns() const {
  return count_ == 0 ? 0.0 : sum_ns_ / static_cast<double>(count_);
}

uint64_t LatencyHistogram::ValueAtPercentile(double p) const {
  if (count_ == 0) return 0;
  if (!(p > 0.0)) return min_ns();  // also catches NaN
  if (p >= 100.0) return max_ns_;
  // p * count first: exact for integer p, so ranks like 10 % of 300 do not round up to 31.
  const double exact_rank = std::ceil(p * static_cast<double>(count_) / 100.0);
  const uint64_t rank = std::clamp<uint64_t>(static_cast<uint64_t>(exact_rank), 1, count_);
  if (rank > count_ - overflow_count_) return max_ns_;
  uint64_t seen = 0;
  for (uint32_t i = 0; i < kHistogramBuckets; ++i) {
    seen += counts_[i];
    if (seen >= rank) return std::clamp(BucketValue(i), min_ns(), max_ns_);
  }
  return max_ns_;  // unreachable while the counts are consistent
}

uint64_t LatencyHistogram::CountAbove(uint64_t threshold_ns) const {
  if (count_ == 0 || threshold_ns >= max_ns_) return 0;
  if (threshold_ns < min_ns_) return count_;
  uint64_t above = 0;
  // A bucket's midpoint > threshold covers all three cases: wholly above (lower bound > threshold
  // implies it), wholly at or below (midpoint <= upper <= threshold), and the straddling one.
  for (uint32_t i = BucketIndex(threshold_ns); i < kHistogramBuckets; ++i) {
    if (counts_[i] != 0 && BucketValue(i) > threshold_ns) above += counts_[i];
  }
  // Overflow values sit in the top bucket but are decided on their own: here threshold_ns <
  // max_ns_, so they count (exactly when threshold_ns < kHistogramMaxTrackableNs, as an upper
  // bound otherwise). Add them if the midpoint rule left the top bucket out.
  if (overflow_count_ != 0 && BucketValue(kTopBucket) <= threshold_ns) above += overflow_count_;
  return above;
}

nlohmann::json LatencyHistogram::ToJson() const {
  nlohmann::json bins = nlohmann::json::object();
  ForEachNonEmptyBucket(
      [&bins](uint64_t value_ns, uint64_t n) { bins[std::to_string(value_ns)] = n; });
  return nlohmann::json{{"bins", std::move(bins)},
                        {"count", count_},
                        {"min_ns", min_ns()},
                        {"max_ns", max_ns_},
                        {"mean_ns", mean_ns()},
                        {"sum_ns", sum_ns_},
                        {"overflow_count", overflow_count_}};
}

bool LatencyHistogram::AddFioBins(const nlohmann::json& bins, std::string* err) {
  if (!bins.is_object()) {
    *err = "bins: expected an object";
    return false;
  }
  for (const auto& [key, value] : bins.items()) {
    uint64_t bin_ns = 0;
    uint64_t n = 0;
    const char* end = key.data() + key.size();
    const auto [ptr, ec] = std::from_chars(key.data(), end, bin_ns);
    if (key.empty() || ec != std::errc() || ptr != end) {
      std::string shown = key.substr(0, 40);
      for (char& c : shown) {
        if (static_cast<unsigned char>(c) < 0x20) c = '?';  // err stays one line
      }
      *err = "bin key \"" + shown + "\" is not a decimal number of ns";
      return false;
    }
    if (!JsonU64(value, &n)) {
      *err = "bin " + key.substr(0, 40) + " count is not a non-negative integer";
      return false;
    }
    if (!AddFioBin(bin_ns, n, err)) return false;
  }
  return true;
}

bool LatencyHistogram::FromJson(const nlohmann::json& json, LatencyHistogram* out,
                                std::string* err) {
  try {
    if (!json.is_object()) {
      *err = "histogram: expected a JSON object";
      return false;
    }
    const auto bins = json.find("bins");
    if (bins == json.end() || !bins->is_object()) {
      *err = "histogram: \"bins\" missing or not an object";
      return false;
    }
    LatencyHistogram h;
    if (!h.AddFioBins(*bins, err)) {
      *err = "histogram: " + *err;
      return false;
    }
    uint64_t count = 0, min_ns = 0, max_ns = 0, overflow = 0;
    const char* bad = nullptr;
    if (!json.contains("count") || !JsonU64(json["count"], &count)) bad = "count";
    if (!json.contains("min_ns") || !JsonU64(json["min_ns"], &min_ns)) bad = "min_ns";
    if (!json.contains("max_ns") || !JsonU64(json["max_ns"], &max_ns)) bad = "max_ns";
    if (!json.contains("overflow_count") || !JsonU64(json["overflow_count"], &overflow)) {
      bad = "overflow_count";
    }
    if (!json.contains("mean_ns") || !json["mean_ns"].is_number()) bad = "mean_ns";
    if (json.contains("sum_ns") && !json["sum_ns"].is_number()) bad = "sum_ns";
    if (bad != nullptr) {
      *err = std::string("histogram: \"") + bad + "\" missing or not a valid number";
      return false;
    }
    if (overflow > h.counts_[kTopBucket] || (overflow > 0 && max_ns <= kHistogramMaxTrackableNs)) {
      *err = "histogram: overflow_count " + std::to_string(overflow) +
             " does not fit the top bucket and max_ns";
      return false;
    }
    h.overflow_count_ = overflow;
    if (!h.SetExactStats(min_ns, max_ns, json["mean_ns"].get<double>(), count, err)) {
      *err = "histogram: " + *err;
      return false;
    }
    if (json.contains("sum_ns") && count != 0) h.sum_ns_ = json["sum_ns"].get<double>();
    *out = h;
    return true;
  } catch (const std::exception& e) {
    *err = std::string("histogram: ") + e.what();
    return false;
  }
}

}  // namespace elevbench
