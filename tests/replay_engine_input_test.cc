// The dependent replayer's input and result files: refused with the place of the fault, read back
// exactly.

#include "scenarios/replay/replay_engine_input.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(ReplayEngineInputTest, BadInputIsRefusedWithItsPlace) {
  const struct {
    const char* json;
    const char* needle;
  } kCases[] = {
      {R"([])", "expected an object"},
      {R"({"writes": false, "jobs": []})", "device: missing"},
      {R"({"device": "/dev/x", "writes": false, "jobs": [{"name": "a", "depth": 0, "steps": []}]})",
       "jobs[0].depth"},
      {R"({"device": "/dev/x", "writes": false,
           "jobs": [{"name": "a", "depth": 1, "steps": [["read", 0, 512, 2, 0]]}]})",
       "jobs[0].steps[0]: expected"},
      {R"({"device": "/dev/x", "writes": false,
           "jobs": [{"name": "a", "depth": 1, "steps": [["seek", 0, 512, 0, 0]]}]})",
       "jobs[0].steps[0]: expected"},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.json);
    ReplayEngineInput input;
    std::string err;
    EXPECT_FALSE(ReplayEngineInputFromJson(nlohmann::json::parse(c.json), &input, &err));
    EXPECT_NE(err.find(c.needle), std::string::npos) << err;
  }
  ReplayEngineResult result;
  result.seconds = 0.25;
  result.jobs.push_back(JobResult{});
  result.jobs[0].name = "p42_cat";
  result.jobs[0].read.bytes = 8192;
  result.jobs[0].read.ios = 2;
  result.jobs[0].read.clat.Record(6000000);
  result.journal_wait_seconds = 0.5;
  ReplayEngineResult back;
  std::string err;
  ASSERT_TRUE(ReplayEngineResultFromJson(ReplayEngineResultToJson(result), &back, &err)) << err;
  EXPECT_EQ(back.seconds, 0.25);
  EXPECT_EQ(back.journal_wait_seconds, 0.5);
  nlohmann::json older = ReplayEngineResultToJson(result);  // before the waits were counted
  older.erase("journal_wait_seconds");
  ASSERT_TRUE(ReplayEngineResultFromJson(older, &back, &err)) << err;
  EXPECT_EQ(back.journal_wait_seconds, 0);
  ASSERT_EQ(back.jobs.size(), 1u);
  EXPECT_EQ(back.jobs[0].name, "p42_cat");
  EXPECT_EQ(back.jobs[0].read.clat, result.jobs[0].read.clat);
}

}  // namespace
}  // namespace elevbench
