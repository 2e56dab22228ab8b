#include "harness/guest/kernel_build.h"

#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"

namespace elevbench {
namespace fs = std::filesystem;

const char* const kBuiltInGuestOptions[4] = {"CONFIG_VIRTIO_PCI", "CONFIG_VIRTIO_FS",
                                             "CONFIG_BLK_DEV_LOOP", "CONFIG_FUSE_FS"};

namespace {

// The setup header's fields (Documentation/arch/x86/boot.rst).
constexpr size_t kHeaderMagicOffset = 0x202;  // "HdrS"
constexpr size_t kKernelVersionOffset = 0x20E;
constexpr size_t kKernelVersionBase = 0x200;
constexpr size_t kMostVersionLength = 256;

// A release as `uname -r` prints it: letters, digits, '.', '_', '+', '-', '~'.
bool ReleaseCharactersOk(const std::string& release) {
  for (char c : release) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '+' || c == '-' || c == '~';
    if (!ok) return false;
  }
  return !release.empty() && release.size() <= 64;
}

// FNV-1a, 64 bits, fed piece by piece: a cache entry's name, not a security boundary.
struct Fnv1a {
  uint64_t h = 14695981039346656037ULL;
  void Add(const char* data, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      h ^= static_cast<unsigned char>(data[i]);
      h *= 1099511628211ULL;
    }
  }
  void Add(const std::string& s) { Add(s.data(), s.size() + 1); }  // with its NUL: a separator
  bool AddFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) Add(buf, static_cast<size_t>(in.gcount()));
    return true;
  }
};

// The files and directories under `dir` (not its links), relative, sorted.
std::vector<fs::path> TreeWithoutLinks(const std::string& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (it->is_symlink()) continue;
    out.push_back(fs::relative(it->path(), dir));
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The entry's hash: the image's and config's bytes, the modules' names, sizes and times.
bool BuildHash(const KernelBuild& b, std::string* hex, std::string* err) {
  Fnv1a h;
  if (!h.AddFile(b.image)) return Fail(err, "cannot read " + b.image);
  if (!h.AddFile(b.config)) return Fail(err, "cannot read " + b.config);
  if (!b.modules_dir.empty()) {
    for (const fs::path& rel : TreeWithoutLinks(b.modules_dir)) {
      const fs::path p = fs::path(b.modules_dir) / rel;
      std::error_code ec;
      const bool file = fs::is_regular_file(p, ec);
      h.Add(rel.string());
      h.Add(std::to_string(file ? fs::file_size(p, ec) : 0));
      h.Add(std::to_string(fs::last_write_time(p, ec).time_since_epoch().count()));
    }
  }
  char digest[17];
  std::snprintf(digest, sizeof digest, "%016" PRIx64, h.h);
  *hex = std::string(digest).substr(0, 8);
  return true;
}

// MODROOT's lib/modules/<release>, or MODROOT itself when it is that directory.
bool FindBuildModules(const std::string& modroot, const std::string& release,
                      const std::string& image, std::string* modules_dir, std::string* err) {
  std::error_code ec;
  const fs::path root = fs::absolute(modroot, ec).lexically_normal();
  const fs::path below = root / "lib" / "modules" / release;
  std::string base = root.string();
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  if (fs::is_directory(below, ec)) {
    *modules_dir = below.string();
  } else if (fs::path(base).filename() == release && fs::is_directory(base, ec)) {
    *modules_dir = base;
  } else {
    return Fail(err, modroot + " has no lib/modules/" + release + " (the release of " + image +
                         "; make modules_install INSTALL_MOD_PATH=" + modroot + " writes it)");
  }
  return true;
}

}  // namespace

bool ReadBzImageRelease(const std::string& path, std::string* release, std::string* err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Fail(err, "cannot read " + path);
  std::string head(0x10000 + kKernelVersionBase + kMostVersionLength, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  if (head.size() < kKernelVersionOffset + 2 || head.compare(kHeaderMagicOffset, 4, "HdrS") != 0) {
    return Fail(err, path + " is no bzImage (no \"HdrS\" at 0x202: give an x86 kernel image such " +
                         "as arch/x86/boot/bzImage, not vmlinux)");
  }
  const size_t pointer =
      static_cast<unsigned char>(head[kKernelVersionOffset]) |
      static_cast<size_t>(static_cast<unsigned char>(head[kKernelVersionOffset + 1])) << 8;
  const size_t at = pointer + kKernelVersionBase;
  if (pointer == 0 || at >= head.size()) {
    return Fail(err, path + " is a bzImage without a version string (kernel_version at 0x20E)");
  }
  const size_t nul = head.find('\0', at);
  const std::string version = head.substr(at, (nul == std::string::npos ? head.size() : nul) - at);
  const std::string first = version.substr(0, version.find(' '));
  if (!ReleaseCharactersOk(first)) {
    return Fail(err, path + "'s version string names no release ('" +
                         version.substr(0, std::min<size_t>(version.size(), 40)) + "')");
  }
  *release = first;
  return true;
}

std::vector<std::string> KernelBuildConfigCandidates(const std::string& image,
                                                     const std::string& modules_dir,
                                                     const std::string& release) {
  std::vector<std::string> out;
  std::error_code ec;
  fs::path dir = fs::absolute(image, ec).lexically_normal().parent_path();
  for (int up = 0; up < 4 && !dir.empty(); ++up) {
    out.push_back((dir / ".config").string());
    if (dir == dir.root_path()) break;
    dir = dir.parent_path();
  }
  if (!modules_dir.empty()) out.push_back(modules_dir + "/build/.config");
  out.push_back("/boot/config-" + release);
  return out;
}

bool InspectKernelBuild(const std::string& image, const std::string& modroot, KernelBuild* build,
                        std::string* err) {
  KernelBuild b;
  std::error_code ec;
  if (!fs::is_regular_file(image, ec)) return Fail(err, image + ": no such file");
  b.image = fs::absolute(image, ec).lexically_normal().string();
  if (!ReadBzImageRelease(image, &b.release, err)) return false;
  if (!modroot.empty() && !FindBuildModules(modroot, b.release, image, &b.modules_dir, err)) {
    return false;
  }
  const std::vector<std::string> looked =
      KernelBuildConfigCandidates(image, b.modules_dir, b.release);
  for (const std::string& c : looked) {
    if (fs::is_regular_file(c, ec)) {
      b.config = c;
      break;
    }
  }
  std::string config;
  if (b.config.empty() || !ReadKernelConfigText(b.config, &config)) {
    return Fail(err, "no config for " + image + " (looked for " + JoinWith(looked, ", ") + ")");
  }
  b.features = KernelFeaturesFromConfig(config, /*with_modules=*/!b.modules_dir.empty());
  if (b.modules_dir.empty()) {
    std::vector<std::string> missing;
    for (const char* option : kBuiltInGuestOptions) {
      if (!KernelConfigBuiltIn(config, option)) missing.push_back(option);
    }
    if (!missing.empty()) {
      return Fail(err, image + " is given without modules, so the guest needs " +
                           JoinWith(missing, ", ") + "=y (its config " + b.config +
                           " has them as modules or not at all): give its modules as " +
                           "image:IMAGE:MODROOT (make modules_install INSTALL_MOD_PATH=MODROOT)");
    }
  }
  std::string hash;
  if (!BuildHash(b, &hash, err)) return false;
  b.entry = "image-" + b.release + "-" + hash;
  *build = std::move(b);
  return true;
}

namespace {

// The build's files in `root`, laid out as a Debian package unpacks: boot/, lib/modules/.
bool StageKernelBuild(const KernelBuild& b, const std::string& root, std::string* err) {
  std::error_code ec;
  const std::string mods = root + "/lib/modules/" + b.release;
  fs::create_directories(root + "/boot", ec);
  fs::create_directories(mods, ec);
  if (ec) return Fail(err, "cannot make " + root + ": " + ec.message());
  fs::copy_file(b.image, root + "/boot/vmlinuz-" + b.release, ec);
  if (!ec) fs::copy_file(b.config, root + "/boot/config-" + b.release, ec);
  if (ec) return Fail(err, "cannot copy " + b.image + " into the cache: " + ec.message());
  if (!b.modules_dir.empty()) {
    for (const fs::path& rel : TreeWithoutLinks(b.modules_dir)) {
      const fs::path from = fs::path(b.modules_dir) / rel;
      const fs::path to = fs::path(mods) / rel;
      if (fs::is_directory(from, ec)) {
        fs::create_directories(to, ec);
      } else if (fs::is_regular_file(from, ec)) {
        fs::copy_file(from, to, ec);
      }
      if (ec) return Fail(err, "cannot copy " + from.string() + ": " + ec.message());
    }
  }
  std::ofstream note(root + "/build.txt");
  note << "image " << b.image << "\nconfig " << b.config << "\nmodules "
       << (b.modules_dir.empty() ? "(none)" : b.modules_dir) << "\n";
  if (!note) return Fail(err, "cannot write " + root + "/build.txt");
  return true;
}

}  // namespace

bool CacheKernelBuild(const std::string& cache_dir, const KernelBuild& build, CachedKernel* kernel,
                      bool* copied, std::string* err) {
  *copied = false;
  std::string ignored;
  if (FindCachedKernel(cache_dir, build.entry, kernel, &ignored)) return true;
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  if (ec) return Fail(err, "cannot make " + cache_dir + ": " + ec.message());
  const std::string tmp = cache_dir + "/.build-" + build.entry + "-" + std::to_string(getpid());
  const std::string root = tmp + "/root";
  fs::remove_all(tmp, ec);
  bool ok = StageKernelBuild(build, root, err);
  if (ok && build.modules_dir.empty()) {
    // No modules: an empty index, which the guest's modprobe reads as "none to load".
    std::ofstream(root + "/lib/modules/" + build.release + "/modules.dep").close();
  } else if (ok) {
    ok = IndexKernelModules(root, build.release, err);
  }
  ok = ok && InstallKernelCacheEntry(root, cache_dir, build.entry, err);
  fs::remove_all(tmp, ec);
  if (!ok) return false;
  *copied = true;
  return FindCachedKernel(cache_dir, build.entry, kernel, err);
}

}  // namespace elevbench
