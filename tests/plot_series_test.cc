#include "harness/stats/plot_series.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

LatencyHistogram Of(std::initializer_list<uint64_t> values_ns) {
  LatencyHistogram h;
  for (uint64_t v : values_ns) EXPECT_TRUE(h.Record(v));
  return h;
}

TEST(LatencyGroupCollectorTest, MergesEachConfigurationAndOrdersSectionsByFirstAppearance) {
  LatencyGroupCollector collector;
  collector.Add("bench3", "read streams", "dl", Of({1000, 2000}));
  collector.Add("bench2", "read streams", "none", Of({5000}));
  collector.Add("bench3", "write streams", "none", Of({7000}));
  collector.Add("bench3", "read streams", "dl", Of({3000}));  // a second repetition
  collector.Add("bench3", "read streams", "none", Of({4000}));
  collector.Add("bench2", "write streams", "dl", LatencyHistogram());  // no calls: left out
  const std::vector<LatencyGroup> groups = collector.Take({"none", "dl"});
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].section, "bench3");
  EXPECT_EQ(groups[0].subject, "read streams");
  ASSERT_EQ(groups[0].by_configuration.size(), 2u);
  EXPECT_EQ(groups[0].by_configuration[0].first, "none");
  EXPECT_EQ(groups[0].by_configuration[1].first, "dl");
  EXPECT_EQ(groups[0].by_configuration[1].second.count(), 3u) << "both repetitions merged";
  EXPECT_EQ(groups[1].subject, "write streams");
  EXPECT_EQ(groups[2].section, "bench2");
  EXPECT_EQ(groups[2].subject, "read streams");
  EXPECT_TRUE(collector.Take({"none", "dl"}).empty()) << "Take leaves the collector empty";
}

TEST(PlotSeriesTest, AStreamRunNeedsSeveralStreamsThatAllLoggedThroughput) {
  StreamResult logged;
  logged.throughput_interval_ms = 1000;
  logged.throughput_kib_s = {10, 20};
  EXPECT_FALSE(HasThroughputSeries({logged}));
  EXPECT_TRUE(HasThroughputSeries({logged, logged}));
  StreamResult unlogged = logged;
  unlogged.throughput_kib_s.clear();
  EXPECT_FALSE(HasThroughputSeries({logged, unlogged}));
}

TEST(PlotSeriesTest, KeepsTheLowestRepetitionOfEachConfigurationInTheGivenOrder) {
  std::vector<StreamRun> runs = {
      {"bench6", "dl", 2, {}}, {"bench2", "none", 1, {}}, {"bench6", "none", 1, {}},
      {"bench6", "dl", 1, {}}, {"bench2", "dl", 3, {}},   {"bench6", "kyber", 1, {}},
  };
  const std::vector<StreamRun> first = FirstRunOfEachConfiguration(runs, {"none", "dl"});
  ASSERT_EQ(first.size(), 4u) << "a configuration not in the order is left out";
  EXPECT_EQ(first[0].section + "/" + first[0].identifier, "bench6/none");
  EXPECT_EQ(first[1].section + "/" + first[1].identifier, "bench6/dl");
  EXPECT_EQ(first[1].repetition, 1u);
  EXPECT_EQ(first[2].section + "/" + first[2].identifier, "bench2/none");
  EXPECT_EQ(first[3].section + "/" + first[3].identifier, "bench2/dl");
}

}  // namespace
}  // namespace elevbench
