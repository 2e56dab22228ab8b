// A disk profile named on a command line, resolved with its overrides
// (harness/disk/disk_profile_spec.h), as `elevbench disk serve` does before it serves.

#include "harness/disk/disk_profile_spec.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

TEST(ResolveDiskProfileTest, TheProfileWithItsOverridesInOrder) {
  DiskProfile p;
  std::string err;
  ASSERT_TRUE(ResolveDiskProfile("ide-2003", {}, "--set", &p, &err)) << err;
  DiskProfile plain;
  ASSERT_TRUE(LookupDiskProfile("ide-2003", &plain, &err)) << err;
  EXPECT_EQ(p.avg_seek_ms, plain.avg_seek_ms);
  // Checked as a whole: avg_seek_ms=25 alone exceeds the full stroke, valid with the next one.
  ASSERT_TRUE(ResolveDiskProfile("ide-2003", {"avg_seek_ms=25", "full_stroke_ms=30", "rpm=5400"},
                                 "--set", &p, &err))
      << err;
  EXPECT_EQ(p.avg_seek_ms, 25);
  EXPECT_EQ(p.full_stroke_ms, 30);
  EXPECT_EQ(p.rpm, 5400);
}

TEST(ResolveDiskProfileTest, EachErrorIsOneLineAndNamesItsCause) {
  DiskProfile p;
  std::string err;
  EXPECT_FALSE(ResolveDiskProfile("no-such-disk", {}, "--set", &p, &err));
  EXPECT_NE(err.find("ide-2003"), std::string::npos) << err;  // the known names
  EXPECT_FALSE(ResolveDiskProfile("ide-2003", {"bogus=1"}, "--set", &p, &err));
  EXPECT_EQ(err.rfind("--set: ", 0), 0u) << err;
  EXPECT_NE(err.find("unknown disk parameter 'bogus'"), std::string::npos) << err;
  EXPECT_FALSE(ResolveDiskProfile("ide-2003", {"avg_seek_ms=25"}, "--set", &p, &err));
  EXPECT_NE(err.find("avg_seek_ms <= full_stroke_ms"), std::string::npos) << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

// The shared lookup of the run's checks and the emulated stack: the overrides applied, nothing
// checked as a whole, and a bad override's error with exactly the prefix given.
TEST(LookupDiskProfileWithOverridesTest, AppliesTheOverridesWithoutTheWholeCheck) {
  DiskProfile p;
  std::string err;
  ASSERT_TRUE(LookupDiskProfileWithOverrides("ide-2003", {"avg_seek_ms=25"}, "", &p, &err)) << err;
  EXPECT_EQ(p.avg_seek_ms, 25);  // beyond the full stroke: left to ValidateDiskProfile
  EXPECT_FALSE(LookupDiskProfileWithOverrides("ide-2003", {"bogus=1"}, "", &p, &err));
  EXPECT_EQ(err.rfind("unknown disk parameter 'bogus'", 0), 0u) << err;
  EXPECT_FALSE(LookupDiskProfileWithOverrides("ide-2003", {"bogus=1"}, "--disk-set: ", &p, &err));
  EXPECT_EQ(err.rfind("--disk-set: unknown disk parameter 'bogus'", 0), 0u) << err;
  EXPECT_FALSE(
      LookupDiskProfileWithOverrides("no-such-disk", {"bogus=1"}, "--disk-set: ", &p, &err));
  EXPECT_EQ(err.rfind("unknown disk profile 'no-such-disk'", 0), 0u) << err;
}

// #45, fourth pass: a parameter set twice kept the last in silence; refused as --machine's are.
TEST(LookupDiskProfileWithOverridesTest, AParameterGivenTwiceIsRefused) {
  DiskProfile p;
  std::string err;
  EXPECT_FALSE(LookupDiskProfileWithOverrides("ide-2003", {"rpm=7200", "rpm=5400"},
                                              "--disk-set: ", &p, &err));
  EXPECT_EQ(err, "--disk-set: rpm given twice");
  EXPECT_FALSE(
      ResolveDiskProfile("ide-2003", {"rpm=7200", "avg_seek_ms=9", "rpm=7200"}, "--set", &p, &err));
  EXPECT_EQ(err, "--set: rpm given twice");
}

}  // namespace
}  // namespace elevbench
