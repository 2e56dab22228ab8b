#pragma once
// CompactHistogram: a LatencyHistogram kept sparse, for records that hold many histograms at
// once. A LatencyHistogram is 14.8 KB inline whatever it holds; a cell's request trace has four
// per direction of the cell, of each of up to 16 processes and of each phase (168 at most), most
// of them empty or with a few dozen buckets, and a run keeps every cell's trace in memory (inside
// the emulated machine's memory cgroup with --machine). This keeps the non-empty buckets and the
// exact statistics only: the same histogram, the same JSON byte for byte, an eighth of the size
// or less; Expand() gives the full LatencyHistogram back for merging and percentiles.

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/latency_histogram.h"

namespace elevbench {

/// A LatencyHistogram's non-empty buckets and exact statistics; a copyable value.
class CompactHistogram {
 public:
  CompactHistogram() = default;
  /// The sparse copy of `h`: Expand() == h.
  explicit CompactHistogram(const LatencyHistogram& h);

  /// The full histogram, equal (operator==) to the one this was made from.
  LatencyHistogram Expand() const;

  uint64_t count() const { return count_; }                      ///< LatencyHistogram::count
  uint64_t min_ns() const { return count_ == 0 ? 0 : min_ns_; }  ///< exact; 0 when empty
  uint64_t max_ns() const { return max_ns_; }                    ///< exact; 0 when empty
  double sum_ns() const { return sum_ns_; }                      ///< LatencyHistogram::sum_ns
  double mean_ns() const;                                        ///< sum / count; 0 when empty
  uint64_t overflow_count() const { return overflow_count_; }    ///< LatencyHistogram's

  /// LatencyHistogram::ToJson of the same histogram, byte for byte.
  nlohmann::json ToJson() const;
  /// LatencyHistogram::FromJson's rules and errors; *out unchanged on failure. Never throws.
  [[nodiscard]] static bool FromJson(const nlohmann::json& json, CompactHistogram* out,
                                     std::string* err);

  bool operator==(const CompactHistogram& other) const = default;

 private:
  // Copies the exact statistics (count, overflow count, min, max, sum), which a LatencyHistogram
  // and its CompactHistogram keep under the same member names.
  template <typename From, typename To>
  static void CopyStatistics(const From& from, To* to);

  std::vector<std::pair<uint32_t, uint64_t>> buckets_;  // (bucket index, count), index order
  uint64_t count_ = 0;
  uint64_t overflow_count_ = 0;
  uint64_t min_ns_ = UINT64_MAX;  // LatencyHistogram's empty value, so Expand() compares equal
  uint64_t max_ns_ = 0;
  double sum_ns_ = 0;
};

}  // namespace elevbench
