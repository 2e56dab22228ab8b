#include "harness/disk/disk_serve_paths.h"

#include <filesystem>

#include "harness/core/atomic_file.h"
#include "harness/disk/disk_profile_spec.h"

namespace elevbench {

std::string TypedDiskSetFlag(const std::vector<std::string>& words) {
  std::string flag = "--disk-set";
  for (const std::string& word : words) {
    if (word == "--set" || word.starts_with("--set=")) flag = "--set";
    if (word == "--disk-set" || word.starts_with("--disk-set=")) flag = "--disk-set";
  }
  return flag;
}

bool CheckDiskServePaths(const std::string& backing_path, const std::string& mountpoint,
                         std::string* err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status backing = fs::status(backing_path, ec);
  if (!fs::exists(backing)) {
    *err = "--backing " + backing_path +
           ": no such file (give an image file, e.g. one made with "
           "truncate -s 1G)";
    return false;
  }
  if (!fs::is_regular_file(backing) || fs::file_size(backing_path, ec) == 0 || ec) {
    *err = "--backing " + backing_path + ": " +
           (fs::is_directory(backing) ? "is a directory" : "is not a non-empty regular file") +
           " (give an image file, e.g. one made with truncate -s 1G)";
    return false;
  }
  const fs::file_status mount = fs::status(mountpoint, ec);
  if (!fs::is_directory(mount)) {
    *err = "--mount " + mountpoint + ": " +
           (fs::exists(mount) ? "is not a directory" : "no such directory") +
           " (give an existing empty directory)";
    return false;
  }
  return true;
}

bool DiskServeDaemonOptions(const DiskServeConfig& config, const std::vector<std::string>& words,
                            DiskDaemonOptions* options, std::string* err) {
  options->backing_path = config.backing;
  options->mountpoint = config.mountpoint;
  options->trace_path = config.trace;
  return ResolveDiskProfile(config.profile, config.settings, TypedDiskSetFlag(words),
                            &options->profile, err) &&
         (config.trace.empty() ||
          CheckParentFolderExists("--disk-trace", config.trace, err, "disk.trace")) &&
         CheckDiskServePaths(config.backing, config.mountpoint, err);
}

std::vector<DiskProfile> BuiltInDiskProfiles() {
  std::vector<DiskProfile> profiles;
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (LookupDiskProfile(name, &p, &err)) profiles.push_back(p);
  }
  return profiles;
}

nlohmann::json DiskProfilesToJson(const std::vector<DiskProfile>& profiles) {
  nlohmann::json all = nlohmann::json::array();
  for (const DiskProfile& p : profiles) all.push_back(DiskProfileToJson(p));
  return all;
}

}  // namespace elevbench
