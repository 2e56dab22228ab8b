// `elevbench disk serve` (the emulated disk's FUSE daemon, in the foreground: the emulated
// stack starts it) and `elevbench disk profiles`.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/disk/disk_daemon.h"
#include "harness/disk/disk_model.h"

namespace elevbench {
namespace {

// Options of `elevbench disk serve`.
struct DiskServeOptions {
  std::string backing;
  std::string mountpoint;
  std::string profile = "ide-2003";
  std::vector<std::string> settings;
  std::string trace;
  bool profiles_json = false;  // `disk profiles --json`
};

int DiskServeCommand(const DiskServeOptions& o) {
  DiskDaemonOptions d;
  d.backing_path = o.backing;
  d.mountpoint = o.mountpoint;
  d.trace_path = o.trace;
  std::string err;
  if (!LookupDiskProfile(o.profile, &d.profile, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  for (const std::string& s : o.settings) {
    if (!ApplyDiskOverride(s, &d.profile, &err)) {
      PrintError("--set: " + err);
      return kExitUsage;
    }
  }
  if (!ValidateDiskProfile(d.profile, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const int rc = RunDiskDaemon(d, &err);
  if (rc != 0) PrintError("disk: " + err);
  return rc == 0 ? kExitOk : kExitFailure;
}

int DiskProfilesCommand(bool json) {
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    all.push_back(DiskProfileToJson(p));
  }
  if (json) {
    std::cout << all.dump(2) << "\n";
  } else {
    for (const auto& p : all) std::cout << p.dump() << "\n";
  }
  return kExitOk;
}

}  // namespace

SubcommandRunner AddDiskSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto o = std::make_shared<DiskServeOptions>();
  CLI::App* serve = cmd->add_subcommand("serve", "Serve an image file through the model");
  serve->add_option("--backing", o->backing, "Backing image file (best on tmpfs)")->required();
  serve->add_option("--mount", o->mountpoint, "Empty directory to mount on")->required();
  serve->add_option("--profile", o->profile, "ide-2003 (default), sata-7200, ssd");
  serve->add_option("--set", o->settings, "Override a model parameter (key=value)");
  serve->add_option("--trace", o->trace, "Per-request trace file");
  CLI::App* profiles = cmd->add_subcommand("profiles", "List the disk profiles");
  profiles->add_flag("--json", o->profiles_json, "JSON output");
  return
      [o, serve] { return *serve ? DiskServeCommand(*o) : DiskProfilesCommand(o->profiles_json); };
}

}  // namespace elevbench
