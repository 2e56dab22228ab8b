// The emulated disk's injected faults (issue #18): which requests fail, the overrides that set
// them, and the cause a failed cell's counters give.

#include "harness/disk/disk_faults.h"

#include <gtest/gtest.h>

#include "harness/disk/disk_counters.h"
#include "harness/disk/emulated_stack.h"

namespace elevbench {
namespace {

DiskProfile FaultyProfile(std::initializer_list<const char*> overrides) {
  DiskProfile p;
  std::string err;
  EXPECT_TRUE(LookupDiskProfile("ide-2003", &p, &err)) << err;
  for (const char* o : overrides) EXPECT_TRUE(ApplyDiskOverride(o, &p, &err)) << o << ": " << err;
  EXPECT_TRUE(ValidateDiskProfile(p, &err)) << err;
  return p;
}

TEST(DiskFaultsTest, NoFaultUnlessAskedFor) {
  DiskFaults faults(FaultyProfile({}));
  EXPECT_FALSE(faults.enabled());
  for (int i = 0; i < 1000; ++i) ASSERT_FALSE(faults.Fails(1 << 20));
}

TEST(DiskFaultsTest, EveryRequestAfterNMegabytesFails) {
  DiskFaults faults(FaultyProfile({"fail_after_mb=2"}));
  ASSERT_TRUE(faults.enabled());
  EXPECT_FALSE(faults.Fails(1'000'000));
  EXPECT_FALSE(faults.Fails(999'999));
  EXPECT_FALSE(faults.Fails(1));  // 2,000,000 bytes moved: the limit is reached
  EXPECT_TRUE(faults.Fails(4096));
  EXPECT_TRUE(faults.Fails(1));
  EXPECT_EQ(faults.moved_bytes(), 2'000'000u);
}

TEST(DiskFaultsTest, ARateFailsAboutThatShareAndTheSameRequestsForTheSameSeed) {
  auto pattern = [](const char* seed) {
    DiskFaults faults(FaultyProfile({"fail_rate=0.1", seed}));
    std::vector<bool> failed;
    for (int i = 0; i < 10000; ++i) failed.push_back(faults.Fails(4096));
    return failed;
  };
  const std::vector<bool> a = pattern("fail_seed=7");
  EXPECT_EQ(a, pattern("fail_seed=7"));
  EXPECT_NE(a, pattern("fail_seed=8"));
  const long share = std::count(a.begin(), a.end(), true);
  EXPECT_GT(share, 850);  // 10 % of 10,000, well within 5 sigma (30)
  EXPECT_LT(share, 1150);
}

TEST(DiskFaultsTest, FaultOverridesAreCheckedAndShownOnlyWhenSet) {
  DiskProfile p = FaultyProfile({});
  std::string err;
  EXPECT_FALSE(ApplyDiskOverride("fail_rate=1.5", &p, &err));
  EXPECT_NE(err.find("[0, 1]"), std::string::npos) << err;
  EXPECT_FALSE(ApplyDiskOverride("fail_rate=nan", &p, &err));
  EXPECT_FALSE(ApplyDiskOverride("fail_after_mb=-1", &p, &err));
  EXPECT_FALSE(ApplyDiskOverride("fail_after_mb=2e3", &p, &err));
  EXPECT_FALSE(ApplyDiskOverride("fail_often=1", &p, &err));
  EXPECT_NE(err.find("unknown disk parameter"), std::string::npos) << err;
  EXPECT_FALSE(DiskProfileToJson(p).contains("fail_after_mb"));
  EXPECT_FALSE(DiskProfileToJson(p).contains("fail_rate"));
  ASSERT_TRUE(ApplyDiskOverride("fail_after_mb=64", &p, &err)) << err;
  EXPECT_EQ(DiskProfileToJson(p)["fail_after_mb"], 64);
  p.fail_rate = 2;  // set around ApplyDiskOverride
  EXPECT_FALSE(ValidateDiskProfile(p, &err));
}

TEST(DiskFaultsTest, AFailedCellsCountersNameTheInjectedError) {
  EXPECT_EQ(DiskFailureCause(nullptr), "");
  EXPECT_EQ(DiskFailureCause({{"requests", 10}, {"failed_requests", 0}}), "");
  EXPECT_EQ(DiskFailureCause({{"failed_requests", 3}, {"first_failure_after_bytes", 64'000'512}}),
            "I/O error on the emulated disk after 64 MB");
  // Counters are read from the daemon's stats.json: a float or a wrong type is no fault.
  EXPECT_EQ(DiskFailureCause({{"failed_requests", 1.5e300}}), "");
  EXPECT_EQ(DiskFailureCause({{"failed_requests", "3"}}), "");
}

TEST(DiskFaultsTest, TheDaemonCountsFailedRequestsInItsStats) {
  DiskStats stats;
  stats.RecordFailure(5'000'000);
  stats.RecordFailure(5'000'000 + 4096);
  const DiskCounters c = stats.Snapshot(0);
  EXPECT_EQ(c.failed_requests, 2u);
  EXPECT_EQ(c.first_failure_after_bytes, 5'000'000u);
  const nlohmann::json j = DiskStatsToJson(c, FaultyProfile({}), 0);
  EXPECT_EQ(j["failed_requests"], 2);
  EXPECT_EQ(j["first_failure_after_bytes"], 5'000'000);
}

}  // namespace
}  // namespace elevbench
