#pragma once
// LatencyHistogram: fio-compatible log-linear latency histogram.
//
// EXECUTIVE SUMMARY
//   * Buckets: exactly fio's (stat.h FIO_IO_U_PLAT_BITS=6, FIO_IO_U_PLAT_GROUP_NR=29): 29 groups
//     of 64 buckets = 1856 buckets, values in nanoseconds. Values below 128 ns get a bucket each
//     (exact). Above, a value's most significant bit picks the group and the next 6 bits the
//     bucket, so a bucket is 2^(msb-6) ns wide.
//   * Error: every bucket reports its midpoint, as fio's json+ "bins" keys do, so a reported
//     value is within half a bucket width of the true value: |reported - true| <= true / 128
//     (2^-7, 0.78 %). Percentiles inherit that bound and are clamped to the exact [min, max].
//   * Range: 0 .. 2^34 - 1 ns (17.18 s). Larger values are counted in the top bucket, exactly as
//     fio clamps them, and additionally in overflow_count(); min/max/sum stay exact, so the true
//     maximum is never lost. Record() returns false for them (HdrHistogram's contract).
//   * Memory: 1856 x 8 B = 14,848 B of counters plus ~40 B of exact statistics, inline (no heap);
//     the class is a copyable value.
//   * Merging adds counts bucket by bucket, which is lossless: merge(A, B) equals recording all
//     values of A and B into one histogram. Never average percentiles; merge and recompute.
//   * fio json+ bins import losslessly (AddFioBin): bins -> histogram -> ToJson bins gives the
//     same keys and counts.

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace elevbench {

/// fio's FIO_IO_U_PLAT_BITS: bits kept below the most significant bit.
inline constexpr uint32_t kHistogramPlatBits = 6;
/// Buckets per group (fio's FIO_IO_U_PLAT_VAL).
inline constexpr uint32_t kHistogramBucketsPerGroup = 1u << kHistogramPlatBits;
/// Number of groups (fio's FIO_IO_U_PLAT_GROUP_NR).
inline constexpr uint32_t kHistogramGroups = 29;
/// Total bucket count (fio's FIO_IO_U_PLAT_NR): 1856.
inline constexpr uint32_t kHistogramBuckets = kHistogramGroups * kHistogramBucketsPerGroup;
/// Largest value that falls inside the top bucket's range: 2^34 - 1 ns (~17.18 s).
inline constexpr uint64_t kHistogramMaxTrackableNs = (uint64_t{1} << 34) - 1;

/// Log-linear latency histogram with fio's bucket layout plus exact min/max/sum.
///
/// Why fio's layout: the harness reads fio's json+ "bins" and must merge them across jobs,
/// threads and repetitions without loss; any other layout would re-bin and add error.
/// Not thread-safe; give each thread its own histogram and Merge() them.
class LatencyHistogram {
 public:
  /// Index of the bucket that holds value_ns (fio's plat_val_to_idx). Values beyond
  /// kHistogramMaxTrackableNs map to the top bucket, as in fio.
  static uint32_t BucketIndex(uint64_t value_ns);
  /// Value reported for a bucket (fio's plat_idx_to_val): the value itself below 128 ns, else
  /// lower bound + half the width. This is the key fio prints in json+ "bins".
  /// Precondition: index < kHistogramBuckets.
  static uint64_t BucketValue(uint32_t index);
  /// Smallest value (inclusive) that falls in the bucket. Precondition: index < kHistogramBuckets.
  static uint64_t BucketLowerNs(uint32_t index);
  /// Largest value (inclusive) that falls in the bucket; for the top bucket that is
  /// kHistogramMaxTrackableNs even though fio clamps larger values into it.
  static uint64_t BucketUpperNs(uint32_t index);

  /// Records `count` occurrences of value_ns. Returns false when the value exceeds
  /// kHistogramMaxTrackableNs: it is still counted (top bucket, like fio, and overflow_count())
  /// and min/max/sum stay exact, so ignoring the result loses nothing. count == 0 is a no-op.
  bool Record(uint64_t value_ns, uint64_t count = 1);

  /// Imports one fio json+ "bins" entry: bin_value_ns must be a bucket midpoint as printed by
  /// fio (BucketValue of some bucket); the counts go into exactly that bucket, so the import is
  /// lossless. min/max/sum are updated from the midpoint, i.e. approximately; call
  /// SetExactStats() afterwards with fio's exact clat min/max/mean. count == 0 is a no-op.
  /// False (nothing changed) when the key is not a fio bucket value.
  [[nodiscard]] bool AddFioBin(uint64_t bin_value_ns, uint64_t count, std::string* err);

  /// Adds every bin of a json+ style "bins" object (decimal ns bucket value → count), as fio's
  /// clat_ns.bins and this class's own ToJson write it. The one reader of that layout, for the
  /// fio parser and FromJson alike. err names the bad key; the histogram may then be partial.
  [[nodiscard]] bool AddFioBins(const nlohmann::json& bins, std::string* err);

  /// Replaces the approximate min/max/mean derived from imported bins with fio's exact ones
  /// (clat_ns.min/max/mean/N). Checks that they fit the buckets: count must equal count(), min
  /// must fall in the lowest non-empty bucket and max in the highest one, min <= mean <= max.
  /// If max_ns exceeds kHistogramMaxTrackableNs, fio has clamped the large values into its top
  /// bucket and the bucket cannot be split: the counts stay there (so the bins round-trip),
  /// max_ns() keeps the exact maximum and overflow_count() becomes at least 1 -- a lower bound,
  /// since only the maximum is known to have overflowed. False (nothing changed) on mismatch.
  [[nodiscard]] bool SetExactStats(uint64_t min_ns, uint64_t max_ns, double mean_ns, uint64_t count,
                                   std::string* err);

  /// Adds other's counts and combines min/max/sum (sums counts; never averages percentiles).
  /// Returns the number of merged values beyond kHistogramMaxTrackableNs (other's
  /// overflow_count()), mirroring Record()'s false; they are kept like in Record().
  uint64_t Merge(const LatencyHistogram& other);

  /// Empties the histogram.
  void Clear();

  /// Number of recorded values, including overflow values.
  uint64_t count() const { return count_; }
  /// Exact smallest value; 0 when empty.
  uint64_t min_ns() const { return count_ == 0 ? 0 : min_ns_; }
  /// Exact largest value (also when it overflowed); 0 when empty.
  uint64_t max_ns() const { return max_ns_; }
  /// Exact mean (sum / count); 0 when empty. The sum is a double, exact while it is below 2^53 ns.
  double mean_ns() const;
  /// Sum of all values in ns (see mean_ns() for precision).
  double sum_ns() const { return sum_ns_; }
  /// Values above kHistogramMaxTrackableNs (counted in the top bucket too).
  uint64_t overflow_count() const { return overflow_count_; }
  /// Count in one bucket. Precondition: index < kHistogramBuckets.
  uint64_t bucket_count(uint32_t index) const { return counts_[index]; }

  /// Value at percentile p (p in [0, 100], clamped into it): the midpoint of the bucket holding
  /// the ceil(p/100 * count())-th smallest value (at least the 1st), clamped to [min_ns(),
  /// max_ns()]. p <= 0 gives min_ns(), p >= 100 gives max_ns(), and a rank that falls among the
  /// overflow values gives max_ns() (the only exact value known there). 0 for an empty histogram.
  /// Error: within 1/128 of the true order statistic for in-range values.
  uint64_t ValueAtPercentile(double p) const;

  /// Number of values greater than threshold_ns. Buckets entirely above the threshold count
  /// fully, buckets entirely at or below it not at all; the one bucket that straddles the
  /// threshold counts fully iff its reported value (midpoint) > threshold_ns, i.e. what fio's
  /// reported bucket value says. Error bound: only values v in that straddling bucket can be
  /// misclassified, and they satisfy |v - threshold_ns| < threshold_ns / 64 (one bucket width);
  /// below 128 ns the result is exact. Overflow values count when threshold_ns <
  /// kHistogramMaxTrackableNs; above that they count iff max_ns() > threshold_ns (upper bound).
  /// Exact min/max clamp the answer: 0 when threshold_ns >= max_ns(), count() when < min_ns().
  uint64_t CountAbove(uint64_t threshold_ns) const;

  /// Calls fn(bucket_value_ns, count) for each non-empty bucket in increasing value order.
  /// Why a template: it is on the reporting path for 1856 buckets and inlines cleanly.
  template <typename Fn>
  void ForEachNonEmptyBucket(Fn&& fn) const {
    for (uint32_t i = 0; i < kHistogramBuckets; ++i) {
      if (counts_[i] != 0) fn(BucketValue(i), counts_[i]);
    }
  }

  /// JSON form: {"bins": {"<bucket value ns>": count, ...} (sparse, fio json+ keys; overflow
  /// values are in the top bucket as in fio), "count", "min_ns", "max_ns", "mean_ns", "sum_ns",
  /// "overflow_count"}. FromJson(ToJson()) reproduces the histogram exactly.
  nlohmann::json ToJson() const;

  /// Parses ToJson()'s form ("sum_ns" optional; else mean_ns * count). Checks types, that the
  /// bins are fio bucket values, that count equals the bins' sum, that min/max fit the buckets
  /// and that overflow_count fits the top bucket. On failure *out is unchanged and err gets one
  /// line. Never throws.
  [[nodiscard]] static bool FromJson(const nlohmann::json& json, LatencyHistogram* out,
                                     std::string* err);

  /// Exact equality of buckets and statistics.
  bool operator==(const LatencyHistogram& other) const = default;

 private:
  friend class CompactHistogram;  // its sparse copy: the same members, bucket for bucket

  std::array<uint64_t, kHistogramBuckets> counts_{};
  uint64_t count_ = 0;
  uint64_t overflow_count_ = 0;
  uint64_t min_ns_ = UINT64_MAX;  // UINT64_MAX while empty so == works on empty histograms
  uint64_t max_ns_ = 0;
  double sum_ns_ = 0;
};

}  // namespace elevbench
