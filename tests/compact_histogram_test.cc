// CompactHistogram (harness/core/compact_histogram.h): the sparse copy of a LatencyHistogram
// expands back to an equal histogram, writes the same JSON byte for byte, reads LatencyHistogram's
// JSON with its errors, and is a fraction of its size.

#include "harness/core/compact_histogram.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

LatencyHistogram SomeLatencies() {
  LatencyHistogram h;
  h.Record(90, 3);                               // an exact bucket
  h.Record(1234567, 40);                         // a wide one
  (void)h.Record(kHistogramMaxTrackableNs + 5);  // an overflow
  return h;
}

TEST(CompactHistogramTest, ExpandsToTheSameHistogramAndJson) {
  for (const LatencyHistogram& h : {LatencyHistogram(), SomeLatencies()}) {
    const CompactHistogram c(h);
    EXPECT_EQ(c.Expand(), h);
    EXPECT_EQ(c.ToJson().dump(), h.ToJson().dump());
    EXPECT_EQ(c.count(), h.count());
    EXPECT_EQ(c.min_ns(), h.min_ns());
    EXPECT_EQ(c.max_ns(), h.max_ns());
    EXPECT_EQ(c.overflow_count(), h.overflow_count());
    EXPECT_DOUBLE_EQ(c.mean_ns(), h.mean_ns());
    EXPECT_DOUBLE_EQ(c.sum_ns(), h.sum_ns());
  }
  EXPECT_EQ(CompactHistogram(), CompactHistogram(LatencyHistogram()));
}

TEST(CompactHistogramTest, ReadsLatencyHistogramsJsonWithItsErrors) {
  const LatencyHistogram h = SomeLatencies();
  CompactHistogram c;
  std::string err;
  ASSERT_TRUE(CompactHistogram::FromJson(h.ToJson(), &c, &err)) << err;
  EXPECT_EQ(c.Expand(), h);
  EXPECT_FALSE(CompactHistogram::FromJson({{"bins", 3}}, &c, &err));
  EXPECT_EQ(err, "histogram: \"bins\" missing or not an object");
  EXPECT_EQ(c.Expand(), h);  // unchanged on failure
}

TEST(CompactHistogramTest, IsAFractionOfTheFullSize) {
  EXPECT_LT(sizeof(CompactHistogram) * 100, sizeof(LatencyHistogram));
}

}  // namespace
}  // namespace elevbench
