// The dependent replayer's shared completion table: a thread waiting for another job's step is
// woken through its eventfd when that step's completion is published, and only the waiters are.

#include "scenarios/replay/replay_completions.h"

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <thread>

namespace elevbench {
namespace {

// Whether job's eventfd becomes readable within `ms`; drains it.
bool WokenWithin(const ReplayCompletions& c, uint32_t job, int ms) {
  pollfd p{c.EventFd(job), POLLIN, 0};
  const bool woken = poll(&p, 1, ms) == 1;
  uint64_t count = 0;
  const ssize_t n = read(p.fd, &count, sizeof count);
  (void)n;
  return woken;
}

TEST(ReplayCompletionsTest, AWaiterIsWokenByAnotherThreadsCompletion) {
  ReplayEngineInput input;
  input.jobs.resize(3);
  input.jobs[0].steps.resize(2);
  input.jobs[1].steps.resize(1);
  input.jobs[1].steps[0].after_job = 0;  // job 1 waits for job 0's step 1
  input.jobs[1].steps[0].after_step = 1;
  input.jobs[2].steps.resize(1);
  ReplayCompletions c;
  std::string err;
  ASSERT_TRUE(c.Init(input, &err)) << err;
  EXPECT_EQ(c.DoneNs(0, 1), -1);
  c.Publish(0, 0, 5);  // awaited by nobody
  EXPECT_FALSE(WokenWithin(c, 1, 0));
  std::thread completer([&c] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    c.Publish(0, 1, 42);
  });
  // The waiter's loop: read the time, sleep on the eventfd (bounded), read again.
  int64_t done = -1;
  for (int tries = 0; tries < 100 && done < 0; ++tries) {
    done = c.DoneNs(0, 1);
    if (done < 0) WokenWithin(c, 1, 100);
  }
  completer.join();
  EXPECT_EQ(done, 42);
  EXPECT_EQ(c.DoneNs(0, 0), 5);
  EXPECT_FALSE(WokenWithin(c, 2, 0));  // job 2 waited for nothing: never woken
  c.WakeAll();                         // a job failed: everyone looks again
  EXPECT_TRUE(WokenWithin(c, 2, 0));
  EXPECT_TRUE(WokenWithin(c, 0, 0));
}

}  // namespace
}  // namespace elevbench
