// The stuck-I/O breakers: registered, run once per stuck wait, unregistered.

#include "harness/core/stuck_io.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(StuckIoTest, EveryRegisteredBreakerRunsAndOnlyThoseThatActedCount) {
  int acted = 0, idle = 0;
  const int token = RegisterStuckIoBreaker([&] {
    ++acted;
    return std::string("aborted the FUSE connection 45 of the emulated disk");
  });
  {
    ScopedStuckIoBreaker quiet([&] {
      ++idle;
      return std::string();
    });
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(BreakStuckIo("umount /x", 30), 1);
    const std::string said = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(said,
              "elevbench: umount /x did not finish within 30 s: aborted the FUSE connection 45 of "
              "the emulated disk\n");
  }
  EXPECT_EQ(acted, 1);
  EXPECT_EQ(idle, 1);
  UnregisterStuckIoBreaker(token);
  EXPECT_EQ(BreakStuckIo("umount /x", 30), 0);
  EXPECT_EQ(acted, 1) << "an unregistered breaker does not run";
  EXPECT_EQ(idle, 1);
}

TEST(StuckIoTest, ABreakerThatWaitsStuckDoesNotBreakAgain) {
  int depth = 0;
  ScopedStuckIoBreaker nested([&] {
    ++depth;
    EXPECT_EQ(BreakStuckIo("the breaker's own call", 5), 0) << "no recursion";
    return std::string("done");
  });
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(BreakStuckIo("syncfs /mnt", 120), 1);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(depth, 1);
}

}  // namespace
}  // namespace elevbench
