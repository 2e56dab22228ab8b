// System calls under a deadline: the result of a call that returns, and a call that never does
// broken (the stuck-I/O breaker runs) and then abandoned, within its limits.

#include "harness/process/bounded_call.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>

#include "harness/core/stuck_io.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(BoundedCallTest, AReturningCallGivesItsResult) {
  int call_error = -1;
  std::string err;
  ASSERT_TRUE(RunBounded(
      "nothing", [] { return 0; }, {}, &call_error, &err))
      << err;
  EXPECT_EQ(call_error, 0);
  ASSERT_TRUE(RunBounded(
      "a failure", [] { return EBUSY; }, {}, &call_error, &err))
      << err;
  EXPECT_EQ(call_error, EBUSY);
}

TEST(BoundedCallTest, ACallThatNeverReturnsIsBrokenThenAbandonedInTime) {
  int broke = 0;
  ScopedStuckIoBreaker breaker([&] {
    ++broke;
    return std::string("aborted nothing (a test)");
  });
  BoundedCallLimits limits;
  limits.deadline_seconds = 0.2;
  limits.after_break_seconds = 0.2;
  int call_error = -1;
  std::string err;
  ::testing::internal::CaptureStderr();
  const auto start = std::chrono::steady_clock::now();
  // pause() sleeps interruptibly, so the final SIGKILL ends it: the call is abandoned as one in
  // an uninterruptible wait would be, but leaves no process behind.
  EXPECT_FALSE(RunBounded(
      "pause", [] { return pause(); }, limits, &call_error, &err));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(broke, 1);
  EXPECT_NE(said.find("elevbench: pause did not finish within 0 s: aborted nothing"),
            std::string::npos)
      << said;
  EXPECT_EQ(err, "pause was killed by signal 9");
  EXPECT_LT(seconds, 3);
}

TEST(BoundedCallTest, AProbeDoesNotBreakStuckIo) {
  int broke = 0;
  ScopedStuckIoBreaker breaker([&] {
    ++broke;
    return std::string("x");
  });
  BoundedCallLimits limits;
  limits.deadline_seconds = 0.1;
  limits.break_stuck_io = false;
  int call_error = 0;
  std::string err;
  EXPECT_FALSE(RunBounded(
      "pause", [] { return pause(); }, limits, &call_error, &err));
  EXPECT_EQ(broke, 0);
}

// A call that outlives a SIGKILLed caller (a syncfs in an uninterruptible wait) must not hold the
// caller's descriptors: the run's journal lock among them would make `restore` refuse.
TEST(BoundedCallTest, TheCallHoldsNoneOfTheCallersDescriptors) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);  // not CLOEXEC: a plain fork would keep both
  const int probe = fds[1];
  int call_error = -1;
  std::string err;
  ASSERT_TRUE(RunBounded(
      "fcntl", [probe] { return fcntl(probe, F_GETFD) == -1 && errno == EBADF ? 0 : EEXIST; }, {},
      &call_error, &err))
      << err;
  EXPECT_EQ(call_error, 0) << "the caller's descriptor " << probe << " reached the call";
  close(fds[0]);
  close(fds[1]);
}

TEST(BoundedCallTest, SyncsADirectorysFilesystemAndNamesAMissingPath) {
  testing::ScopedTempDir dir;
  std::string err;
  EXPECT_TRUE(SyncPathBounded(dir.path(), {}, &err)) << err;
  EXPECT_FALSE(SyncPathBounded(dir.path() + "/missing", {}, &err));
  EXPECT_NE(err.find(dir.path() + "/missing"), std::string::npos) << err;
}

TEST(BoundedCallTest, UnmountOfANonMountpointSaysEinval) {
  testing::ScopedTempDir dir;
  int call_error = 0;
  std::string err;
  ASSERT_TRUE(UnmountBounded(dir.path(), 0, {}, &call_error, &err)) << err;
  EXPECT_TRUE(call_error == EINVAL || call_error == EPERM) << call_error;
}

}  // namespace
}  // namespace elevbench
