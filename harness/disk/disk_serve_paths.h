#pragma once
// `elevbench disk serve` and `disk profiles` below their command line (app/cli/cmd_disk.cc
// parses the flags into a DiskServeConfig and prints): the daemon's options from the flags,
// every usage error found before the daemon starts (the profile and its overrides, the trace's
// folder, the backing image and the mount point: #45, fourth pass, where the daemon's own check
// failed with exit 1), and the built-in profiles as `disk profiles` lists them. Nothing here
// prints.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "harness/disk/disk_daemon.h"
#include "harness/disk/disk_model.h"

namespace elevbench {

/// The flags of `disk serve`, as the CLI parsed them.
struct DiskServeConfig {
  std::string backing;                ///< --backing: the image file
  std::string mountpoint;             ///< --mount: an existing empty directory
  std::string profile = "ide-2003";   ///< --profile
  std::vector<std::string> settings;  ///< --disk-set (alias --set) key=value, in order
  std::string trace;                  ///< --disk-trace (alias --trace); empty = none
};

/// The spelling of --disk-set the command line's `words` used (--set is its old one), the last
/// given: the one an error names (#45: `--disk-set bogus` was refused as "--set: …"). "--disk-set"
/// when neither is there.
std::string TypedDiskSetFlag(const std::vector<std::string>& words);

/// `disk serve`'s paths: `backing` an existing non-empty regular file, `mountpoint` an existing
/// directory. False with one line naming the flag, what is wrong and what to give (exit 2,
/// before the daemon starts).
[[nodiscard]] bool CheckDiskServePaths(const std::string& backing, const std::string& mountpoint,
                                       std::string* err);

/// The daemon's options of `disk serve` from `config`: the profile resolved with its overrides
/// (an error naming the spelling of --disk-set in `words`, the command line's), the trace's
/// folder checked, then the paths (CheckDiskServePaths). False with err, a usage error, at the
/// first that fails; *options is then unspecified.
[[nodiscard]] bool DiskServeDaemonOptions(const DiskServeConfig& config,
                                          const std::vector<std::string>& words,
                                          DiskDaemonOptions* options, std::string* err);

/// Every built-in profile, in DiskProfileNames' order (`disk profiles`' table and JSON).
std::vector<DiskProfile> BuiltInDiskProfiles();

/// `profiles` as the JSON array `disk profiles --json` prints, one DiskProfileToJson each.
nlohmann::json DiskProfilesToJson(const std::vector<DiskProfile>& profiles);

}  // namespace elevbench
