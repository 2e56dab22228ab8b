#include "harness/run/run_policy.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(RunPolicyTest, RepetitionsAreANumberOrAuto) {
  uint32_t n = 0;
  AdaptiveRepetitions adaptive;
  std::string err;
  ASSERT_TRUE(ParseRepetitionsOption("5", 10, 5, &n, &adaptive, &err)) << err;
  EXPECT_EQ(n, 5u);
  EXPECT_FALSE(adaptive.enabled);
  ASSERT_TRUE(ParseRepetitionsOption("auto", 12, 2.5, &n, &adaptive, &err)) << err;
  EXPECT_TRUE(adaptive.enabled);
  EXPECT_EQ(n, 12u);
  EXPECT_EQ(adaptive.max_repetitions, 12u);
  EXPECT_DOUBLE_EQ(adaptive.ci_width, 0.025);
  for (const char* bad : {"0", "1001", "-1", "3x", "", " 3", "+3", "1e3"}) {
    AdaptiveRepetitions a;
    EXPECT_FALSE(ParseRepetitionsOption(bad, 10, 5, &n, &a, &err)) << bad;
    EXPECT_NE(err.find("--repetitions must be"), std::string::npos) << err;
  }
}

TEST(RunPolicyTest, AnEmulatedDiskWithoutASizeGrowsToHoldTheSuite) {
  TargetOptions t;
  t.emulated = true;
  t.emulated_options.size_bytes = 1ULL << 30;
  std::string err;
  ASSERT_TRUE(SizeTargetForSuite("tiobench", 3ULL << 30, false, false, &t, &err)) << err;
  EXPECT_EQ(t.emulated_options.size_bytes, (3ULL << 30) + (192ULL << 20));
  EXPECT_EQ(t.scratch_bytes, 0u);
}

TEST(RunPolicyTest, AGivenSizeThatCannotHoldTheSuiteIsRefused) {
  TargetOptions t;
  t.scratch_bytes = 256ULL << 20;
  std::string err;
  EXPECT_FALSE(SizeTargetForSuite("morton", 275ULL << 20, false, false, &t, &err));
  EXPECT_NE(err.find("morton needs 275 MiB"), std::string::npos) << err;
  EXPECT_NE(err.find("256 MiB device of --scratch"), std::string::npos) << err;
  // Only the suites with a --size are told to make it smaller.
  EXPECT_NE(err.find("fewer or smaller loads"), std::string::npos) << err;
  EXPECT_FALSE(SizeTargetForSuite("tiobench", 275ULL << 20, false, false, &t, &err));
  EXPECT_NE(err.find("a smaller --size"), std::string::npos) << err;
  TargetOptions e;
  e.emulated = true;
  e.emulated_options.size_bytes = 256ULL << 20;
  EXPECT_FALSE(SizeTargetForSuite("morton", 275ULL << 20, true, false, &e, &err));
  EXPECT_NE(err.find("--emulated"), std::string::npos) << err;
}

TEST(RunPolicyTest, TheDefaultScratchDeviceIsAtLeastOneGibibyte) {
  TargetOptions t;
  std::string err;
  ASSERT_TRUE(SizeTargetForSuite("nickbench", 64ULL << 20, false, true, &t, &err)) << err;
  EXPECT_EQ(t.scratch_bytes, 1ULL << 30);
}

TEST(RunPolicyTest, TheCacheNoteSaysWhatTheRunDid) {
  EXPECT_EQ(GlobalCacheDropNote(true, true), "; all caches dropped before each cell");
  EXPECT_EQ(GlobalCacheDropNote(true, false), " (--no-drop-caches: no global drop)");
  EXPECT_EQ(GlobalCacheDropNote(false, false), " (not root: no global drop)");
}

TEST(RunPolicyTest, TheContextRecordsTheRunsFacts) {
  RunTarget target;  // not created: no disks, an empty description
  RunContextFacts f;
  f.command_line = "elevbench run tiobench";
  f.machine.kernel = "6.18.44";
  f.machine.cpus = 2;
  f.fio_version = "fio-3.33";
  f.target = &target;
  f.switching = false;
  f.pinned = {{"read_ahead_kb", "128"}};
  f.seed = 42;
  f.cache_policy = "evicted";
  const nlohmann::json c = RunContextJson(f);
  EXPECT_EQ(c["command_line"], "elevbench run tiobench");
  EXPECT_EQ(c["kernel"], "6.18.44");
  EXPECT_EQ(c["seed"], 42);
  EXPECT_EQ(c["fio_version"], "fio-3.33");
  EXPECT_TRUE(c["pinned_queue"].empty());  // pinned only counts when switching
  EXPECT_TRUE(c["devices"].empty());
  EXPECT_FALSE(c.contains("emulated_machine"));
  f.switching = true;
  EXPECT_EQ(RunContextJson(f)["pinned_queue"].size(), 1u);
}

}  // namespace
}  // namespace elevbench
