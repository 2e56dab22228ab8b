#include "harness/run/run_plan.h"

#include <gtest/gtest.h>

#include <set>

namespace elevbench {
namespace {

TEST(RunPlanTest, EveryCellOnceAndConfigsGrouped) {
  auto plan = BuildRunPlan(4, 2, 3, 42);
  ASSERT_EQ(plan.size(), 4u * 2 * 3);
  std::set<std::tuple<size_t, size_t, uint32_t>> seen;
  for (const auto& c : plan) seen.insert({c.config_index, c.variant_index, c.repetition});
  EXPECT_EQ(seen.size(), plan.size());
  // The variants of one configuration stay together, in order (one switch per configuration).
  for (size_t i = 0; i < plan.size(); i += 2) {
    EXPECT_EQ(plan[i].config_index, plan[i + 1].config_index);
    EXPECT_EQ(plan[i].variant_index, 0u);
    EXPECT_EQ(plan[i + 1].variant_index, 1u);
  }
}

TEST(RunPlanTest, OrderIsShuffledPerRepetitionAndReproducible) {
  auto a = BuildRunPlan(5, 1, 8, 7);
  auto b = BuildRunPlan(5, 1, 8, 7);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a[i].config_index, b[i].config_index);
  std::set<std::vector<size_t>> orders;
  for (uint32_t rep = 0; rep < 8; ++rep) {
    std::vector<size_t> order;
    for (size_t i = 0; i < 5; ++i) order.push_back(a[rep * 5 + i].config_index);
    orders.insert(order);
  }
  EXPECT_GT(orders.size(), 1u);  // 8 draws of 120 orders: all equal would be a broken shuffle
}

// --controls multiplies the configurations (2 schedulers × 3 controls = 6): each repetition
// shuffles all six, so a control's rows are interleaved with the other scheduler's too.
TEST(RunPlanTest, SchedulersTimesControlsAreInterleavedAsOneList) {
  const auto plan = BuildRunPlan(6, 1, 10, 11);
  ASSERT_EQ(plan.size(), 60u);
  bool split = false;  // some repetition does not run one scheduler's three rows together
  for (uint32_t rep = 0; rep < 10; ++rep) {
    std::set<size_t> seen;
    std::vector<size_t> schedulers;
    for (size_t i = 0; i < 6; ++i) {
      seen.insert(plan[rep * 6 + i].config_index);
      schedulers.push_back(plan[rep * 6 + i].config_index / 3);
    }
    EXPECT_EQ(seen.size(), 6u);
    split = split || !(schedulers[0] == schedulers[1] && schedulers[1] == schedulers[2]);
  }
  EXPECT_TRUE(split);
}

TEST(RunPlanTest, NoShuffleKeepsOrder) {
  auto plan = BuildRunPlan(3, 1, 2, 1, /*shuffle=*/false);
  ASSERT_EQ(plan.size(), 6u);  // an empty plan would pass the loop (issue 58 §7)
  for (size_t i = 0; i < plan.size(); ++i) EXPECT_EQ(plan[i].config_index, i % 3);
}

}  // namespace
}  // namespace elevbench
