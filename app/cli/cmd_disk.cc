// `elevbench disk serve` (the emulated disk's FUSE daemon, in the foreground: the emulated
// stack starts it; its options and checks from harness/disk/disk_serve_paths.h), `elevbench
// disk profiles` and `elevbench disk calibrate` (harness/run/disk_calibration_command.h).

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/plain_range.h"
#include "harness/disk/disk_daemon.h"
#include "harness/disk/disk_model.h"
#include "harness/disk/disk_serve_paths.h"
#include "harness/run/disk_calibration_command.h"
#include "reporters/calibration_text.h"
#include "reporters/disk_profiles_text.h"

namespace elevbench {
namespace {

constexpr const char* kDiskSetHelp =
    "Override a model parameter (key=value, units as in `disk profiles --json`), repeatable "
    "(default: none)";

// Options of `elevbench disk`: serve's (harness/disk/disk_serve_paths.h), profiles' and
// calibrate's.
struct DiskServeOptions {
  DiskServeConfig serve;
  bool profiles_json = false;  // `disk profiles --json`
  CalibrationJobConfig calibrate;
  bool calibrate_json = false;
};

int DiskServeCommand(const DiskServeConfig& config) {
  DiskDaemonOptions d;
  std::string err;
  if (!DiskServeDaemonOptions(config, CommandWords(), &d, &err)) return ErrorExit(err);
  const int rc = RunDiskDaemon(d, &err);
  if (rc != 0) PrintError("disk: " + err);
  return rc == 0 ? kExitOk : kExitFailure;
}

// A table for people (reporters/disk_profiles_text.h), the profiles' JSON with --json.
int DiskProfilesCommand(bool json) {
  const std::vector<DiskProfile> profiles = BuiltInDiskProfiles();
  std::cout << (json ? DiskProfilesToJson(profiles).dump(2) + "\n"
                     : RenderDiskProfilesTable(profiles));
  return kExitOk;
}

// The calibration's steps (harness/run/disk_calibration_command.h), each failure its exit code;
// 1 also when a claimed figure is off.
int DiskCalibrateCommand(const CalibrationJobConfig& config, bool json) {
  CalibrationResult result;
  RunFailure failure = RunFailure::kNone;
  if (!CalibrateEmulatedDrive(config, PrintError, &result, &failure)) return ExitCodeOf(failure);
  std::cout << (json ? CalibrationResultToJson(result).dump(2) + "\n"
                     : RenderCalibrationText(result));
  return ExitCodeOf(failure);
}

void AddCalibrateOptions(CLI::App* calibrate, DiskServeOptions* o) {
  calibrate->footer(NestedExitCodes("disk calibrate"));
  AddPlainOptions(calibrate,
                  {{"profile", "PROFILE[:SIZE]",
                    "PROFILE[:SIZE] (default size 4G; the image is the model's whole stroke "
                    "unless --disk-set capacity_bytes= says otherwise)",
                    &o->calibrate.emulated, true},
                   {"--disk-set", "KEY=VALUE", kDiskSetHelp, &o->calibrate.disk_set}});
  calibrate
      ->add_option(
          "--runtime", o->calibrate.runtime_seconds,
          "Seconds of fio a check; a check held against a published measurement of its own length "
          "(st2000dm006's random writes: 30 s) runs at least that long (default: 10)")
      ->default_val(10)
      ->check(PlainRange(1.0, 3600.0, "seconds"));
  AddJsonFlag(calibrate, &o->calibrate_json, "One JSON object instead of the table");
}

}  // namespace

SubcommandRunner AddDiskSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto o = std::make_shared<DiskServeOptions>();
  CLI::App* serve = cmd->add_subcommand("serve", "Serve an image file through the model");
  serve->footer(NestedExitCodes("disk serve"));
  AddPlainOptions(
      serve, {{"--backing", "FILE", "Backing image file (best on tmpfs)", &o->serve.backing, true},
              {"--mount", "DIR", "Empty directory to mount on", &o->serve.mountpoint, true},
              {"--profile", "PROFILE",
               "Disk profile (default: ide-2003; `disk profiles` lists them)", &o->serve.profile},
              {"--disk-set,--set", "KEY=VALUE", kDiskSetHelp, &o->serve.settings},
              {"--disk-trace,--trace", "FILE",
               "Per-request trace file, as run's --disk-trace (default: none)", &o->serve.trace}});
  CLI::App* profiles =
      cmd->add_subcommand("profiles", "Print the emulated-disk profiles as a table, with units");
  profiles->footer(NestedExitCodes("disk profiles"));
  AddJsonFlag(profiles, &o->profiles_json, "The profiles as a JSON array instead");
  CLI::App* calibrate = cmd->add_subcommand(
      "calibrate",
      "Measure an emulated drive with fio and hold it against the real drive's figures");
  AddCalibrateOptions(calibrate, o.get());
  return [o, serve, calibrate] {
    if (*serve) return DiskServeCommand(o->serve);
    if (*calibrate) return DiskCalibrateCommand(o->calibrate, o->calibrate_json);
    return DiskProfilesCommand(o->profiles_json);
  };
}

}  // namespace elevbench
