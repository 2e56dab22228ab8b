// A user's own kernel build without a guest (harness/guest/kernel_build.h): the release read
// from a crafted bzImage's setup header, what is refused, where the config is found, and the
// copy into the cache, which leaves the user's tree as it was.

#include "harness/guest/kernel_build.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "harness/process/subprocess.h"
#include "test_util.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

// A file with an x86 setup header: "HdrS" at 0x202, kernel_version (at 0x20E) pointing at
// `version` (+ 0x200), and `tail` after it, so two images of one release differ.
void WriteFakeBzImage(const std::string& path, const std::string& version,
                      const std::string& tail = "") {
  std::string bytes(0x2000, '\0');
  bytes.replace(0x202, 4, "HdrS");
  bytes[0x206] = 0x0f;  // boot protocol 2.15
  bytes[0x207] = 0x02;
  const size_t pointer = 0x400;  // the string at 0x600
  bytes[0x20E] = static_cast<char>(pointer & 0xff);
  bytes[0x20F] = static_cast<char>(pointer >> 8);
  bytes.replace(0x600, version.size(), version);
  bytes += tail;
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

void WriteTextFile(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A module busybox's depmod can read: its modinfo strings, then padding.
std::string FakeModule(const std::string& name, const std::string& release) {
  std::string m = "fake module";
  m += std::string("\0depends=\0vermagic=", 19) + release + " SMP" + std::string("\0name=", 6) +
       name + std::string(1, '\0');
  return m + std::string(4096, '\0');
}

constexpr char kRelease[] = "6.18.0-rc3-test+";
constexpr char kModuleConfig[] =
    "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_IOSCHED_BFQ=m\nCONFIG_VIRTIO_PCI=y\n"
    "CONFIG_VIRTIO_FS=m\nCONFIG_BLK_DEV_LOOP=m\nCONFIG_FUSE_FS=m\n";

// A build tree (linux/arch/x86/boot/bzImage, linux/.config) and what `make modules_install
// INSTALL_MOD_PATH=mods` made of it: two modules, modules.order and the
// `build` link back into the tree.
struct FakeBuild {
  explicit FakeBuild(const std::string& dir, const std::string& config = kModuleConfig)
      : tree(dir + "/linux"), image(tree + "/arch/x86/boot/bzImage"), modroot(dir + "/mods") {
    WriteFakeBzImage(image, std::string(kRelease) + " (me@box) #1 SMP PREEMPT_DYNAMIC");
    WriteTextFile(tree + "/.config", config);
    const std::string mods = modroot + "/lib/modules/" + kRelease;
    WriteTextFile(mods + "/kernel/block/bfq.ko", FakeModule("bfq", kRelease));
    WriteTextFile(mods + "/kernel/fs/fuse/virtiofs.ko", FakeModule("virtiofs", kRelease));
    WriteTextFile(mods + "/modules.order", "kernel/block/bfq.ko\nkernel/fs/fuse/virtiofs.ko\n");
    fs::create_directory_symlink(tree, mods + "/build");
  }
  std::string tree, image, modroot;
};

TEST(BzImageTest, ReadsTheReleaseFromTheSetupHeader) {
  testing::ScopedTempDir dir;
  const std::string image = dir.path() + "/bzImage";
  WriteFakeBzImage(image, "6.18.0-rc3-00012-gabcdef (me@box) (gcc 14) #3 SMP");
  std::string release, err;
  ASSERT_TRUE(ReadBzImageRelease(image, &release, &err)) << err;
  EXPECT_EQ(release, "6.18.0-rc3-00012-gabcdef");
}

TEST(BzImageTest, RefusesWhatIsNoBzImageInOneLine) {
  testing::ScopedTempDir dir;
  std::string release, err;
  WriteTextFile(dir.path() + "/vmlinux", std::string(0x1000, 'x'));
  EXPECT_FALSE(ReadBzImageRelease(dir.path() + "/vmlinux", &release, &err));
  EXPECT_NE(err.find("is no bzImage"), std::string::npos) << err;
  WriteTextFile(dir.path() + "/short", "HdrS");
  EXPECT_FALSE(ReadBzImageRelease(dir.path() + "/short", &release, &err));
  EXPECT_NE(err.find("is no bzImage"), std::string::npos) << err;
  WriteFakeBzImage(dir.path() + "/odd", "not/a release");
  EXPECT_FALSE(ReadBzImageRelease(dir.path() + "/odd", &release, &err));
  EXPECT_NE(err.find("names no release"), std::string::npos) << err;
  EXPECT_FALSE(ReadBzImageRelease(dir.path() + "/absent", &release, &err));
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

TEST(KernelBuildTest, FindsTheModulesAndTheTreesConfig) {
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path());
  KernelBuild build;
  std::string err;
  ASSERT_TRUE(InspectKernelBuild(b.image, b.modroot, &build, &err)) << err;
  EXPECT_EQ(build.release, kRelease);
  EXPECT_EQ(build.image, b.image);
  EXPECT_EQ(build.modules_dir, b.modroot + "/lib/modules/" + kRelease);
  EXPECT_EQ(build.config, b.tree + "/.config");
  EXPECT_EQ(build.entry.rfind(std::string("image-") + kRelease + "-", 0), 0u) << build.entry;
  EXPECT_EQ(build.features.schedulers, (std::vector<std::string>{"none", "mq-deadline", "bfq"}));
  // MODROOT may be lib/modules/<release> itself.
  KernelBuild direct;
  ASSERT_TRUE(InspectKernelBuild(b.image, build.modules_dir + "/", &direct, &err)) << err;
  EXPECT_EQ(direct.modules_dir, build.modules_dir);
  EXPECT_EQ(direct.entry, build.entry);
}

TEST(KernelBuildTest, TakesTheConfigOfTheModulesBuildLinkWhenTheImageLeftTheTree) {
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path());
  const std::string moved = dir.path() + "/a/b/c/d/bzImage";
  fs::create_directories(fs::path(moved).parent_path());
  fs::copy_file(b.image, moved);
  KernelBuild build;
  std::string err;
  ASSERT_TRUE(InspectKernelBuild(moved, b.modroot, &build, &err)) << err;
  EXPECT_EQ(build.config, build.modules_dir + "/build/.config");
}

TEST(KernelBuildTest, RefusesInOneLineNamingWhatIsWrong) {
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path());
  KernelBuild build;
  std::string err;
  EXPECT_FALSE(InspectKernelBuild(dir.path() + "/none", "", &build, &err));
  EXPECT_NE(err.find("no such file"), std::string::npos) << err;
  EXPECT_FALSE(InspectKernelBuild(b.tree + "/.config", "", &build, &err));
  EXPECT_NE(err.find("is no bzImage"), std::string::npos) << err;
  // MODROOT without this release's modules: both named.
  WriteTextFile(dir.path() + "/other/lib/modules/6.1.0/modules.order", "");
  EXPECT_FALSE(InspectKernelBuild(b.image, dir.path() + "/other", &build, &err));
  EXPECT_NE(err.find(dir.path() + "/other has no lib/modules/" + kRelease), std::string::npos)
      << err;
  EXPECT_NE(err.find(b.image), std::string::npos) << err;
  // No config anywhere it looks: the places named.
  const std::string alone = dir.path() + "/a/b/c/d/bzImage";
  fs::create_directories(fs::path(alone).parent_path());
  fs::copy_file(b.image, alone);
  EXPECT_FALSE(InspectKernelBuild(alone, "", &build, &err));
  EXPECT_NE(err.find("no config for " + alone + " (looked for " + dir.path() + "/a/b/c/d/.config"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("/boot/config-" + std::string(kRelease)), std::string::npos) << err;
  // Without modules, virtiofs etc. as modules are refused.
  EXPECT_FALSE(InspectKernelBuild(b.image, "", &build, &err));
  EXPECT_NE(err.find("CONFIG_VIRTIO_FS, CONFIG_BLK_DEV_LOOP, CONFIG_FUSE_FS=y"), std::string::npos)
      << err;
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
}

TEST(KernelBuildTest, WithoutModulesOnlyWhatIsBuiltInCounts) {
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path(),
                    "CONFIG_MQ_IOSCHED_DEADLINE=y\nCONFIG_IOSCHED_BFQ=m\nCONFIG_VIRTIO_PCI=y\n"
                    "CONFIG_VIRTIO_FS=y\nCONFIG_BLK_DEV_LOOP=y\nCONFIG_FUSE_FS=y\n");
  KernelBuild build;
  std::string err;
  ASSERT_TRUE(InspectKernelBuild(b.image, "", &build, &err)) << err;
  EXPECT_TRUE(build.modules_dir.empty());
  EXPECT_EQ(build.features.schedulers, (std::vector<std::string>{"none", "mq-deadline"}));
  CachedKernel k;
  bool copied = false;
  ASSERT_TRUE(CacheKernelBuild(dir.path() + "/cache", build, &k, &copied, &err)) << err;
  EXPECT_TRUE(copied);
  EXPECT_EQ(k.features.schedulers, (std::vector<std::string>{"none", "mq-deadline"}));
  EXPECT_EQ(testing::ReadFileOrEmpty(k.modules_dir + "/modules.dep"), "");
}

TEST(KernelBuildTest, CopiesIntoTheCacheAndLeavesTheUsersTreeAsItWas) {
  if (!ProgramInPath("busybox") || !ProgramInPath("xz") || !ProgramInPath("gzip")) {
    GTEST_SKIP() << "needs busybox, xz and gzip";
  }
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path());
  const std::string mods = b.modroot + "/lib/modules/" + kRelease;
  std::string out, err;
  ASSERT_TRUE(RunChecked({"xz", mods + "/kernel/fs/fuse/virtiofs.ko"}, &out, &err)) << err;
  ASSERT_TRUE(RunChecked({"gzip", mods + "/kernel/block/bfq.ko"}, &out, &err)) << err;
  const auto before = testing::TreeListing(dir.path());
  KernelBuild build;
  ASSERT_TRUE(InspectKernelBuild(b.image, b.modroot, &build, &err)) << err;
  const std::string cache = dir.path() + "/cache";
  CachedKernel k;
  bool copied = false;
  ASSERT_TRUE(CacheKernelBuild(cache, build, &k, &copied, &err)) << err;
  EXPECT_TRUE(copied);
  fs::remove_all(cache);  // the listing compares the user's files only
  EXPECT_EQ(testing::TreeListing(dir.path()), before);
  ASSERT_TRUE(CacheKernelBuild(cache, build, &k, &copied, &err)) << err;
  EXPECT_EQ(k.package, build.entry);
  EXPECT_EQ(k.source, "build");
  EXPECT_EQ(k.release, kRelease);
  EXPECT_EQ(testing::ReadFileOrEmpty(k.image), testing::ReadFileOrEmpty(b.image));
  EXPECT_EQ(testing::ReadFileOrEmpty(k.directory + "/boot/config-" + kRelease), kModuleConfig);
  EXPECT_TRUE(fs::exists(k.modules_dir + "/kernel/fs/fuse/virtiofs.ko"));  // decompressed
  EXPECT_FALSE(fs::exists(k.modules_dir + "/kernel/fs/fuse/virtiofs.ko.xz"));
  EXPECT_TRUE(fs::exists(k.modules_dir + "/kernel/block/bfq.ko"));
  EXPECT_FALSE(fs::exists(k.modules_dir + "/kernel/block/bfq.ko.gz"));
  EXPECT_FALSE(fs::exists(fs::symlink_status(k.modules_dir + "/build")));  // no link to the tree
  EXPECT_NE(testing::ReadFileOrEmpty(k.modules_dir + "/modules.dep").find("kernel/block/bfq.ko:"),
            std::string::npos);
  EXPECT_EQ(k.features.schedulers, (std::vector<std::string>{"none", "mq-deadline", "bfq"}));
  // Cached: not copied again; listed as a build.
  ASSERT_TRUE(CacheKernelBuild(cache, build, &k, &copied, &err)) << err;
  EXPECT_FALSE(copied);
  const auto listed = ListCachedKernels(cache);
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].source, "build");
  // A rebuild of the same release is an entry of its own.
  WriteFakeBzImage(b.image, std::string(kRelease) + " (me@box) #2 SMP", "rebuilt");
  KernelBuild rebuilt;
  ASSERT_TRUE(InspectKernelBuild(b.image, b.modroot, &rebuilt, &err)) << err;
  EXPECT_NE(rebuilt.entry, build.entry);
  EXPECT_EQ(rebuilt.release, build.release);
  ASSERT_TRUE(CacheKernelBuild(cache, rebuilt, &k, &copied, &err)) << err;
  EXPECT_TRUE(copied);
  EXPECT_EQ(ListCachedKernels(cache).size(), 2u);
}

// Through the command line: a build that is no bzImage, or whose modules are not there, is
// refused in one line (exit 2) by `run --kernels image:…`, `run --kernel-image` and `kernels
// fetch image:…` before anything is made: no cache, no results, no work directory; so is a
// scheduler of --schedulers or a guest's need that its config lacks (before root, as every
// check of the build's own files).
TEST(KernelBuildCliTest, ABadBuildIsRefusedBeforeAnythingIsMade) {
  testing::ScopedTempDir dir;
  const FakeBuild b(dir.path());
  const FakeBuild nofuse(dir.path() + "/nofuse", "CONFIG_VIRTIO_PCI=y\nCONFIG_VIRTIO_FS=m\n");
  const std::string cache = dir.path() + "/cache";
  const std::string out = dir.path() + "/r.json";
  testing::ScopedEnv env("ELEVBENCH_KERNEL_CACHE", cache);
  const std::string text = b.tree + "/.config";
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"run", "nickbench", "--kernels", "image:" + text, "--out", out},
       "elevbench: --kernels: " + text + " is no bzImage"},
      {{"run", "nickbench", "--kernels", "debian:linux-image-6.1.0-1-amd64", "--kernel-image", text,
        "--out", out},
       "elevbench: --kernel-image: " + text + " is no bzImage"},
      {{"run", "nickbench", "--kernel-image", b.image + ":" + dir.path() + "/linux", "--out", out},
       "elevbench: --kernel-image: " + dir.path() + "/linux has no lib/modules/" + kRelease},
      {{"kernels", "fetch", "image:" + text},
       "elevbench: kernels fetch: " + text + " is no bzImage"},
      // What its config lacks, before root and before the copy.
      {{"run", "nickbench", "--kernels", "image:" + b.image + ":" + b.modroot, "--schedulers",
        "kyber", "--out", out},
       std::string("elevbench: --schedulers: kernel ") + kRelease +
           " has no kyber (offers none, mq-deadline, bfq)"},
      {{"run", "nickbench", "--kernel-image", nofuse.image + ":" + nofuse.modroot, "--out", out},
       "elevbench: --kernel-image: " + nofuse.image + ":" + nofuse.modroot +
           " lacks virtiofs, loop or FUSE"},
  };
  for (const auto& [args, why] : refused) {
    SCOPED_TRACE(why);
    const ProcessResult r = testing::RunElevbenchCli(args, 60);
    EXPECT_EQ(r.exit_code, 2) << r.error_output;
    EXPECT_EQ(r.error_output.rfind(why, 0), 0u) << r.error_output;
    EXPECT_EQ(r.error_output.find('\n'), r.error_output.size() - 1) << r.error_output;
    EXPECT_FALSE(fs::exists(cache));
    EXPECT_FALSE(fs::exists(out));
    EXPECT_FALSE(fs::exists(out + ".fio"));
  }
}

}  // namespace
}  // namespace elevbench
