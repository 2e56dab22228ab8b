// Plug merging and the dependency of each I/O on the completion that woke it, its predecessor's or
// another process's (the dependent replayer's timing).

#include "scenarios/replay/replay_ios.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

// A bio without a recorded latency gives its successor no completion to follow: it is timed.
TEST(ReplayIosTest, PlugMergingKeepsTheLastCompletionAndUnknownLatencyMeansTimed) {
  const BlockTraceRecord a{0, 1, "a", BlockTraceOp::kRead, 0, 100, 8, 3000000};
  const BlockTraceRecord b{50000, 1, "a", BlockTraceOp::kRead, 0, 108, 8, 4000000};
  const BlockTraceRecord c{9000000, 1, "a", BlockTraceOp::kRead, 0, 500, 8, -1};
  const BlockTraceRecord d{9500000, 1, "a", BlockTraceOp::kRead, 0, 900, 8, 1000000};
  const std::vector<ReplayIo> ios = PlugMergedIos({&a, &b, &c, &d});
  ASSERT_EQ(ios.size(), 3u);
  EXPECT_EQ(ios[0].records, 2u);
  EXPECT_EQ(ios[0].done_ns, 4050000);  // the later of the two completions
  EXPECT_EQ(ios[1].done_ns, -1);
  EXPECT_FALSE(DependencyOf(ios, 0).after_previous);
  const ReplayDependency second = DependencyOf(ios, 1);
  EXPECT_TRUE(second.after_previous);
  EXPECT_EQ(second.think_ns, 9000000u - 4050000u);
  EXPECT_FALSE(DependencyOf(ios, 2).after_previous);  // its predecessor's completion is unknown
}

using Op = BlockTraceOp;

// One I/O of one bio: queued at `at_ns`, its latency `latency_ns` (-1: not recorded).
ReplayIo IoAt(uint64_t at_ns, int64_t latency_ns, Op op = Op::kWrite) {
  return {at_ns, latency_ns < 0 ? -1 : static_cast<int64_t>(at_ns) + latency_ns, op, 0, 0, 8, 1};
}

// #31 §2: an fsync'ing writer's data write completes at 5 ms; jbd2 queues its commit 0.5 ms
// later and the writer its next write 0.6 ms after the commit completed. The syncfs caller's
// flush 0.7 ms after the flusher's last write. Each waits for that completion, not the clock.
TEST(ReplayIosTest, AnIoQueuedJustAfterAnotherProcesssCompletionWaitsForIt) {
  const std::vector<std::vector<ReplayIo>> processes = {
      {IoAt(1000000, 4000000), IoAt(9100000, 3000000)},    // the writer: done 5 ms, then 9.1 ms
      {IoAt(5500000, 3000000)},                            // jbd2: done 8.5 ms
      {IoAt(20000000, 5000000), IoAt(20100000, 6000000)},  // the flusher: done 25, 26.1 ms
      {IoAt(26800000, -1, Op::kFlush)},                    // the syncfs caller
  };
  const auto deps = InferDependencies(processes, kReplayWakeWindowNs);
  ASSERT_EQ(deps.size(), 4u);
  EXPECT_FALSE(deps[0][0].after_completion || deps[0][0].after_previous);  // nothing before
  // The writer's second write: after jbd2's commit (8.5 ms), not its own first (5 ms).
  EXPECT_TRUE(deps[0][1].after_completion);
  EXPECT_EQ(deps[0][1].of, (ReplayIoRef{1, 0}));
  EXPECT_EQ(deps[0][1].think_ns, 600000u);
  EXPECT_TRUE(deps[1][0].after_completion);
  EXPECT_EQ(deps[1][0].of, (ReplayIoRef{0, 0}));
  EXPECT_EQ(deps[1][0].think_ns, 500000u);
  // The flusher's first write: 8 ms after the last completion, at its time.
  EXPECT_FALSE(deps[2][0].after_completion || deps[2][0].after_previous);
  EXPECT_TRUE(deps[3][0].after_completion);
  EXPECT_EQ(deps[3][0].of, (ReplayIoRef{2, 1}));
  EXPECT_EQ(deps[3][0].think_ns, 700000u);
}

// The window's edge is inclusive; the predecessor's completion within it is after_previous; an
// earlier completion of the process's own (a writer that found no free tag until its I/O before
// the predecessor completed) is waited for like another process's; a completion outside the
// window leaves DependencyOf's answer (after the predecessor with its think, or the clock).
TEST(ReplayIosTest, TheLatestCompletionWithinTheWindowElseThePredecessorOrTheClock) {
  const std::vector<std::vector<ReplayIo>> processes = {
      {IoAt(0, 2000000), IoAt(3000000, 1000000)},  // done 2 ms, queued at 2 + 1 ms
      {IoAt(10000000, 5000000), IoAt(10100000, 9000000), IoAt(15000010, 1000000)},
      {IoAt(30000000, 1000000), IoAt(40000000, 1000000)},  // 9 ms of thought
      {IoAt(17500000, 0)},  // 1.5 ms after the last completion (16.00001 ms)
  };
  const auto deps = InferDependencies(processes, 1000000);
  EXPECT_TRUE(deps[0][1].after_previous);  // exactly the window after its predecessor
  EXPECT_FALSE(deps[0][1].after_completion);
  EXPECT_EQ(deps[0][1].think_ns, 1000000u);
  EXPECT_TRUE(deps[1][2].after_completion);  // 10 µs after its own first I/O completed
  EXPECT_EQ(deps[1][2].of, (ReplayIoRef{1, 0}));
  EXPECT_EQ(deps[1][2].think_ns, 10u);
  EXPECT_TRUE(deps[2][1].after_previous);  // beyond the window: after its predecessor, 9 ms
  EXPECT_EQ(deps[2][1].think_ns, 9000000u);
  EXPECT_FALSE(deps[2][0].after_completion || deps[2][0].after_previous);  // 10.9 ms: the clock
  EXPECT_FALSE(deps[3][0].after_completion || deps[3][0].after_previous);
}

// #44: an I/O queued while its predecessor was in flight, with no completion within the window
// before it (a reader's readahead, two windows in flight; measured on the cat-beside-dd capture,
// docs/replay-measurements.md), waits for its own process's latest completion before it: on the clock it
// would hold the whole process to the capture's pace under a faster scheduler.
TEST(ReplayIosTest, AnIoQueuedWhileItsPredecessorWasInFlightFollowsItsOwnLatestCompletion) {
  const std::vector<std::vector<ReplayIo>> processes = {
      {IoAt(0, 10000000), IoAt(8000000, 32000000), IoAt(25000000, 35000000)},
  };
  const auto deps = InferDependencies(processes, 1000000);
  EXPECT_FALSE(deps[0][1].after_completion || deps[0][1].after_previous);  // nothing done yet
  EXPECT_TRUE(deps[0][2].after_completion);  // its predecessor in flight: after I/O 0, 15 ms
  EXPECT_EQ(deps[0][2].of, (ReplayIoRef{0, 0}));
  EXPECT_EQ(deps[0][2].think_ns, 15000000u);
}

// Whatever the trace, every dependency points to an I/O queued strictly earlier and completed
// no later than the waiter was queued: the waits (with each process's order) have no cycle.
TEST(ReplayIosTest, EveryDependencyPointsToAnEarlierQueuedIo) {
  std::vector<std::vector<ReplayIo>> processes(4);
  uint64_t seed = 12345;
  auto next = [&seed](uint64_t mod) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return (seed >> 33) % mod;
  };
  for (uint64_t t = 0, i = 0; i < 400; ++i) {
    t += next(1500000);
    const auto latency =
        static_cast<int64_t>(next(8)) == 0 ? -1 : static_cast<int64_t>(next(9000000));
    processes[next(4)].push_back(IoAt(t, latency));
  }
  const auto deps = InferDependencies(processes, kReplayWakeWindowNs);
  size_t woken = 0;
  for (size_t p = 0; p < processes.size(); ++p) {
    for (size_t i = 0; i < processes[p].size(); ++i) {
      if (!deps[p][i].after_completion) continue;
      ++woken;
      const ReplayIo& of = processes[deps[p][i].of.process][deps[p][i].of.io];
      EXPECT_LT(of.time_ns, processes[p][i].time_ns);
      EXPECT_LE(static_cast<uint64_t>(of.done_ns), processes[p][i].time_ns);
      EXPECT_EQ(of.done_ns + static_cast<int64_t>(deps[p][i].think_ns),
                static_cast<int64_t>(processes[p][i].time_ns));
    }
  }
  EXPECT_GT(woken, 20u);  // the test exercises the rule
}

// #31 §2: the trace records no flush's completion, but a process that flushed (fsync, syncfs)
// waited for it: its next I/O follows the flush's completion in the replay (think unknown: 0),
// even with another process's completion just before it.
TEST(ReplayIosTest, AnIoAfterItsProcesssFlushWaitsForTheFlush) {
  const std::vector<std::vector<ReplayIo>> processes = {
      {IoAt(1000000, 2000000), IoAt(3100000, -1, Op::kFlush), IoAt(20000000, 1000000)},
      {IoAt(15000000, 4500000)},  // done 19.5 ms, 0.5 ms before the writer's next write
  };
  EXPECT_TRUE(DependencyOf(processes[0], 2).after_previous);
  EXPECT_EQ(DependencyOf(processes[0], 2).think_ns, 0u);
  const auto deps = InferDependencies(processes, kReplayWakeWindowNs);
  EXPECT_TRUE(deps[0][1].after_previous);  // the flush: 0.1 ms after the write it follows
  EXPECT_EQ(deps[0][1].think_ns, 100000u);
  EXPECT_TRUE(deps[0][2].after_previous);
  EXPECT_FALSE(deps[0][2].after_completion);
  EXPECT_EQ(deps[0][2].think_ns, 0u);
}

}  // namespace
}  // namespace elevbench
