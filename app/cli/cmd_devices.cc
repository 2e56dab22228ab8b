// `elevbench devices` and `elevbench restore`: the machine's block devices, and the undo of what
// a killed run left behind.

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/restore_journal.h"
#include "reporters/devices_text.h"

namespace elevbench {
namespace {

int DevicesCommand(bool json) {
  std::vector<BlockDeviceInfo> devices;
  std::string err;
  if (!ListBlockDevices(SystemPaths{}, &devices, &err)) return ErrorExit(err, kExitFailure);
  std::cout << (json ? BlockDevicesJson(devices).dump(2) + "\n" : RenderBlockDevicesText(devices));
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
  if (!ok) return ErrorExit(err, kExitFailure);
  if (log.empty()) std::printf("nothing to restore\n");
  return kExitOk;
}

}  // namespace

SubcommandRunner AddDevicesSubcommand(CLI::App* cmd, const std::string&) {
  auto json = std::make_shared<bool>(false);
  AddJsonFlag(cmd, json.get(), "JSON output");
  return [json] { return DevicesCommand(*json); };
}

SubcommandRunner AddRestoreSubcommand(CLI::App*, const std::string&) { return RestoreCommand; }

}  // namespace elevbench
