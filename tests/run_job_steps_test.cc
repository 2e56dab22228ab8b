// How a run ends (harness/run/run_job_steps.h): the session's error, failed cells, an
// incomplete restore. The steps themselves run in RunJob's tests and the root tests.

#include "harness/run/run_job_steps.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(RunJobStepsTest, TheEndOfARun) {
  RunOutcome outcome;
  std::string err = "stale";
  outcome.error = "the target was lost";
  EXPECT_EQ(RunEndFailure(outcome, true, "r.json", &err), RunFailure::kFailure);
  EXPECT_EQ(err, "the target was lost");
  outcome.finished = true;
  outcome.failed_cells = 2;
  EXPECT_EQ(RunEndFailure(outcome, true, "r.json", &err), RunFailure::kFailure);
  EXPECT_EQ(err, "2 cell(s) failed; see r.json");
  outcome.failed_cells = 0;
  EXPECT_EQ(RunEndFailure(outcome, false, "r.json", &err), RunFailure::kFailure);
  EXPECT_EQ(err, "");  // the job said why
  EXPECT_EQ(RunEndFailure(outcome, true, "r.json", &err), RunFailure::kNone);
  EXPECT_EQ(err, "");
}

}  // namespace
}  // namespace elevbench
