#include "harness/core/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace elevbench {
namespace {

constexpr uint64_t kTopValueNs = 17112760320ULL;  // fio's top-bucket midpoint ("17113 ms")

// fio's plat_idx_to_val written independently with doubles, as a cross-check of BucketValue.
uint64_t ReferenceBucketValue(uint32_t idx) {
  if (idx < 128) return idx;
  const uint32_t e = (idx >> 6) - 1;
  const double base = std::ldexp(1.0, static_cast<int>(e + 6));
  const double k = idx % 64;
  return static_cast<uint64_t>(base + (k + 0.5) * std::ldexp(1.0, static_cast<int>(e)));
}

// Log-uniform random values over [0, 2^34), so every group gets hits.
std::vector<uint64_t> RandomValues(size_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> bits(0, 34);
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) {
    const int b = bits(rng);
    x = b == 0 ? 0 : (rng() & ((uint64_t{1} << b) - 1));
  }
  return v;
}

// Loads a recorded fio json+ fixture, skipping fio's leading warning lines.
nlohmann::json LoadFioFixture(const std::string& name) {
  std::ifstream in(std::string(ELEVBENCH_TEST_DATA_DIR) + "/fixtures/fio/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string text = ss.str();
  const size_t brace = text.find('{');
  if (brace == std::string::npos) return nullptr;
  return nlohmann::json::parse(text.substr(brace));
}

TEST(LatencyHistogramTest, BucketLayoutMatchesFio) {
  EXPECT_EQ(kHistogramBuckets, 1856u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(0), 0u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(127), 127u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(128), 128u);
  EXPECT_EQ(LatencyHistogram::BucketValue(128), 129u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(kHistogramMaxTrackableNs), 1855u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(kHistogramMaxTrackableNs + 1), 1855u);
  EXPECT_EQ(LatencyHistogram::BucketIndex(UINT64_MAX), 1855u);
  EXPECT_EQ(LatencyHistogram::BucketValue(1855), kTopValueNs);
  EXPECT_EQ(LatencyHistogram::BucketUpperNs(1855), kHistogramMaxTrackableNs);
  // Keys seen in the recorded fixtures: clat min 741 ns lands in bucket "740" (736..743).
  EXPECT_EQ(LatencyHistogram::BucketValue(LatencyHistogram::BucketIndex(741)), 740u);
  for (uint32_t i = 0; i < kHistogramBuckets; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(LatencyHistogram::BucketValue(i), ReferenceBucketValue(i));
    EXPECT_EQ(LatencyHistogram::BucketIndex(LatencyHistogram::BucketLowerNs(i)), i);
    EXPECT_EQ(LatencyHistogram::BucketIndex(LatencyHistogram::BucketUpperNs(i)), i);
    EXPECT_EQ(LatencyHistogram::BucketIndex(LatencyHistogram::BucketValue(i)), i);
    if (i > 0) {
      EXPECT_EQ(LatencyHistogram::BucketLowerNs(i), LatencyHistogram::BucketUpperNs(i - 1) + 1);
    }
  }
}

TEST(LatencyHistogramTest, RelativeErrorAtMostOneOver128) {
  for (uint64_t v : RandomValues(200000, 1)) {
    const uint64_t reported = LatencyHistogram::BucketValue(LatencyHistogram::BucketIndex(v));
    const double error = std::fabs(static_cast<double>(reported) - static_cast<double>(v));
    ASSERT_LE(error, static_cast<double>(v) / 128.0) << v;
  }
}

TEST(LatencyHistogramTest, PercentilesWithinOneOver128OfExactOrderStatistic) {
  std::vector<uint64_t> values = RandomValues(20000, 2);
  LatencyHistogram h;
  for (uint64_t v : values) ASSERT_TRUE(h.Record(v));
  std::sort(values.begin(), values.end());
  for (double p : {0.5, 1.0, 10.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99}) {
    const size_t rank = static_cast<size_t>(std::ceil(p * values.size() / 100.0));
    const double exact = static_cast<double>(values[rank - 1]);
    const double got = static_cast<double>(h.ValueAtPercentile(p));
    EXPECT_LE(std::fabs(got - exact), exact / 128.0) << "p" << p;
  }
  EXPECT_EQ(h.ValueAtPercentile(0), values.front());
  EXPECT_EQ(h.ValueAtPercentile(100), values.back());
}

TEST(LatencyHistogramTest, ExactStatsTracked) {
  LatencyHistogram h;
  EXPECT_TRUE(h.Record(1000));
  EXPECT_TRUE(h.Record(3000, 3));
  EXPECT_TRUE(h.Record(5, 0));  // no-op
  EXPECT_EQ(h.count(), 4u);
  EXPECT_EQ(h.min_ns(), 1000u);
  EXPECT_EQ(h.max_ns(), 3000u);
  EXPECT_DOUBLE_EQ(h.mean_ns(), 2500.0);
  EXPECT_EQ(h.overflow_count(), 0u);
  h.Clear();
  EXPECT_EQ(h, LatencyHistogram());
}

TEST(LatencyHistogramTest, MergeIsLossless) {
  const std::vector<uint64_t> a = RandomValues(5000, 3);
  const std::vector<uint64_t> b = RandomValues(7000, 4);
  LatencyHistogram ha, hb, all;
  for (uint64_t v : a) (void)ha.Record(v), (void)all.Record(v);
  for (uint64_t v : b) (void)hb.Record(v), (void)all.Record(v);
  (void)hb.Record(kHistogramMaxTrackableNs + 5);
  (void)all.Record(kHistogramMaxTrackableNs + 5);
  EXPECT_EQ(ha.Merge(hb), 1u);
  EXPECT_EQ(ha, all);
  EXPECT_EQ(ha.ValueAtPercentile(99), all.ValueAtPercentile(99));
  LatencyHistogram empty;
  EXPECT_EQ(ha.Merge(empty), 0u);
  EXPECT_EQ(ha, all);
  EXPECT_EQ(empty.Merge(all), 1u);
  EXPECT_EQ(empty, all);
}

TEST(LatencyHistogramTest, OverflowCountedWithExactMax) {
  LatencyHistogram h;
  EXPECT_TRUE(h.Record(kHistogramMaxTrackableNs));
  EXPECT_TRUE(h.Record(1000, 8));
  const uint64_t thirty_s = 30'000'000'000ULL;
  EXPECT_FALSE(h.Record(thirty_s));
  EXPECT_EQ(h.overflow_count(), 1u);
  EXPECT_EQ(h.count(), 10u);
  EXPECT_EQ(h.max_ns(), thirty_s);
  EXPECT_EQ(h.bucket_count(kHistogramBuckets - 1), 2u);  // fio clamps into the top bucket
  EXPECT_EQ(h.ValueAtPercentile(100), thirty_s);
  EXPECT_EQ(h.ValueAtPercentile(95), thirty_s);  // rank 10 is the overflow value
  EXPECT_EQ(h.ValueAtPercentile(90), kTopValueNs);
  EXPECT_EQ(h.CountAbove(10'000'000'000ULL), 2u);
  EXPECT_EQ(h.CountAbove(kTopValueNs), 1u);  // top in-range value is below its midpoint
  EXPECT_EQ(h.CountAbove(20'000'000'000ULL), 1u);
  EXPECT_EQ(h.CountAbove(thirty_s), 0u);
  EXPECT_DOUBLE_EQ(h.sum_ns(), 8000.0 + kHistogramMaxTrackableNs + 3e10);
}

TEST(LatencyHistogramTest, PercentilesClampedToMinMax) {
  LatencyHistogram h;
  EXPECT_EQ(h.ValueAtPercentile(50), 0u);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.CountAbove(0), 0u);
  (void)h.Record(1000);  // bucket 1000..1007, midpoint 1004
  for (double p : {-5.0, 0.0, 1.0, 50.0, 99.9, 100.0, 250.0, std::nan("")}) {
    EXPECT_EQ(h.ValueAtPercentile(p), 1000u) << p;
  }
  (void)h.Record(1007);
  EXPECT_EQ(h.ValueAtPercentile(50), 1004u);
  EXPECT_EQ(h.ValueAtPercentile(100), 1007u);
}

TEST(LatencyHistogramTest, CountAboveRuleAndBound) {
  LatencyHistogram h;
  for (uint64_t v = 0; v < 128; ++v) (void)h.Record(v);
  for (uint64_t t = 0; t < 127; ++t) EXPECT_EQ(h.CountAbove(t), 127 - t) << t;  // exact region
  LatencyHistogram s;
  (void)s.Record(1000);  // straddling bucket 1000..1007, midpoint 1004
  (void)s.Record(1001);
  (void)s.Record(5000);
  EXPECT_EQ(s.CountAbove(999), 3u);
  EXPECT_EQ(s.CountAbove(1002), 3u);  // midpoint 1004 > 1002: whole bucket counts
  EXPECT_EQ(s.CountAbove(1004), 1u);  // midpoint not above: bucket left out
  // Bound: only values within one bucket width (threshold / 64) can be misclassified.
  const std::vector<uint64_t> values = RandomValues(20000, 5);
  LatencyHistogram r;
  for (uint64_t v : values) (void)r.Record(v);
  for (uint64_t t : {200ULL, 5'000ULL, 123'456ULL, 2'000'000'000ULL, 10'000'000'000ULL}) {
    uint64_t exact = 0, near = 0;
    for (uint64_t v : values) {
      exact += v > t;
      near += std::fabs(static_cast<double>(v) - static_cast<double>(t)) < t / 64.0;
    }
    const uint64_t got = r.CountAbove(t);
    EXPECT_LE(got > exact ? got - exact : exact - got, near) << t;
  }
}

TEST(LatencyHistogramTest, AddFioBinRejectsNonMidpoints) {
  LatencyHistogram h;
  std::string err;
  EXPECT_TRUE(h.AddFioBin(740, 2, &err)) << err;
  EXPECT_TRUE(h.AddFioBin(17, 1, &err)) << err;
  EXPECT_FALSE(h.AddFioBin(741, 1, &err));
  EXPECT_NE(err.find("741"), std::string::npos);
  EXPECT_FALSE(h.AddFioBin(kHistogramMaxTrackableNs + 1, 1, &err));
  EXPECT_EQ(h.count(), 3u);
}

TEST(LatencyHistogramTest, SetExactStatsChecksConsistency) {
  LatencyHistogram h;
  std::string err;
  ASSERT_TRUE(h.AddFioBin(740, 2, &err));
  ASSERT_TRUE(h.AddFioBin(1004, 1, &err));
  EXPECT_FALSE(h.SetExactStats(741, 1003, 900, 4, &err));   // count
  EXPECT_FALSE(h.SetExactStats(700, 1003, 900, 3, &err));   // min not in lowest bucket
  EXPECT_FALSE(h.SetExactStats(741, 2000, 900, 3, &err));   // max not in highest bucket
  EXPECT_FALSE(h.SetExactStats(741, 1003, 5000, 3, &err));  // mean outside
  EXPECT_EQ(h.min_ns(), 740u);                              // unchanged
  ASSERT_TRUE(h.SetExactStats(741, 1003, 830.5, 3, &err)) << err;
  EXPECT_EQ(h.min_ns(), 741u);
  EXPECT_EQ(h.max_ns(), 1003u);
  EXPECT_DOUBLE_EQ(h.mean_ns(), 830.5);
  EXPECT_EQ(h.ValueAtPercentile(1), 741u);  // midpoint 740 clamped up to the exact min
}

TEST(LatencyHistogramTest, ImportedMaxBeyondRangeKeepsBinsAndMarksOverflow) {
  LatencyHistogram h;
  std::string err;
  ASSERT_TRUE(h.AddFioBin(1004, 5, &err));
  ASSERT_TRUE(h.AddFioBin(kTopValueNs, 2, &err));
  ASSERT_TRUE(h.SetExactStats(1000, 25'000'000'000ULL, 5e9, 7, &err)) << err;
  EXPECT_EQ(h.overflow_count(), 1u);
  EXPECT_EQ(h.max_ns(), 25'000'000'000ULL);
  EXPECT_EQ(h.bucket_count(kHistogramBuckets - 1), 2u);
  EXPECT_EQ(h.ToJson()["bins"], nlohmann::json::parse(R"({"1004": 5, "17112760320": 2})"));
  EXPECT_EQ(h.ValueAtPercentile(100), 25'000'000'000ULL);
}

TEST(LatencyHistogramTest, RealFioBinsRoundTripAndMatchFioPercentiles) {
  int checked = 0;
  for (const char* name : {"read_numjobs2.json", "write_end_fsync.json", "randread_number_ios.json",
                           "job_error_enospc.json"}) {
    const nlohmann::json run = LoadFioFixture(name);
    ASSERT_TRUE(run.is_object()) << name;
    for (const nlohmann::json& job : run["jobs"]) {
      for (const char* dir : {"read", "write"}) {
        const nlohmann::json& clat = job[dir]["clat_ns"];
        if (!clat.contains("bins")) continue;
        SCOPED_TRACE(std::string(name) + " " + job["jobname"].get<std::string>() + " " + dir);
        LatencyHistogram h;
        std::string err;
        for (const auto& [key, n] : clat["bins"].items()) {
          ASSERT_TRUE(h.AddFioBin(std::stoull(key), n.get<uint64_t>(), &err)) << err;
        }
        ASSERT_TRUE(h.SetExactStats(clat["min"], clat["max"], clat["mean"], clat["N"], &err))
            << err;
        EXPECT_EQ(h.ToJson()["bins"], clat["bins"]);
        // fio's percentiles are unclamped bucket midpoints; ours are the same, clamped.
        for (const auto& [p, v] : clat["percentile"].items()) {
          const uint64_t fio_value = std::clamp(v.get<uint64_t>(), clat["min"].get<uint64_t>(),
                                                clat["max"].get<uint64_t>());
          EXPECT_EQ(h.ValueAtPercentile(std::stod(p)), fio_value) << "p" << p;
        }
        LatencyHistogram back;
        ASSERT_TRUE(LatencyHistogram::FromJson(h.ToJson(), &back, &err)) << err;
        EXPECT_EQ(back, h);
        ++checked;
      }
    }
  }
  EXPECT_GE(checked, 5);
}

TEST(LatencyHistogramTest, JsonRoundTrip) {
  LatencyHistogram h;
  for (uint64_t v : RandomValues(3000, 6)) (void)h.Record(v);
  (void)h.Record(40'000'000'000ULL, 2);
  const nlohmann::json j = h.ToJson();
  EXPECT_EQ(j["overflow_count"], 2);
  EXPECT_EQ(j["count"], 3002);
  LatencyHistogram back;
  std::string err;
  ASSERT_TRUE(LatencyHistogram::FromJson(j, &back, &err)) << err;
  EXPECT_EQ(back, h);
  LatencyHistogram empty;
  ASSERT_TRUE(LatencyHistogram::FromJson(LatencyHistogram().ToJson(), &empty, &err)) << err;
  EXPECT_EQ(empty, LatencyHistogram());
}

TEST(LatencyHistogramTest, FromJsonRejectsGarbage) {
  LatencyHistogram good;
  (void)good.Record(1000, 3);
  const nlohmann::json base = good.ToJson();
  auto with = [&base](const char* key, nlohmann::json value) {
    nlohmann::json j = base;
    j[key] = std::move(value);
    return j;
  };
  nlohmann::json no_bins = base;
  no_bins.erase("bins");
  const std::vector<nlohmann::json> bad = {
      nlohmann::json::array(),
      nlohmann::json("bins"),
      no_bins,
      with("bins", nlohmann::json::array()),
      with("bins", {{"abc", 1}}),
      with("bins", {{"1004x", 3}}),
      with("bins", {{"-1004", 3}}),
      with("bins", {{"1003", 3}}),  // not a midpoint
      with("bins", {{"1004", -3}}),
      with("bins", {{"1004", "3"}}),
      with("count", 4),
      with("count", "3"),
      with("min_ns", 2000),
      with("max_ns", nullptr),
      with("mean_ns", "x"),
      with("overflow_count", 1),
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    LatencyHistogram out;
    (void)out.Record(7);
    const LatencyHistogram before = out;
    std::string err;
    EXPECT_FALSE(LatencyHistogram::FromJson(bad[i], &out, &err)) << i << ": " << bad[i].dump();
    EXPECT_FALSE(err.empty()) << i;
    EXPECT_EQ(err.find('\n'), std::string::npos) << i;
    EXPECT_EQ(out, before) << i;
  }
}

}  // namespace
}  // namespace elevbench
