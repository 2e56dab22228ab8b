// The HTML report's plots of the request tracer's numbers (reporters/trace_plots.h): made only
// when cells were traced, three per variant row and direction, their gnuplot scripts golden.

#include "reporters/trace_plots.h"

#include <gtest/gtest.h>

#include <map>

#include "reporters/plots.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(TracePlotsTest, ThreePlotsPerRowAndDirectionOfTheTracedCells) {
  const NamedResults file =
      testing::Measured(testing::LoadNamedResults("fixtures/report_nickbench_traced.json"));
  std::vector<Plot> plots;
  AddRequestTracePlots(file.plots.trace_groups, &plots);
  std::map<std::string, size_t> kinds;
  std::string scripts;
  for (const Plot& p : plots) {
    ++kinds[p.kind];
    EXPECT_FALSE(p.script.empty()) << p.title;
    EXPECT_NE(p.script.find("6.18.44-dl"), std::string::npos) << p.kind;
    scripts += "# " + p.kind + ": " + p.title + "\n" + p.script + "\n";
  }
  // bench=3 has reads and (a few) writes.
  EXPECT_EQ(kinds, (std::map<std::string, size_t>{
                       {"trace-time", 2}, {"dispatch-runs", 2}, {"seek-cdf", 2}}));
  EXPECT_NE(plots[0].title.find("bench=3: read requests"), std::string::npos) << plots[0].title;
  testing::ExpectMatchesGolden("report_nickbench_traced_plots.gp", scripts);

  // PlotsOf puts them after the suite's own plots.
  const std::vector<Plot> all = PlotsOf(file);
  ASSERT_GE(all.size(), plots.size());
  EXPECT_EQ(all[all.size() - plots.size()].kind, "trace-time");
}

TEST(TracePlotsTest, NoTraceNoPlots) {
  std::vector<Plot> plots;
  AddRequestTracePlots(
      TraceGroupsOf(testing::LoadNamedResults("fixtures/report_nickbench_5cfg.json").doc), &plots);
  EXPECT_TRUE(plots.empty());
}

}  // namespace
}  // namespace elevbench
