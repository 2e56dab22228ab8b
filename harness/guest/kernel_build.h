#pragma once
// A user's own kernel build as a row of `run --kernels` (docs/kernels.md, #43): the bzImage of a
// build tree (`arch/x86/boot/bzImage`) and, where the kernel has modules, the tree
// `make modules_install INSTALL_MOD_PATH=MODROOT` wrote. Everything is checked from the user's
// files before anything is made (the image's release from its setup header, the modules of that
// release, a config), then copied into the kernel cache, where the modules are decompressed and
// indexed as a Debian kernel's are: the user's tree is only ever read.

#include <string>
#include <vector>

#include "harness/guest/kernel_cache.h"

namespace elevbench {

/// The config options a kernel given without modules must have built in (`=y`): the guest
/// reaches the host's files (virtio-pci, virtiofs) and builds its disk (loop, FUSE) with them.
extern const char* const kBuiltInGuestOptions[4];

/// Reads the release (`uname -r`) of the x86 bzImage at `path` from its setup header: the
/// "HdrS" magic at 0x202, then the `kernel_version` field at 0x20E, a pointer (+ 0x200) to a
/// NUL-terminated version string whose first word is the release. False, with a line naming the
/// file, when it is no bzImage, or its version string is missing or is no release.
[[nodiscard]] bool ReadBzImageRelease(const std::string& path, std::string* release,
                                      std::string* err);

/// A user's build, checked (InspectKernelBuild) and not yet copied.
struct KernelBuild {
  std::string image;        ///< the bzImage, absolute
  std::string modules_dir;  ///< MODROOT's lib/modules/<release>, absolute; empty: no modules
  std::string config;       ///< the config found for it (KernelBuildConfigCandidates)
  std::string release;      ///< from the image's setup header
  std::string entry;        ///< its cache entry: "image-<release>-<content hash>"
  KernelFeatures features;  ///< from the config (built in only, without modules)
};

/// Where the config of a build is looked for, in order: `.config` in the image's directory and
/// up to three above it (arch/x86/boot/bzImage → the tree's root), the modules' `build/.config`
/// (its link into the tree), `/boot/config-<release>`.
std::vector<std::string> KernelBuildConfigCandidates(const std::string& image,
                                                     const std::string& modules_dir,
                                                     const std::string& release);

/// Checks a build from its files alone, writing nothing: `image` (as the user wrote it) is a
/// bzImage; `modroot` (empty: none) holds lib/modules/<release>, or is that directory itself; a
/// config is found; without modules, kBuiltInGuestOptions are built in. The entry's hash covers
/// the image's and config's bytes and the modules' names, sizes and times, so a rebuild gets an
/// entry of its own. err: one line naming what is wrong (for exit 2).
[[nodiscard]] bool InspectKernelBuild(const std::string& image, const std::string& modroot,
                                      KernelBuild* build, std::string* err);

/// The build's cache entry (`cache_dir`/build.entry), copied there when it is not yet: the image
/// as boot/vmlinuz-<release>, the config as boot/config-<release>, the modules' files and
/// directories (not their links: `build` and `source` point into the user's tree) under
/// lib/modules/<release>, decompressed and indexed there (IndexKernelModules), then renamed
/// into place. `*copied` says whether it was copied now.
[[nodiscard]] bool CacheKernelBuild(const std::string& cache_dir, const KernelBuild& build,
                                    CachedKernel* kernel, bool* copied, std::string* err);

}  // namespace elevbench
