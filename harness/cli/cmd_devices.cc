// `elevbench devices` and `elevbench restore`: the machine's block devices, and the undo of what
// a killed run left behind.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/restore_journal.h"

namespace elevbench {
namespace {

int DevicesCommand(bool json) {
  std::vector<BlockDeviceInfo> devices;
  std::string err;
  if (!ListBlockDevices(SystemPaths{}, &devices, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  if (json) {
    nlohmann::json all = nlohmann::json::array();
    for (const BlockDeviceInfo& d : devices) all.push_back(ToJson(d));
    std::cout << all.dump(2) << "\n";
    return kExitOk;
  }
  std::printf("%-10s %-24s %9s %-4s %-32s %7s %8s  %s\n", "DEVICE", "MODEL", "SIZE", "ROT",
              "SCHEDULERS", "NR_REQ", "RA_KB", "MOUNTED");
  for (const BlockDeviceInfo& d : devices) {
    std::string scheds;
    for (const std::string& s : d.available_schedulers) {
      if (!scheds.empty()) scheds += " ";
      scheds += s == d.current_scheduler ? "[" + s + "]" : s;
    }
    if (scheds.empty()) scheds = "(none: bio-based)";
    std::string mounts;
    for (const MountInfo& m : d.mounts) {
      if (!mounts.empty()) mounts += ", ";
      mounts += m.mountpoint + " (" + m.fstype + ")";
    }
    if (d.is_loop && !d.loop_backing_file.empty()) {
      mounts += (mounts.empty() ? "" : "; ") + std::string("backs ") + d.loop_backing_file;
    }
    char size[32];
    std::snprintf(size, sizeof size, "%.1fG", static_cast<double>(d.size_bytes) / (1 << 30));
    std::printf("%-10s %-24.24s %9s %-4s %-32s %7s %8s  %s\n", d.name.c_str(),
                d.model.empty() ? "-" : d.model.c_str(), size, d.rotational ? "yes" : "no",
                scheds.c_str(), d.nr_requests ? std::to_string(*d.nr_requests).c_str() : "-",
                d.read_ahead_kb ? std::to_string(*d.read_ahead_kb).c_str() : "-", mounts.c_str());
  }
  return kExitOk;
}

int RestoreCommand() {
  if (!RunningAsRoot()) {
    PrintError("restore needs root (it writes sysfs values and removes loop devices)");
    return kExitUsage;
  }
  std::vector<std::string> log;
  std::string err;
  const bool ok = RestoreJournal::ApplyLeftoverJournal(DefaultStateDir(), &log, &err);
  for (const std::string& line : log) std::printf("%s\n", line.c_str());
  if (!ok) {
    PrintError(err);
    return kExitFailure;
  }
  if (log.empty()) std::printf("nothing to restore\n");
  return kExitOk;
}

}  // namespace

SubcommandRunner AddDevicesSubcommand(CLI::App* cmd, const std::string&) {
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "JSON output");
  return [json] { return DevicesCommand(*json); };
}

SubcommandRunner AddRestoreSubcommand(CLI::App*, const std::string&) { return RestoreCommand; }

}  // namespace elevbench
