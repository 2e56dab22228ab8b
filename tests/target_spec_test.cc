// The checks `run` and `capture` share of a device elevbench makes (harness/run/target_spec.h).

#include "harness/run/target_spec.h"

#include <gtest/gtest.h>

namespace elevbench {
namespace {

// ParseMadeTarget's error for `spec`, which must be refused.
std::string MadeTargetError(const TargetSpec& spec) {
  TargetOptions t;
  std::string err;
  EXPECT_FALSE(ParseMadeTarget(spec, &t, &err));
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  return err;
}

TEST(TargetSpecTest, EachBadWordIsRefusedWithItsFlag) {
  TargetSpec spec;
  spec.scratch = "1G";
  spec.fs = "btrfs";
  EXPECT_EQ(MadeTargetError(spec), "unsupported --fs 'btrfs' (ext2, ext4 or xfs)");
  spec.fs = "xfs";
  spec.scratch = "0";
  EXPECT_EQ(MadeTargetError(spec).rfind("--scratch: ", 0), 0u);
  spec.scratch.clear();
  spec.emulated = "no-such-disk";
  EXPECT_NE(MadeTargetError(spec).find("ide-2003"), std::string::npos);  // the known profiles
  spec.emulated = "ide-2003:1M";
  EXPECT_EQ(MadeTargetError(spec), "--emulated: the disk needs at least 64M");
}

TEST(TargetSpecTest, TheDeviceElevbenchMakesIsFilledIn) {
  TargetSpec spec;
  spec.fs = "ext2";
  spec.scratch = "2G";
  TargetOptions t;
  std::string err;
  ASSERT_TRUE(ParseMadeTarget(spec, &t, &err)) << err;
  EXPECT_EQ(t.fs, "ext2");
  EXPECT_EQ(t.scratch_bytes, 2ULL << 30);
  EXPECT_FALSE(t.emulated);

  spec.scratch.clear();
  spec.emulated = "ide-2003:3G";
  t = TargetOptions{};
  ASSERT_TRUE(ParseMadeTarget(spec, &t, &err)) << err;
  EXPECT_TRUE(t.emulated);
  EXPECT_EQ(t.emulated_options.profile_name, "ide-2003");
  EXPECT_EQ(t.emulated_options.size_bytes, 3ULL << 30);
  EXPECT_EQ(t.emulated_options.fs, "ext2");
  EXPECT_FALSE(t.emulated_options.self_exe.empty());

  spec.emulated.clear();
  spec.device = "sdb";  // a disk of the user's: not looked at here
  t = TargetOptions{};
  ASSERT_TRUE(ParseMadeTarget(spec, &t, &err)) << err;
  EXPECT_FALSE(t.emulated);
  EXPECT_EQ(t.scratch_bytes, 0u);
}

}  // namespace
}  // namespace elevbench
