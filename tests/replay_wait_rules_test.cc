// The dependent replayer's wait rules as parts (replay_wait_rules.h): each rule reads its own
// marks from the engine's input, holds what it holds, and counts its own holds.

#include "scenarios/replay/replay_wait_rules.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

// A reader (job 0: step 1 after a journal handle) and a flusher (job 1: steps 0 and 1 metadata
// writes, step 2 a journal's log write).
ReplayEngineInput ReaderBesideAFlusher() {
  ReplayEngineInput input;
  input.jobs.resize(2);
  input.jobs[0].name = "p10_cat";
  input.jobs[0].steps.resize(3);
  input.jobs[0].journal_wait_steps = {1};
  input.jobs[1].name = "p20_kworker";
  input.jobs[1].steps.resize(3);
  input.jobs[1].metadata_write_steps = {0, 1};
  input.jobs[1].journal_log_steps = {2};
  return input;
}

TEST(ReplayWaitRulesTest, AStepAfterAHandleWaitsForTheMetadataWritesInFlightWhenItBecameReady) {
  const ReplayEngineInput input = ReaderBesideAFlusher();
  ReplayWaitRules rules(input);
  ReplayRuleWaiter reader(&rules);
  EXPECT_TRUE(reader.StepMayGo(0, 0, 0)) << "a step without a handle never waits";
  rules.Issued(1, 0);
  EXPECT_FALSE(reader.StepMayGo(0, 1, 1000));
  rules.Issued(1, 1);  // issued while it waits: not one it waits for
  rules.Completed(1, 0);
  EXPECT_TRUE(reader.StepMayGo(0, 1, 5000));
  rules.Completed(1, 1);
  const std::vector<ReplayWaitCount> counts = rules.Counts();
  ASSERT_EQ(counts.size(), 2u);
  EXPECT_EQ(counts[1].rule, "metadata_after_handle");
  EXPECT_EQ(counts[1].held, 1u);
  EXPECT_DOUBLE_EQ(counts[1].seconds, 4e-6);
  EXPECT_EQ(counts[0].held, 0u) << "the journal's rule holds no step";
}

TEST(ReplayWaitRulesTest, AJournalsLogWriteHoldsTheWritersAndNoStep) {
  const ReplayEngineInput input = ReaderBesideAFlusher();
  ReplayWaitRules rules(input);
  ReplayRuleWaiter writer(&rules), reader(&rules);
  rules.Issued(1, 1);  // a metadata write, not a log write
  EXPECT_TRUE(writer.WriterMayGo(0));
  rules.Issued(1, 2);
  EXPECT_FALSE(writer.WriterMayGo(10));
  EXPECT_TRUE(reader.StepMayGo(0, 2, 10));
  rules.Completed(1, 2);
  EXPECT_TRUE(writer.WriterMayGo(2010));
  const ReplayWaitCount journal = rules.Counts()[0];
  EXPECT_EQ(journal.rule, "journal_log");
  EXPECT_EQ(journal.held, 1u);
  EXPECT_DOUBLE_EQ(journal.seconds, 2e-6);
}

// Marks past a job's steps (a hand-edited input) are ignored, not read out of bounds.
TEST(ReplayWaitRulesTest, MarksOutsideAJobsStepsHoldNothing) {
  ReplayEngineInput input = ReaderBesideAFlusher();
  input.jobs[0].journal_wait_steps = {7};
  input.jobs[1].journal_log_steps = {9};
  ReplayWaitRules rules(input);
  ReplayRuleWaiter waiter(&rules);
  rules.Issued(1, 9);
  rules.Issued(5, 0);
  EXPECT_TRUE(waiter.WriterMayGo(0));
  EXPECT_TRUE(waiter.StepMayGo(0, 7, 0));
}

// A step whose handle's buffer is known waits for the writes of that buffer and the journal's
// log writes in flight, not for the flusher's writes of other blocks.
TEST(ReplayWaitRulesTest, AStepWithAKnownBufferWaitsForItsWritesAndTheLogOnly) {
  ReplayEngineInput input = ReaderBesideAFlusher();
  input.jobs[1].steps[0] = {BlockTraceOp::kWrite, 65536, 4096};    // the reader's inode block
  input.jobs[1].steps[1] = {BlockTraceOp::kWrite, 1 << 20, 4096};  // another block
  input.jobs[0].journal_wait_buffers = {{{65536, 4096}}};
  input.jobs.push_back({});
  input.jobs[2].name = "p9_jbd2";
  input.jobs[2].journal = true;
  input.jobs[2].steps = {{BlockTraceOp::kWrite, 900 << 20, 4096}};
  input.jobs[2].metadata_write_steps = {0};
  {
    ReplayWaitRules rules(input);
    ReplayRuleWaiter reader(&rules);
    rules.Issued(1, 1);
    EXPECT_TRUE(reader.StepMayGo(0, 1, 0)) << "another block's write";
  }
  {
    ReplayWaitRules rules(input);
    ReplayRuleWaiter reader(&rules);
    rules.Issued(1, 0);
    EXPECT_FALSE(reader.StepMayGo(0, 1, 10)) << "the reader's inode block in flight";
    rules.Completed(1, 0);
    EXPECT_TRUE(reader.StepMayGo(0, 1, 20));
  }
  ReplayWaitRules rules(input);
  ReplayRuleWaiter reader(&rules);
  rules.Issued(2, 0);
  EXPECT_FALSE(reader.StepMayGo(0, 1, 30)) << "the journal's log write may carry its copy";
  rules.Completed(2, 0);
  EXPECT_TRUE(reader.StepMayGo(0, 1, 40));
}

}  // namespace
}  // namespace elevbench
