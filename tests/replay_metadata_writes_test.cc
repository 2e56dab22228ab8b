// A reader's step after a journal handle waits for the metadata writes in flight when it became
// ready, not for those issued after (replay_metadata_writes.h).

#include "scenarios/replay/replay_metadata_writes.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(MetadataWritesInFlightTest, AStepWaitsForTheWritesInFlightWhenItBecameReady) {
  MetadataWritesInFlight writes;
  EXPECT_TRUE(writes.DrainedBefore(writes.Next()));  // none in flight: no wait
  const uint64_t first = writes.Issued();
  const uint64_t second = writes.Issued();
  const uint64_t bound = writes.Next();  // a step becomes ready with two in flight
  EXPECT_FALSE(writes.DrainedBefore(bound));
  const uint64_t later = writes.Issued();  // issued while the step waits
  writes.Completed(second);                // out of order
  EXPECT_FALSE(writes.DrainedBefore(bound));
  writes.Completed(first);
  EXPECT_TRUE(writes.DrainedBefore(bound)) << "the later write is not the step's";
  EXPECT_FALSE(writes.DrainedBefore(writes.Next()));  // a step ready now waits for it
  writes.Completed(later);
  EXPECT_TRUE(writes.DrainedBefore(writes.Next()));
}

}  // namespace
}  // namespace elevbench
