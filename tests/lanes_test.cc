// --lanes without a device: the option against the suite's, the CPUs' and the RAM's bounds,
// the plan dealt out to lanes, the lanes' documents merged as a serial run would have written
// them, and the per-device writeback limits on a fake sysfs tree (harness/run/lanes.h,
// harness/device/bdi_limits.h).

#include "harness/run/lanes.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "harness/device/bdi_limits.h"
#include "harness/device/restore_journal.h"
#include "harness/results/results_document.h"
#include "test_util.h"

namespace elevbench {
namespace {

LaneBounds TwoCpuBounds() {
  LaneBounds b;
  b.online_cpus = 2;
  b.cpus_per_lane = 1;
  b.disk_bytes = 1ULL << 30;
  b.memory_bytes = 24ULL << 30;
  b.suite = "tiobench";
  return b;
}

TEST(LanesOptionTest, AutoTakesTheMostTheCpusAllow) {
  int lanes = 0;
  std::string err;
  ASSERT_TRUE(ParseLanesOption("auto", TwoCpuBounds(), &lanes, &err)) << err;
  EXPECT_EQ(lanes, 2);
  LaneBounds contest = TwoCpuBounds();
  contest.cpus_per_lane = 2;
  ASSERT_TRUE(ParseLanesOption("auto", contest, &lanes, &err)) << err;
  EXPECT_EQ(lanes, 1);
  LaneBounds refused = TwoCpuBounds();
  refused.refusal = "no";
  ASSERT_TRUE(ParseLanesOption("auto", refused, &lanes, &err)) << err;
  EXPECT_EQ(lanes, 1);
}

TEST(LanesOptionTest, RefusesAboveTheBoundsWithOneLine) {
  int lanes = 0;
  std::string err;
  EXPECT_FALSE(ParseLanesOption("3", TwoCpuBounds(), &lanes, &err));
  EXPECT_EQ(err, "--lanes 3: tiobench runs at most 2 lane(s) on 2 CPU(s) (1 CPU(s) a lane)");
  LaneBounds contest = TwoCpuBounds();
  contest.suite = "contest";
  contest.cpus_per_lane = 2;
  EXPECT_FALSE(ParseLanesOption("2", contest, &lanes, &err));
  EXPECT_EQ(err, "--lanes 2: contest runs at most 1 lane(s) on 2 CPU(s) (2 CPU(s) a lane)");
  LaneBounds refused = TwoCpuBounds();
  refused.suite = "probes";
  refused.refusal = "it drops caches";
  EXPECT_FALSE(ParseLanesOption("2", refused, &lanes, &err));
  EXPECT_EQ(err, "--lanes 2: probes does not run in lanes: it drops caches");
  LaneBounds small = TwoCpuBounds();
  small.memory_bytes = 3ULL << 30;  // two 1 GiB images > half of 3 GiB
  EXPECT_FALSE(ParseLanesOption("2", small, &lanes, &err));
  EXPECT_NE(err.find("half of the 3072 MiB of RAM"), std::string::npos) << err;
  for (const char* bad : {"0", "-1", "two", "", "1.5"}) {
    EXPECT_FALSE(ParseLanesOption(bad, TwoCpuBounds(), &lanes, &err)) << bad;
    EXPECT_EQ(err.find('\n'), std::string::npos);
  }
  ASSERT_TRUE(ParseLanesOption("1", refused, &lanes, &err)) << err;  // 1 is a serial run
  EXPECT_EQ(lanes, 1);
}

TEST(LanesPlanTest, DealsBlocksRoundRobinAndKeepsTheSeededOrder) {
  const std::vector<PlannedCell> plan = BuildRunPlan(3, 2, 4, 7);
  const auto dealt = DealPlanToLanes(plan, 2);
  ASSERT_EQ(dealt.size(), 2u);
  std::set<size_t> seen;
  for (const auto& lane : dealt) {
    for (size_t n = 0; n < lane.size(); ++n) {
      seen.insert(lane[n]);
      if (n > 0) {
        EXPECT_LT(lane[n - 1], lane[n]);  // plan order within a lane
      }
    }
    // A lane holds whole blocks: a configuration's variants of one repetition together.
    for (size_t n = 0; n < lane.size(); n += 2) {
      EXPECT_EQ(plan[lane[n]].config_index, plan[lane[n + 1]].config_index);
      EXPECT_EQ(plan[lane[n]].variant_index, 0u);
      EXPECT_EQ(plan[lane[n + 1]].variant_index, 1u);
    }
  }
  EXPECT_EQ(seen.size(), plan.size());  // every cell exactly once
  EXPECT_EQ(dealt[0].size(), 12u);      // 12 blocks: 6 a lane
  // Block b on lane b % 2.
  for (size_t i = 0; i < plan.size(); ++i) {
    const size_t lane = (i / 2) % 2;
    EXPECT_NE(std::find(dealt[lane].begin(), dealt[lane].end(), i), dealt[lane].end()) << i;
  }
  // Every configuration meets both lanes over the repetitions of this seed.
  for (size_t c = 0; c < 3; ++c) {
    std::set<size_t> lanes;
    for (size_t k = 0; k < 2; ++k) {
      for (size_t i : dealt[k]) {
        if (plan[i].config_index == c) lanes.insert(k);
      }
    }
    EXPECT_EQ(lanes.size(), 2u) << c;
  }
  EXPECT_EQ(DealPlanToLanes(plan, 1).front().size(), plan.size());
}

// A composite's variants that take no lanes (its probes) are set apart, and the others are
// dealt as a plan of only them would be.
TEST(LanesPlanTest, VariantsThatTakeNoLanesAreSetApartInPlanOrder) {
  const std::vector<PlannedCell> plan = BuildRunPlan(2, 3, 2, 5);  // 12 cells
  const LaneDeal deal = DealPlanToLanes(plan, 2, {true, false, true});
  ASSERT_EQ(deal.lanes.size(), 2u);
  ASSERT_EQ(deal.alone.size(), 4u);  // variant 1 of 2 configurations × 2 repetitions
  for (size_t n = 0; n < deal.alone.size(); ++n) {
    EXPECT_EQ(plan[deal.alone[n]].variant_index, 1u);
    if (n > 0) {
      EXPECT_LT(deal.alone[n - 1], deal.alone[n]);
    }
  }
  // Blocks of the remaining two variants, round robin: 4 blocks, 2 a lane.
  for (const auto& lane : deal.lanes) {
    ASSERT_EQ(lane.size(), 4u);
    for (size_t n = 0; n < lane.size(); n += 2) {
      EXPECT_EQ(plan[lane[n]].variant_index, 0u);
      EXPECT_EQ(plan[lane[n + 1]].variant_index, 2u);
      EXPECT_EQ(plan[lane[n]].config_index, plan[lane[n + 1]].config_index);
    }
  }
  EXPECT_EQ(deal.lanes[0].front(), 0u);
  EXPECT_EQ(deal.lanes[1].front(), 3u);  // the second block starts after the first's 3 cells
  // Nothing set apart when every variant takes lanes, or none is said to refuse.
  EXPECT_TRUE(DealPlanToLanes(plan, 2, {}).alone.empty());
  EXPECT_EQ(DealPlanToLanes(plan, 2, {}).lanes, DealPlanToLanes(plan, 2));
}

CellRecord LaneCell(int lane, size_t plan_index, size_t records) {
  CellRecord c;
  c.identifier = "id" + std::to_string(plan_index);
  c.status = "ok";
  c.lane = lane;
  c.plan_index = plan_index;
  c.record_count = records;
  return c;
}

TEST(LanesMergeTest, CellsAndRecordsInPlanOrder) {
  std::vector<ResultsDocument> lanes(2);
  lanes[0].cells = {LaneCell(0, 0, 1), LaneCell(0, 3, 2)};
  lanes[0].records = {{{"identifier", "a"}, {"n", 0}},
                      {{"identifier", "a"}, {"n", 3}},
                      {{"identifier", "a"}, {"n", 3}}};
  lanes[0].complete = true;
  lanes[0].setup = {{"files", 2}};
  lanes[1].cells = {LaneCell(1, 1, 1), LaneCell(1, 2, 0)};
  lanes[1].cells[1].status = "failed";
  lanes[1].records = {{{"identifier", "b"}, {"n", 1}}};
  lanes[1].complete = true;
  ResultsDocument merged;
  std::string err;
  ASSERT_TRUE(MergeLaneDocuments(lanes, &merged, &err)) << err;
  ASSERT_EQ(merged.cells.size(), 4u);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(merged.cells[i].plan_index, i);
  EXPECT_EQ(merged.cells[1].lane, 1);
  std::vector<int> order;
  for (const auto& r : merged.records) order.push_back(r["n"].get<int>());
  EXPECT_EQ(order, (std::vector<int>{0, 1, 3, 3}));
  EXPECT_TRUE(merged.complete);
  EXPECT_EQ(merged.setup, lanes[0].setup);
  // A session of only some parts set up only those: the set-ups' members are joined.
  lanes[1].setup = {{"files", 9}, {"probes", {{"tree", 1}}}};
  ASSERT_TRUE(MergeLaneDocuments(lanes, &merged, &err)) << err;
  EXPECT_EQ(merged.setup, (nlohmann::json{{"files", 2}, {"probes", {{"tree", 1}}}}));
  lanes[1].complete = false;  // an interrupted lane
  ASSERT_TRUE(MergeLaneDocuments(lanes, &merged, &err)) << err;
  EXPECT_FALSE(merged.complete);
  lanes[1].records.push_back({{"identifier", "b"}});  // a record no cell claims
  EXPECT_FALSE(MergeLaneDocuments(lanes, &merged, &err));
  EXPECT_EQ(err, "lane 1: 1 record(s) belong to no cell");
}

// Issue 57 §3, issue 60: a cell's kernel and configuration label, and its records', are carried
// through the lanes' merge as they are.
TEST(LanesMergeTest, TheKernelFieldIsKept) {
  std::vector<ResultsDocument> lanes(2);
  const RowKernel kernel{"61", "6.1.0-50-cloud-amd64", "debian"};
  lanes[0].cells = {LaneCell(0, 0, 1)};
  lanes[0].cells[0].kernel = kernel;
  lanes[0].cells[0].configuration_label = "DL";
  lanes[0].records = {
      {{"identifier", "a"}, {"kernel", RowKernelToJson(kernel)}, {"configuration_label", "DL"}}};
  lanes[1].cells = {LaneCell(1, 1, 0)};
  ResultsDocument merged;
  std::string err;
  ASSERT_TRUE(MergeLaneDocuments(lanes, &merged, &err)) << err;
  ASSERT_EQ(merged.cells.size(), 2u);
  EXPECT_EQ(merged.cells[0].kernel, kernel);
  EXPECT_EQ(merged.cells[0].configuration_label, "DL");
  EXPECT_TRUE(merged.cells[1].kernel.empty());
  EXPECT_EQ(merged.records.at(0)["kernel"], RowKernelToJson(kernel));
  EXPECT_EQ(merged.records.at(0)["configuration_label"], "DL");
}

TEST(LanesMergeTest, LaneFieldsRoundTripThroughTheResultsFile) {
  ResultsDocument doc;
  doc.suite = "tiobench";
  doc.cells = {LaneCell(1, 5, 2)};
  doc.cells[0].variant = {{"threads", 4}};
  std::string err;
  ResultsDocument back;
  ASSERT_TRUE(ResultsFromJson(ResultsToJson(doc), &back, &err)) << err;
  ASSERT_EQ(back.cells.size(), 1u);
  EXPECT_EQ(back.cells[0].lane, 1);
  EXPECT_EQ(back.cells[0].plan_index, 5u);
  EXPECT_EQ(back.cells[0].record_count, 2u);
  EXPECT_EQ(back.cells[0].variant, (nlohmann::json{{"threads", 4}}));
  doc.cells[0].lane = -1;  // a serial cell writes none of the lane fields
  const nlohmann::json serial = ResultsToJson(doc);
  EXPECT_FALSE(serial["cells"][0].contains("lane"));
  EXPECT_FALSE(serial["cells"][0].contains("plan_index"));
}

TEST(BdiLimitsTest, EachLaneGetsTheWholeLimitOfOneDisk) {
  const uint64_t dirty = 48ULL << 20, background = 16ULL << 20;
  for (int lanes : {1, 2, 3, 4}) {
    const LaneWriteback w = LaneWritebackLimits(dirty, background, lanes);
    EXPECT_EQ(w.ratio_fine, 980000u / static_cast<uint64_t>(lanes));
    EXPECT_GE(w.lane_dirty_bytes, dirty);
    EXPECT_LT(w.lane_dirty_bytes, dirty + (64u << 10));
    EXPECT_GE(w.lane_background_bytes, background);
    EXPECT_LT(w.lane_background_bytes, background + (64u << 10));
    ASSERT_EQ(w.vm.size(), 2u);
    const uint64_t global = std::stoull(w.vm[0].second);
    EXPECT_EQ(global % 4096, 0u);
    // The lanes' shares fit in the global limit (98 % of it together).
    EXPECT_LE(w.lane_dirty_bytes * static_cast<uint64_t>(lanes), global);
    EXPECT_EQ(w.vm[0].first, "/proc/sys/vm/dirty_bytes");
    EXPECT_EQ(w.vm[1].first, "/proc/sys/vm/dirty_background_bytes");
  }
}

void PutFile(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

std::string GetFile(const std::string& path) {
  std::ifstream in(path);
  std::string s;
  std::getline(in, s);
  return s;
}

TEST(BdiLimitsTest, JournaledAndRestoredNewestFirst) {
  testing::ScopedTempDir dir;
  const std::string root = dir.path() + "/root";
  PutFile(root + "/sys/block/loop9/dev", "7:9\n");
  const std::string bdi = root + "/sys/class/bdi/7:9";
  PutFile(bdi + "/max_ratio_fine", "1000000\n");
  PutFile(bdi + "/min_ratio_fine", "0\n");
  PutFile(bdi + "/strict_limit", "0\n");
  Sysfs sysfs(root);
  RestoreJournal journal(sysfs);
  std::string err, path;
  ASSERT_TRUE(journal.Open(dir.path() + "/state", "test", &err)) << err;
  ASSERT_TRUE(BdiPathOfDisk(sysfs, "loop9", &path, &err)) << err;
  EXPECT_EQ(path, "/sys/class/bdi/7:9");
  ASSERT_TRUE(ApplyBdiLimits(sysfs, &journal, path, 490000, &err)) << err;
  EXPECT_EQ(GetFile(bdi + "/max_ratio_fine"), "490000");
  EXPECT_EQ(GetFile(bdi + "/min_ratio_fine"), "490000");
  EXPECT_EQ(GetFile(bdi + "/strict_limit"), "1");
  std::vector<std::string> journaled;
  for (const JournalEntry& e : journal.entries()) journaled.push_back(e.path);
  EXPECT_EQ(journaled, (std::vector<std::string>{path + "/max_ratio_fine", path + "/min_ratio_fine",
                                                 path + "/strict_limit"}));
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
  EXPECT_EQ(GetFile(bdi + "/max_ratio_fine"), "1000000");
  EXPECT_EQ(GetFile(bdi + "/min_ratio_fine"), "0");
  EXPECT_EQ(GetFile(bdi + "/strict_limit"), "0");
}

TEST(BdiLimitsTest, AKernelWithoutThemIsNamed) {
  testing::ScopedTempDir dir;
  const std::string root = dir.path() + "/root";
  PutFile(root + "/sys/class/bdi/7:9/max_ratio", "100\n");
  Sysfs sysfs(root);
  RestoreJournal journal(sysfs);
  std::string err;
  ASSERT_TRUE(journal.Open(dir.path() + "/state", "test", &err)) << err;
  EXPECT_FALSE(ApplyBdiLimits(sysfs, &journal, "/sys/class/bdi/7:9", 490000, &err));
  EXPECT_NE(err.find("Linux 6.2 or later"), std::string::npos) << err;
  EXPECT_TRUE(journal.entries().empty());
  std::vector<std::string> log;
  ASSERT_TRUE(journal.RestoreAll(&log, &err)) << err;
}

}  // namespace
}  // namespace elevbench
