// The kernel cache without the network: a kernel's features from its config text, the rows'
// default labels, and what the cache holds (harness/guest/kernel_cache.h).

#include "harness/guest/kernel_cache.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/process/subprocess.h"
#include "harness/run/kernel_checks.h"
#include "test_util.h"

namespace elevbench {
namespace {

TEST(KernelFeaturesTest, ReadsSchedulersAndControllersBuiltInOrModules) {
  const KernelFeatures f = KernelFeaturesFromConfig(
      "# comment\nCONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_MQ_IOSCHED_KYBER=m\n"
      "# CONFIG_IOSCHED_BFQ is not set\nCONFIG_BLK_DEV_THROTTLING=y\n"
      "CONFIG_BLK_CGROUP_IOCOST=y\nCONFIG_VIRTIO_FS=m\nCONFIG_BLK_DEV_LOOP=m\n"
      "CONFIG_FUSE_FS=y\n");
  EXPECT_EQ(f.schedulers, (std::vector<std::string>{"none", "mq-deadline", "kyber"}));
  EXPECT_EQ(f.io_controllers, (std::vector<std::string>{"throttle", "iocost"}));
  EXPECT_TRUE(f.virtiofs);
  EXPECT_TRUE(f.loop);
  EXPECT_TRUE(f.fuse);
  const KernelFeatures none = KernelFeaturesFromConfig("CONFIG_IOSCHED_BFQ_X=y\n");
  EXPECT_EQ(none.schedulers, std::vector<std::string>{"none"});
  EXPECT_FALSE(none.virtiofs);
}

// Debian's flavours: the cloud one builds ext4 in, the generic and -rt ones build ext4, xfs
// and bfq as modules (issue 57: a generic guest's ext4 mount failed); ext2 is ext4's driver.
constexpr const char* kGenericConfig =
    "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_MQ_IOSCHED_KYBER=m\nCONFIG_IOSCHED_BFQ=m\n"
    "CONFIG_EXT4_FS=m\nCONFIG_EXT4_USE_FOR_EXT2=y\n# CONFIG_EXT2_FS is not set\nCONFIG_XFS_FS=m\n"
    "CONFIG_VIRTIO_FS=m\nCONFIG_BLK_DEV_LOOP=m\nCONFIG_FUSE_FS=m\nCONFIG_BLK_DEV_THROTTLING=y\n";
constexpr const char* kCloudConfig =
    "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_MQ_IOSCHED_KYBER=m\nCONFIG_IOSCHED_BFQ=m\n"
    "CONFIG_EXT4_FS=y\nCONFIG_EXT4_USE_FOR_EXT2=y\n# CONFIG_XFS_FS is not set\n"
    "CONFIG_VIRTIO_FS=m\nCONFIG_BLK_DEV_LOOP=y\nCONFIG_FUSE_FS=m\n";

TEST(KernelFeaturesTest, ReadsFilesystemsAndWhatIsAModule) {
  const KernelFeatures generic = KernelFeaturesFromConfig(kGenericConfig);
  EXPECT_EQ(generic.filesystems, (std::vector<std::string>{"ext2", "ext4", "xfs"}));
  EXPECT_EQ(generic.as_modules,
            (std::vector<std::string>{"kyber", "bfq", "ext4", "xfs", "loop", "fuse"}));
  EXPECT_EQ(KernelOffersWords(generic),
            "schedulers none, mq-deadline, kyber, bfq; filesystems ext2, ext4, xfs; loop, FUSE; "
            "I/O controllers throttle; as modules: kyber, bfq, ext4, xfs, loop, fuse (loaded when "
            "the kernel asks)");
  const KernelFeatures cloud = KernelFeaturesFromConfig(kCloudConfig);
  EXPECT_EQ(cloud.filesystems, (std::vector<std::string>{"ext2", "ext4"}));
  EXPECT_EQ(cloud.as_modules, (std::vector<std::string>{"kyber", "bfq", "fuse"}));
  // A kernel without its modules has only what is built in.
  const KernelFeatures bare = KernelFeaturesFromConfig(kGenericConfig, false);
  EXPECT_TRUE(bare.filesystems.empty());
  EXPECT_TRUE(bare.as_modules.empty());
  EXPECT_EQ(KernelOffersWords(bare),
            "schedulers none, mq-deadline; filesystems none; "
            "I/O controllers throttle");
}

// The run's --fs is checked against each kernel before any guest boots: one line naming the
// kernel and what it offers, never a mount's failure from inside the guest.
TEST(KernelFeaturesTest, AKernelWithoutTheRunsFilesystemIsRefusedBeforeItBoots) {
  const KernelChoice c{"--kernels",
                       "debian:linux-image-6.1.0-57-cloud-amd64",
                       "linux-image-6.1.0-57-cloud-amd64",
                       "",
                       "",
                       ""};
  const KernelFeatures cloud = KernelFeaturesFromConfig(kCloudConfig);
  std::string err;
  EXPECT_FALSE(CheckKernelOffers(c, "6.1.0-57-cloud-amd64", cloud, "xfs", {}, {}, &err));
  EXPECT_EQ(err, "--fs xfs: kernel 6.1.0-57-cloud-amd64 has no xfs (offers ext2, ext4)");
  for (const char* fs : {"ext2", "ext4", "", "none"}) {
    EXPECT_TRUE(CheckKernelOffers(c, "6.1.0-57-cloud-amd64", cloud, fs, {}, {}, &err)) << err;
  }
  EXPECT_TRUE(CheckKernelOffers(c, "6.1.0-57-amd64", KernelFeaturesFromConfig(kGenericConfig),
                                "xfs", {}, {}, &err))
      << err;
}

TEST(KernelRowLabelTest, DropsTheArchitectureAndDebiansSuffix) {
  EXPECT_EQ(KernelRowLabel("6.1.0-50-cloud-amd64"), "6.1.0-50-cloud");
  EXPECT_EQ(KernelRowLabel("6.12.118+deb12-cloud-amd64"), "6.12.118-cloud");
  EXPECT_EQ(KernelRowLabel("6.12.118+deb12-amd64"), "6.12.118");
  EXPECT_EQ(KernelRowLabel("6.18.44"), "6.18.44");
}

void WriteFileForKernelTest(const std::string& path, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  std::ofstream(path) << text;
}

TEST(KernelCacheTest, FindsAWholeEntryAndNamesWhatIsMissing) {
  testing::ScopedTempDir dir;
  std::string err;
  CachedKernel k;
  EXPECT_FALSE(FindCachedKernel(dir.path(), "linux-image-x", &k, &err));
  EXPECT_NE(err.find("elevbench kernels fetch debian:linux-image-x"), std::string::npos) << err;
  const std::string root = dir.path() + "/linux-image-x";
  WriteFileForKernelTest(root + "/lib/modules/6.1.0-x/modules.dep", "");
  EXPECT_FALSE(FindCachedKernel(dir.path(), "linux-image-x", &k, &err));
  EXPECT_NE(err.find("vmlinuz-6.1.0-x"), std::string::npos) << err;
  WriteFileForKernelTest(root + "/boot/vmlinuz-6.1.0-x", "image");
  WriteFileForKernelTest(root + "/boot/config-6.1.0-x", "CONFIG_IOSCHED_BFQ=m\n");
  ASSERT_TRUE(FindCachedKernel(dir.path(), "linux-image-x", &k, &err)) << err;
  EXPECT_EQ(k.release, "6.1.0-x");
  EXPECT_EQ(k.modules_dir, root + "/lib/modules/6.1.0-x");
  EXPECT_EQ(k.features.schedulers, (std::vector<std::string>{"none", "bfq"}));
  const auto listed = ListCachedKernels(dir.path());
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].package, "linux-image-x");
}

TEST(KernelCacheTest, RefusesToFetchWhatIsNoKernelPackage) {
  testing::ScopedTempDir dir;
  CachedKernel k;
  std::string err;
  EXPECT_FALSE(FetchDebianKernel(dir.path(), "fio", &k, &err));
  EXPECT_NE(err.find("names no kernel image package"), std::string::npos) << err;
}

// §4.2: a name of the right shape that the package lists do not know printed apt's own lines
// ("Couldn't find any package by regex"); it is one line saying so and how to list those there
// are, and nothing is made in the cache.
TEST(KernelCacheTest, AnUnknownPackageIsOneLineNamingHowToListThem) {
  if (!ProgramInPath("apt-cache") || !ProgramInPath("apt-get")) GTEST_SKIP() << "needs apt";
  testing::ScopedTempDir dir;
  const std::string cache = dir.path() + "/cache";
  CachedKernel k;
  std::string err;
  EXPECT_FALSE(FetchDebianKernel(cache, "linux-image-0.0.0-nosuch-amd64", &k, &err));
  EXPECT_EQ(err,
            "debian:linux-image-0.0.0-nosuch-amd64: no such kernel package in this machine's "
            "Debian package lists (apt-cache search --names-only '^linux-image-[0-9]' lists "
            "those there are, elevbench kernels the cached ones)");
  EXPECT_FALSE(std::filesystem::exists(cache));
  EXPECT_FALSE(FetchDebianKernel(cache, "linux-image-", &k, &err));
  EXPECT_NE(err.find("names no kernel image package"), std::string::npos) << err;
  EXPECT_NE(err.find("apt-cache search --names-only '^linux-image-[0-9]'"), std::string::npos)
      << err;
  EXPECT_FALSE(std::filesystem::exists(cache));
}

}  // namespace
}  // namespace elevbench
