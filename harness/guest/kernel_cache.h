#pragma once
// The kernels a run can boot in a guest (docs/kernels.md): Debian's kernel packages fetched with
// the ordinary Debian client (`apt-get download`) into a cache and unpacked there with
// `dpkg-deb -x`, never installed on the host; their modules decompressed and indexed
// (`busybox depmod`) so that the guest's busybox loads them. What a kernel can do (its
// schedulers, its cgroup I/O controllers) is read from its config, so a run refuses, before any
// guest boots, a scheduler the kernel under test does not have.

#include <string>
#include <vector>

namespace elevbench {

/// What a kernel's config offers the runs: each `=y` or `=m` of the options below.
struct KernelFeatures {
  std::vector<std::string> schedulers;      ///< "none", "mq-deadline", "kyber", "bfq"
  std::vector<std::string> io_controllers;  ///< "throttle", "iocost", "iolatency", "bfq-weight"
  bool virtiofs = false;  ///< CONFIG_VIRTIO_FS: the guest reaches the host's files
  bool loop = false;      ///< CONFIG_BLK_DEV_LOOP: the emulated disk's loop device
  bool fuse = false;      ///< CONFIG_FUSE_FS: the emulated disk's daemon
  /// The filesystems a run can make and mount: "ext2" (CONFIG_EXT2_FS, or ext4's driver with
  /// CONFIG_EXT4_USE_FOR_EXT2, as Debian builds it), "ext4", "xfs".
  std::vector<std::string> filesystems;
  /// Which of the above (schedulers, filesystems, "loop", "fuse") the kernel has as modules
  /// (`=m`): loaded in a guest when the kernel asks (harness/guest/guest_boot.cc).
  std::vector<std::string> as_modules;
};

/// What a kernel offers in one line for a person, before its first cell: "schedulers none,
/// mq-deadline, kyber, bfq; filesystems ext2, ext4, xfs; loop, FUSE; I/O controllers throttle,
/// iocost; as modules: bfq, ext4, xfs (loaded when the kernel asks)".
std::string KernelOffersWords(const KernelFeatures& features);

/// The features of a kernel config's text (`boot/config-*`). `with_modules` false: only what is
/// built in (`=y`) counts, for a kernel given without a modules tree, which can load none.
KernelFeatures KernelFeaturesFromConfig(const std::string& config_text, bool with_modules = true);

/// Whether `option` ("CONFIG_VIRTIO_FS") is built in (`=y`) in a config's text: what a kernel
/// without modules must have for the guest to reach the host's files.
bool KernelConfigBuiltIn(const std::string& config_text, const std::string& option);

/// Reads a whole kernel config (or any text file) into `*text`; false when it cannot be opened.
[[nodiscard]] bool ReadKernelConfigText(const std::string& path, std::string* text);

/// A kernel unpacked in the cache: its files and what it offers.
struct CachedKernel {
  std::string package;      ///< "linux-image-6.1.0-50-cloud-amd64"; a build's entry name
  std::string source;       ///< "debian" (a package) or "build" (a user's bzImage, "image-…")
  std::string release;      ///< `uname -r` in the guest: "6.1.0-50-cloud-amd64"
  std::string directory;    ///< the unpacked package: boot/, lib/modules/<release>/
  std::string image;        ///< boot/vmlinuz-<release> (or the user's bzImage)
  std::string modules_dir;  ///< lib/modules/<release>, indexed for busybox's modprobe
  KernelFeatures features;
};

/// Where kernels are cached: $ELEVBENCH_KERNEL_CACHE, else /var/cache/elevbench/kernels as root,
/// else $XDG_CACHE_HOME/elevbench/kernels or ~/.cache/elevbench/kernels.
std::string DefaultKernelCacheDir();

/// The default row prefix of a kernel (the 2003 posts' "2.5.62-mm2"): its release without the
/// architecture ("-amd64") and Debian's "+debNN": "6.1.0-50-cloud-amd64" → "6.1.0-50-cloud",
/// "6.12.118+deb12-cloud-amd64" → "6.12.118-cloud".
std::string KernelRowLabel(const std::string& release);

/// Reads the cached kernel of `package` (the directory `cache_dir`/`package`). False with
/// "kernel PACKAGE is not cached (elevbench kernels fetch debian:PACKAGE)" when it is not there,
/// or a line naming what is missing when the directory is incomplete.
[[nodiscard]] bool FindCachedKernel(const std::string& cache_dir, const std::string& package,
                                    CachedKernel* kernel, std::string* err);

/// Whether `package` is shaped as a Debian kernel image package that holds a kernel:
/// "linux-image-<release>", the release of lower-case letters, digits, '+', '-' and '.', from a
/// digit to a letter or digit, and not "-dbg" (debug symbols). err (one line, no flag) names
/// the word and how to list the packages there are: a metapackage (linux-image-amd64) says so.
[[nodiscard]] bool CheckDebianKernelPackageName(const std::string& package, std::string* err);

/// The one line for a kernel package this machine's package lists do not know: how to list
/// those there are (apt-cache search) and the cached ones (elevbench kernels).
std::string UnknownKernelPackageLine(const std::string& package);

/// Fetches `package` with `apt-get download` into a temporary directory beside the cache, unpacks
/// it, decompresses its modules, indexes them and renames it into place, so a cache entry is
/// whole or absent. Bounded: each tool runs under RunChecked's deadline. Refuses, before the
/// cache is made, a name of the wrong shape (CheckDebianKernelPackageName) and one the package
/// lists do not know (UnknownKernelPackageLine, also when apt-get says so).
[[nodiscard]] bool FetchDebianKernel(const std::string& cache_dir, const std::string& package,
                                     CachedKernel* kernel, std::string* err);

/// Whether this machine's Debian package lists know `package` (`apt-cache show`, bounded): a
/// name `kernels fetch` can download. False with err when apt-cache could not be asked or failed
/// otherwise than with "No packages found" (its exit 100).
[[nodiscard]] bool DebianPackageKnown(const std::string& package, bool* known, std::string* err);

/// Decompresses every module under `root`/lib/modules/`release` (.ko.xz since Linux 6.2, .ko.gz,
/// .ko.zst: busybox's modprobe loads plain .ko) and indexes them with `busybox depmod -b root`.
/// Runs only on a tree the cache owns (it rewrites the files in place), bounded by RunChecked.
[[nodiscard]] bool IndexKernelModules(const std::string& root, const std::string& release,
                                      std::string* err);

/// Moves the whole tree `staged` to `cache_dir`/`name` (a rename on the cache's filesystem,
/// replacing an older entry of that name), so an entry is whole or absent.
[[nodiscard]] bool InstallKernelCacheEntry(const std::string& staged, const std::string& cache_dir,
                                           const std::string& name, std::string* err);

/// Every kernel in the cache, by package name. An unreadable entry is skipped.
std::vector<CachedKernel> ListCachedKernels(const std::string& cache_dir);

}  // namespace elevbench
