// `run --shard I/N` (harness/run/shard.h): the option's words and its one-line refusals, and the
// deal: every cell of the plan in exactly one shard, in plan order, whole repetitions (or the
// lanes' blocks when the plan has fewer repetitions than shards).

#include "harness/run/shard.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "harness/run/run_plan.h"

namespace elevbench {
namespace {

TEST(ShardOptionTest, ReadsIOfN) {
  ShardSpec s;
  std::string err;
  ASSERT_TRUE(ParseShardOption("1/2", &s, &err)) << err;
  EXPECT_EQ(s.index, 1u);
  EXPECT_EQ(s.count, 2u);
  EXPECT_TRUE(s.given());
  EXPECT_EQ(s.Text(), "1/2");
  ASSERT_TRUE(ParseShardOption("2/2", &s, &err)) << err;
  EXPECT_EQ(s.index, 2u);
  ASSERT_TRUE(ParseShardOption("1/1", &s, &err)) << err;
  EXPECT_FALSE(ShardSpec{}.given());
}

TEST(ShardOptionTest, RefusesWhatIsNoShardInOneLine) {
  for (const char* bad : {"0/2", "3/2", "1/0", "x", "", "1/", "/2", "1/2/3", "-1/2", "1 /2", "a/b",
                          "2", "1/99999999", "1/10001"}) {
    ShardSpec s;
    std::string err;
    EXPECT_FALSE(ParseShardOption(bad, &s, &err)) << bad;
    EXPECT_EQ(err.rfind("--shard: ", 0), 0u) << err;
    EXPECT_NE(err.find(std::string("'") + bad + "'"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  }
}

// The deal of a plan of 2 configurations × 2 variants × 4 repetitions to 2 shards.
TEST(ShardDealTest, WholeRepetitionsEveryCellOnceInPlanOrder) {
  const std::vector<PlannedCell> plan = BuildRunPlan(2, 2, 4, 3);
  const std::vector<size_t> one = DealPlanToShard(plan, {1, 2});
  const std::vector<size_t> two = DealPlanToShard(plan, {2, 2});
  EXPECT_EQ(one.size(), 8u);
  EXPECT_EQ(two.size(), 8u);
  std::set<size_t> all;
  for (const auto* share : {&one, &two}) {
    for (size_t k = 1; k < share->size(); ++k) EXPECT_LT((*share)[k - 1], (*share)[k]);
    all.insert(share->begin(), share->end());
  }
  EXPECT_EQ(all.size(), plan.size());
  // Repetitions 0 and 2 on shard 1, 1 and 3 on shard 2: each with every configuration in
  // its seeded order, so both boxes measure both configurations alike.
  for (size_t i : one) EXPECT_EQ(plan[i].repetition % 2, 0u) << i;
  for (size_t i : two) EXPECT_EQ(plan[i].repetition % 2, 1u) << i;
  for (const auto* share : {&one, &two}) {
    std::set<size_t> configs;
    for (size_t i : *share) configs.insert(plan[i].config_index);
    EXPECT_EQ(configs.size(), 2u);
  }
  // The same words deal the same cells (a box that runs its shard again).
  EXPECT_EQ(DealPlanToShard(BuildRunPlan(2, 2, 4, 3), {1, 2}), one);
  // The whole plan without a shard.
  EXPECT_EQ(DealPlanToShard(plan, {}).size(), plan.size());
}

TEST(ShardDealTest, FewerRepetitionsThanShardsDealsBlocks) {
  const std::vector<PlannedCell> plan = BuildRunPlan(2, 2, 1, 3);  // 2 blocks of 2 variants
  const std::vector<size_t> one = DealPlanToShard(plan, {1, 3});
  const std::vector<size_t> two = DealPlanToShard(plan, {2, 3});
  const std::vector<size_t> three = DealPlanToShard(plan, {3, 3});
  EXPECT_EQ(one, (std::vector<size_t>{0, 1}));
  EXPECT_EQ(two, (std::vector<size_t>{2, 3}));
  EXPECT_TRUE(three.empty());  // more shards than pieces: this one has nothing to run
}

TEST(ShardDealTest, ContextBlockAndTheWholePlansCommandLine) {
  const nlohmann::json block = ShardContextJson({2, 3}, 5, 14);
  EXPECT_EQ(block["index"], 2);
  EXPECT_EQ(block["count"], 3);
  EXPECT_EQ(block["cells"], 5);
  EXPECT_EQ(block["plan_cells"], 14);
  EXPECT_EQ(CommandLineWithoutShard("elevbench run tiobench --shard 1/2 --seed 3"),
            "elevbench run tiobench --seed 3");
  EXPECT_EQ(CommandLineWithoutShard("elevbench run tiobench --seed 3 --shard=2/2"),
            "elevbench run tiobench --seed 3");
  EXPECT_EQ(CommandLineWithoutShard("elevbench run tiobench"), "elevbench run tiobench");
}

}  // namespace
}  // namespace elevbench
