#include "harness/guest/kernel_cache.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "harness/core/error.h"
#include "harness/core/strings.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace fs = std::filesystem;
namespace {

// Whether `option` is built in, or (with `with_modules`) a module, in the config text.
bool KernelConfigHas(const std::string& config_text, const std::string& option,
                     bool with_modules = true) {
  for (const char* value : {"=y\n", "=m\n"}) {
    if (!with_modules && std::string(value) == "=m\n") continue;
    if (config_text.find("\n" + option + value) != std::string::npos) return true;
    if (config_text.rfind(option + value, 0) == 0) return true;
  }
  return false;
}

// The one release under `dir`/lib/modules, or "" when there is none or more than one.
std::string OnlyModulesRelease(const std::string& dir) {
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir + "/lib/modules", ec)) {
    if (e.is_directory()) names.push_back(e.path().filename().string());
  }
  return names.size() == 1 ? names[0] : "";
}

// The tools that decompress a module, by the module's suffix.
struct ModuleCompression {
  const char* suffix;
  std::vector<std::string> argv;
};

const ModuleCompression kModuleCompressions[] = {{".ko.xz", {"xz", "-d", "-f"}},
                                                 {".ko.gz", {"gzip", "-d", "-f"}},
                                                 {".ko.zst", {"zstd", "-d", "-f", "-q", "--rm"}}};

}  // namespace

bool ReadKernelConfigText(const std::string& path, std::string* text) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream s;
  s << in.rdbuf();
  *text = s.str();
  return true;
}

bool KernelConfigBuiltIn(const std::string& config_text, const std::string& option) {
  return KernelConfigHas(config_text, option, /*with_modules=*/false);
}

bool IndexKernelModules(const std::string& root, const std::string& release, std::string* err) {
  for (const ModuleCompression& c : kModuleCompressions) {
    std::vector<std::string> compressed;
    std::error_code ec;
    for (const auto& e : fs::recursive_directory_iterator(root + "/lib/modules/" + release, ec)) {
      const std::string p = e.path().string();
      if (e.is_regular_file() && p.ends_with(c.suffix)) compressed.push_back(p);
    }
    for (size_t i = 0; i < compressed.size(); i += 200) {
      std::vector<std::string> argv = c.argv;
      const size_t end = std::min(compressed.size(), i + 200);
      argv.insert(argv.end(), compressed.begin() + i, compressed.begin() + end);
      std::string out;
      if (!RunChecked(argv, &out, err)) return false;
    }
  }
  std::string out;
  return RunChecked({"busybox", "depmod", "-b", root, release}, &out, err);
}

bool InstallKernelCacheEntry(const std::string& staged, const std::string& cache_dir,
                             const std::string& name, std::string* err) {
  std::error_code ec;
  fs::remove_all(cache_dir + "/" + name, ec);
  fs::rename(staged, cache_dir + "/" + name, ec);
  if (ec) return Fail(err, "cannot move the kernel into " + cache_dir + ": " + ec.message());
  return true;
}

KernelFeatures KernelFeaturesFromConfig(const std::string& config_text, bool with_modules) {
  KernelFeatures f;
  f.schedulers.push_back("none");
  const std::pair<const char*, const char*> schedulers[] = {
      {"CONFIG_MQ_IOSCHED_DEADLINE", "mq-deadline"},
      {"CONFIG_MQ_IOSCHED_KYBER", "kyber"},
      {"CONFIG_IOSCHED_BFQ", "bfq"}};
  for (const auto& [option, name] : schedulers) {
    if (KernelConfigHas(config_text, option, with_modules)) f.schedulers.push_back(name);
  }
  const std::pair<const char*, const char*> controllers[] = {
      {"CONFIG_BLK_DEV_THROTTLING", "throttle"},
      {"CONFIG_BLK_CGROUP_IOCOST", "iocost"},
      {"CONFIG_BLK_CGROUP_IOLATENCY", "iolatency"},
      {"CONFIG_BFQ_GROUP_IOSCHED", "bfq-weight"}};
  for (const auto& [option, name] : controllers) {
    if (KernelConfigHas(config_text, option, with_modules)) f.io_controllers.push_back(name);
  }
  f.virtiofs = KernelConfigHas(config_text, "CONFIG_VIRTIO_FS", with_modules);
  f.loop = KernelConfigHas(config_text, "CONFIG_BLK_DEV_LOOP", with_modules);
  f.fuse = KernelConfigHas(config_text, "CONFIG_FUSE_FS", with_modules);
  const bool ext4 = KernelConfigHas(config_text, "CONFIG_EXT4_FS", with_modules);
  if (KernelConfigHas(config_text, "CONFIG_EXT2_FS", with_modules) ||
      (ext4 && KernelConfigBuiltIn(config_text, "CONFIG_EXT4_USE_FOR_EXT2"))) {
    f.filesystems.push_back("ext2");
  }
  if (ext4) f.filesystems.push_back("ext4");
  if (KernelConfigHas(config_text, "CONFIG_XFS_FS", with_modules)) f.filesystems.push_back("xfs");
  if (!with_modules) return f;
  const std::pair<const char*, const char*> modular[] = {
      {"CONFIG_MQ_IOSCHED_DEADLINE", "mq-deadline"},
      {"CONFIG_MQ_IOSCHED_KYBER", "kyber"},
      {"CONFIG_IOSCHED_BFQ", "bfq"},
      {"CONFIG_EXT4_FS", "ext4"},
      {"CONFIG_EXT2_FS", "ext2"},
      {"CONFIG_XFS_FS", "xfs"},
      {"CONFIG_BLK_DEV_LOOP", "loop"},
      {"CONFIG_FUSE_FS", "fuse"}};
  for (const auto& [option, name] : modular) {
    if (KernelConfigHas(config_text, option) && !KernelConfigBuiltIn(config_text, option)) {
      f.as_modules.push_back(name);
    }
  }
  return f;
}

std::string KernelOffersWords(const KernelFeatures& f) {
  std::string words = "schedulers " + JoinWith(f.schedulers, ", ") + "; filesystems " +
                      (f.filesystems.empty() ? "none" : JoinWith(f.filesystems, ", "));
  std::vector<std::string> devices;
  if (f.loop) devices.push_back("loop");
  if (f.fuse) devices.push_back("FUSE");
  if (!devices.empty()) words += "; " + JoinWith(devices, ", ");
  if (!f.io_controllers.empty()) words += "; I/O controllers " + JoinWith(f.io_controllers, ", ");
  if (!f.as_modules.empty()) {
    words += "; as modules: " + JoinWith(f.as_modules, ", ") + " (loaded when the kernel asks)";
  }
  return words;
}

std::string DefaultKernelCacheDir() {
  const char* env = std::getenv("ELEVBENCH_KERNEL_CACHE");
  if (env && *env) return env;
  if (geteuid() == 0) return "/var/cache/elevbench/kernels";
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg == '/') return std::string(xdg) + "/elevbench/kernels";
  const char* home = std::getenv("HOME");
  if (home && *home == '/') return std::string(home) + "/.cache/elevbench/kernels";
  return "/tmp/elevbench-kernels-" + std::to_string(geteuid());
}

std::string KernelRowLabel(const std::string& release) {
  std::string label = release;
  const size_t deb = label.find("+deb");
  if (deb != std::string::npos) {
    const size_t end = label.find('-', deb);
    label.erase(deb, end == std::string::npos ? std::string::npos : end - deb);
  }
  for (const char* arch : {"-amd64", "-arm64", "-686-pae", "-686"}) {
    const std::string a = arch;
    if (label.size() > a.size() && label.compare(label.size() - a.size(), a.size(), a) == 0) {
      label.erase(label.size() - a.size());
      break;
    }
  }
  return label;
}

bool FindCachedKernel(const std::string& cache_dir, const std::string& package,
                      CachedKernel* kernel, std::string* err) {
  const std::string dir = cache_dir + "/" + package;
  if (!fs::is_directory(dir)) {
    return Fail(err, "kernel " + package + " is not cached in " + cache_dir +
                         " (elevbench kernels fetch debian:" + package + ")");
  }
  CachedKernel k;
  k.package = package;
  k.source = package.rfind("image-", 0) == 0 ? "build" : "debian";
  k.directory = dir;
  k.release = OnlyModulesRelease(dir);
  if (k.release.empty()) return Fail(err, "kernel cache " + dir + " has no one lib/modules/*");
  k.image = dir + "/boot/vmlinuz-" + k.release;
  k.modules_dir = dir + "/lib/modules/" + k.release;
  if (!fs::exists(k.image)) return Fail(err, "kernel cache " + dir + " has no " + k.image);
  if (!fs::exists(k.modules_dir + "/modules.dep")) {
    return Fail(err, "kernel cache " + dir + " has no modules.dep (fetch it again)");
  }
  std::string config;
  if (!ReadKernelConfigText(dir + "/boot/config-" + k.release, &config)) {
    return Fail(err, "kernel cache " + dir + " has no boot/config-" + k.release);
  }
  // A build given without modules has an empty index: only what is built in counts.
  std::error_code ec;
  const bool with_modules =
      k.source != "build" || fs::file_size(k.modules_dir + "/modules.dep", ec) > 0 || ec;
  k.features = KernelFeaturesFromConfig(config, with_modules);
  *kernel = std::move(k);
  return true;
}

bool DebianPackageKnown(const std::string& package, bool* known, std::string* err) {
  ProcessOptions options;
  options.timeout_seconds = 60;
  ProcessResult result;
  if (!RunProcess({"apt-cache", "show", "--no-all-versions", package}, options, &result, err)) {
    return false;
  }
  if (result.timed_out) return Fail(err, "apt-cache show " + package + " timed out");
  // Unknown only when apt-cache says so (its exit 100, "E: No packages found"), not when it
  // could not run at all.
  *known = result.exit_code == 0;
  if (!*known && result.exit_code != 100) {
    return Fail(err, "apt-cache show " + package + " failed: " + LastLine(result.error_output));
  }
  return true;
}

bool CheckDebianKernelPackageName(const std::string& package, std::string* err) {
  const std::string prefix = "linux-image-";
  const std::string release = package.rfind(prefix, 0) == 0 ? package.substr(prefix.size()) : "";
  const std::string list = "apt-cache search --names-only '^linux-image-[0-9]' lists them";
  const std::string word = "'debian:" + package + "'";
  bool chars_ok = !release.empty();
  for (char c : release) {
    chars_ok = chars_ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
                            c == '-' || c == '.');
  }
  const char last = release.empty() ? '-' : release.back();
  if (!chars_ok || !((last >= 'a' && last <= 'z') || (last >= '0' && last <= '9'))) {
    return Fail(err, word +
                         " names no kernel image package: linux-image-<release>, e.g. "
                         "linux-image-6.1.0-50-cloud-amd64 (" +
                         list + ")");
  }
  if (release[0] < '0' || release[0] > '9') {
    return Fail(err, word + " is a metapackage, which holds no kernel: name the " +
                         "linux-image-<release> it depends on (" + list + ")");
  }
  if (release.ends_with("-dbg")) {
    return Fail(err, word + " holds a kernel's debug symbols, not the kernel: leave out -dbg");
  }
  return true;
}

std::string UnknownKernelPackageLine(const std::string& package) {
  return "debian:" + package +
         ": no such kernel package in this machine's Debian package lists (apt-cache search "
         "--names-only '^linux-image-[0-9]' lists those there are, elevbench kernels the cached "
         "ones)";
}

bool FetchDebianKernel(const std::string& cache_dir, const std::string& package,
                       CachedKernel* kernel, std::string* err) {
  // The name's shape, then the package lists, before the cache is made or apt-get downloads
  // (issue 57 §4.2: apt's own "Couldn't find any package by regex" lines were the answer).
  if (!CheckDebianKernelPackageName(package, err)) return false;
  bool known = true;
  std::string why;
  if (DebianPackageKnown(package, &known, &why) && !known) {
    return Fail(err, UnknownKernelPackageLine(package));
  }
  std::error_code ec;
  fs::create_directories(cache_dir, ec);
  if (ec) return Fail(err, "cannot make " + cache_dir + ": " + ec.message());
  const std::string tmp = cache_dir + "/.fetch-" + package + "-" + std::to_string(getpid());
  fs::remove_all(tmp, ec);
  fs::create_directories(tmp + "/root", ec);
  if (ec) return Fail(err, "cannot make " + tmp + ": " + ec.message());
  ProcessOptions options;
  options.working_directory = tmp;
  options.timeout_seconds = 900;
  ProcessResult result;
  bool ok = RunProcess({"apt-get", "download", "-q", package}, options, &result, err);
  if (ok && result.exit_code != 0) {
    const std::string& apt = result.error_output;
    const bool unknown = apt.find("Unable to locate package") != std::string::npos ||
                         apt.find("Couldn't find any package") != std::string::npos;
    ok = Fail(err, unknown ? UnknownKernelPackageLine(package)
                           : "apt-get download " + package + " failed: " + LastLine(apt));
  }
  std::string deb;
  for (const auto& e : fs::directory_iterator(tmp, ec)) {
    if (e.path().extension() == ".deb") deb = e.path().string();
  }
  if (ok && deb.empty()) ok = Fail(err, "apt-get download " + package + " gave no .deb");
  std::string out;
  ok = ok && RunChecked({"dpkg-deb", "-x", deb, tmp + "/root"}, &out, err);
  const std::string release = ok ? OnlyModulesRelease(tmp + "/root") : "";
  if (ok && release.empty()) ok = Fail(err, package + " holds no one lib/modules/<release>");
  ok = ok && IndexKernelModules(tmp + "/root", release, err);
  ok = ok && InstallKernelCacheEntry(tmp + "/root", cache_dir, package, err);
  fs::remove_all(tmp, ec);
  return ok && FindCachedKernel(cache_dir, package, kernel, err);
}

std::vector<CachedKernel> ListCachedKernels(const std::string& cache_dir) {
  std::map<std::string, CachedKernel> found;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(cache_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (!e.is_directory() || name.empty() || name[0] == '.') continue;
    CachedKernel k;
    std::string ignored;
    if (FindCachedKernel(cache_dir, name, &k, &ignored)) found[name] = std::move(k);
  }
  std::vector<CachedKernel> out;
  for (auto& [name, k] : found) out.push_back(std::move(k));
  return out;
}

}  // namespace elevbench
