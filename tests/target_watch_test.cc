// The watch that stops a run whose device was lost under it (issue #18).

#include "harness/run/target_watch.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace elevbench {
namespace {

TEST(TargetWatchTest, CallsOnLostOnceSoonAfterTheTargetIsLost) {
  std::atomic<bool> gone{false};
  std::atomic<int> calls{0};
  std::atomic<int> stops{0};
  TargetWatch watch(
      [&](std::string* why) {
        ++calls;
        if (gone) *why = "the emulated disk daemon died (signal 9)";
        return gone.load();
      },
      [&](const std::string& why) {
        EXPECT_EQ(why, "the emulated disk daemon died (signal 9)");
        ++stops;
      },
      std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(60));
  EXPECT_FALSE(watch.Lost(nullptr));
  EXPECT_EQ(stops, 0);
  gone = true;
  for (int i = 0; i < 200 && stops == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(stops, 1);
  std::string why;
  EXPECT_TRUE(watch.Lost(&why));
  EXPECT_EQ(why, "the emulated disk daemon died (signal 9)");
  const int seen = calls;
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(calls, seen) << "the watch asks no more once the target is lost";
}

TEST(TargetWatchTest, WithoutAQuestionItWatchesNothingAndStopsAtOnce) {
  TargetWatch watch(
      nullptr, [](const std::string&) { FAIL() << "nothing to lose"; },
      std::chrono::milliseconds(1));
  EXPECT_FALSE(watch.Lost(nullptr));
}

}  // namespace
}  // namespace elevbench
