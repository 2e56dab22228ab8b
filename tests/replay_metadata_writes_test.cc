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

// A step that knows the buffers its handles changed waits for the writes of those (any overlap)
// and for the journal's log writes (which may carry their copy), not for other home writes.
TEST(MetadataWritesInFlightTest, AStepWithKnownBuffersWaitsForThoseAndTheLogOnly) {
  MetadataWritesInFlight writes;
  const uint64_t other = writes.Issued(1 << 20, 4096, false);
  const std::vector<ReplayBuffer> inode_block = {{65536, 4096}};
  EXPECT_TRUE(writes.DrainedBefore(writes.Next(), inode_block));
  EXPECT_FALSE(writes.DrainedBefore(writes.Next())) << "without buffers: every write";
  const uint64_t home = writes.Issued(61440, 8192, false);  // covers 61440..69631
  EXPECT_FALSE(writes.DrainedBefore(writes.Next(), inode_block));
  writes.Completed(home);
  EXPECT_TRUE(writes.DrainedBefore(writes.Next(), inode_block));
  const uint64_t log = writes.Issued(900 << 20, 4096, true);
  EXPECT_FALSE(writes.DrainedBefore(writes.Next(), inode_block));
  const uint64_t bound = writes.Next();
  writes.Issued(65536, 4096, false);  // after the step became ready: not one it waits for
  writes.Completed(log);
  EXPECT_TRUE(writes.DrainedBefore(bound, inode_block));
  writes.Completed(other);
  EXPECT_FALSE(writes.DrainedBefore(writes.Next(), inode_block));
}

}  // namespace
}  // namespace elevbench
