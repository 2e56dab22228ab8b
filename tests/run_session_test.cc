#include "harness/run/run_session.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(RunSessionTest, CounterDeltaDiffersMonotonicCountersOnly) {
  nlohmann::json before = {{"requests", 10},
                           {"busy_ns", 1000},
                           {"max_queue_depth", 3},
                           {"profile", {{"name", "ide-2003"}}}};
  nlohmann::json after = {{"requests", 25},
                          {"busy_ns", 4000},
                          {"max_queue_depth", 3},
                          {"profile", {{"name", "ide-2003"}}}};
  nlohmann::json d = CounterDelta(before, after);
  EXPECT_EQ(d["requests"], 15);
  EXPECT_EQ(d["busy_ns"], 3000);
  EXPECT_EQ(d["max_queue_depth"], 3);  // a running maximum is not differenced
  EXPECT_EQ(d["profile"]["name"], "ide-2003");
}

TEST(RunSessionTest, CounterDeltaWithoutBeforeSaysSo) {
  nlohmann::json d = CounterDelta(nullptr, {{"requests", 5}});
  EXPECT_EQ(d["totals_since_daemon_start"]["requests"], 5);
}

}  // namespace
}  // namespace elevbench
