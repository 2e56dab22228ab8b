// `disk serve` and `disk profiles` below their command line (harness/disk/disk_serve_paths.h):
// the paths refused before the daemon starts (#45, fourth pass), the --disk-set spelling an
// error names, and the built-in profiles as the command lists them.

#include "harness/disk/disk_serve_paths.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "test_util.h"

namespace elevbench {
namespace {

TEST(DiskServePathsTest, TheLastSpellingOfDiskSetIsTheOneNamed) {
  EXPECT_EQ(TypedDiskSetFlag({}), "--disk-set");
  EXPECT_EQ(TypedDiskSetFlag({"disk", "serve", "--set", "a=1"}), "--set");
  EXPECT_EQ(TypedDiskSetFlag({"disk", "serve", "--set=a=1"}), "--set");
  EXPECT_EQ(TypedDiskSetFlag({"--set", "a=1", "--disk-set", "b=2"}), "--disk-set");
  EXPECT_EQ(TypedDiskSetFlag({"--disk-set=b=2", "--set", "a=1"}), "--set");
}

TEST(DiskServePathsTest, TheBackingMustBeANonEmptyFileAndTheMountADirectory) {
  testing::ScopedTempDir dir;
  const std::string image = dir.path() + "/disk.img";
  const std::string empty = dir.path() + "/empty.img";
  std::ofstream(image) << "x";
  std::ofstream(empty).close();
  std::string err;
  EXPECT_TRUE(CheckDiskServePaths(image, dir.path(), &err)) << err;
  EXPECT_FALSE(CheckDiskServePaths(dir.path() + "/none.img", dir.path(), &err));
  EXPECT_EQ(err, "--backing " + dir.path() +
                     "/none.img: no such file (give an image file, e.g. one made with truncate "
                     "-s 1G)");
  EXPECT_FALSE(CheckDiskServePaths(dir.path(), dir.path(), &err));
  EXPECT_EQ(err, "--backing " + dir.path() +
                     ": is a directory (give an image file, e.g. one made with truncate -s 1G)");
  EXPECT_FALSE(CheckDiskServePaths(empty, dir.path(), &err));
  EXPECT_NE(err.find("is not a non-empty regular file"), std::string::npos) << err;
  EXPECT_FALSE(CheckDiskServePaths(image, dir.path() + "/none", &err));
  EXPECT_EQ(
      err, "--mount " + dir.path() + "/none: no such directory (give an existing empty directory)");
  EXPECT_FALSE(CheckDiskServePaths(image, image, &err));
  EXPECT_EQ(err, "--mount " + image + ": is not a directory (give an existing empty directory)");
}

// The profile is checked first, its override named as the command line spelled it; then the
// trace's folder, then the paths.
TEST(DiskServePathsTest, TheDaemonsOptionsComeFromTheFlagsInTheirOrder) {
  testing::ScopedTempDir dir;
  const std::string image = dir.path() + "/disk.img";
  std::ofstream(image) << "x";
  DiskServeConfig config;
  config.backing = image;
  config.mountpoint = dir.path();
  DiskDaemonOptions options;
  std::string err;
  ASSERT_TRUE(DiskServeDaemonOptions(config, {}, &options, &err)) << err;
  EXPECT_EQ(options.backing_path, image);
  EXPECT_EQ(options.mountpoint, dir.path());
  EXPECT_EQ(options.trace_path, "");
  config.settings = {"bogus"};
  config.backing = dir.path() + "/none.img";
  EXPECT_FALSE(DiskServeDaemonOptions(config, {"disk", "serve", "--set", "bogus"}, &options, &err));
  EXPECT_EQ(err.rfind("--set", 0), 0u) << err;
  config.settings.clear();
  config.trace = dir.path() + "/missing/disk.trace";
  EXPECT_FALSE(DiskServeDaemonOptions(config, {}, &options, &err));
  EXPECT_NE(err.find("--disk-trace"), std::string::npos) << err;
  config.trace.clear();
  EXPECT_FALSE(DiskServeDaemonOptions(config, {}, &options, &err));
  EXPECT_EQ(err.rfind("--backing", 0), 0u) << err;
}

TEST(DiskServePathsTest, EveryBuiltInProfileIsListedInItsOrder) {
  const std::vector<DiskProfile> profiles = BuiltInDiskProfiles();
  ASSERT_EQ(profiles.size(), DiskProfileNames().size());
  const nlohmann::json json = DiskProfilesToJson(profiles);
  ASSERT_TRUE(json.is_array());
  ASSERT_EQ(json.size(), profiles.size());
  EXPECT_EQ(json[0], DiskProfileToJson(profiles[0]));
}

}  // namespace
}  // namespace elevbench
