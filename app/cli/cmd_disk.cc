// `elevbench disk serve` (the emulated disk's FUSE daemon, in the foreground: the emulated
// stack starts it; its profile resolved by harness/disk/disk_profile_spec.h), `elevbench
// disk profiles` and `elevbench disk calibrate` (harness/run/disk_calibration_job.h).

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/atomic_file.h"
#include "harness/core/interrupt.h"
#include "harness/core/plain_range.h"
#include "harness/disk/disk_daemon.h"
#include "harness/disk/disk_model.h"
#include "harness/disk/disk_profile_spec.h"
#include "harness/run/disk_calibration_job.h"
#include "reporters/calibration_text.h"
#include "reporters/disk_profiles_text.h"

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
  CalibrationJobConfig calibrate;
  bool calibrate_json = false;
};

// The spelling of --disk-set the command line used (--set is its old one): the one an error
// names (#45: `--disk-set bogus` was refused as "--set: …").
std::string TypedSetFlag() {
  std::string flag = "--disk-set";
  for (const std::string& word : CommandWords()) {
    if (word == "--set" || word.starts_with("--set=")) flag = "--set";
    if (word == "--disk-set" || word.starts_with("--disk-set=")) flag = "--disk-set";
  }
  return flag;
}

// #45, fourth pass: a backing or a mount point that cannot be is bad input, refused in one line
// with exit 2 before the daemon starts, where the daemon's own check failed with exit 1.
bool CheckServePaths(const DiskServeOptions& o, std::string* err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status backing = fs::status(o.backing, ec);
  if (!fs::exists(backing)) {
    *err = "--backing " + o.backing +
           ": no such file (give an image file, e.g. one made with "
           "truncate -s 1G)";
    return false;
  }
  if (!fs::is_regular_file(backing) || fs::file_size(o.backing, ec) == 0 || ec) {
    *err = "--backing " + o.backing + ": " +
           (fs::is_directory(backing) ? "is a directory" : "is not a non-empty regular file") +
           " (give an image file, e.g. one made with truncate -s 1G)";
    return false;
  }
  const fs::file_status mount = fs::status(o.mountpoint, ec);
  if (!fs::is_directory(mount)) {
    *err = "--mount " + o.mountpoint + ": " +
           (fs::exists(mount) ? "is not a directory" : "no such directory") +
           " (give an existing empty directory)";
    return false;
  }
  return true;
}

int DiskServeCommand(const DiskServeOptions& o) {
  DiskDaemonOptions d;
  d.backing_path = o.backing;
  d.mountpoint = o.mountpoint;
  d.trace_path = o.trace;
  std::string err;
  if (!ResolveDiskProfile(o.profile, o.settings, TypedSetFlag(), &d.profile, &err) ||
      (!o.trace.empty() && !CheckParentFolderExists("--disk-trace", o.trace, &err, "disk.trace")) ||
      !CheckServePaths(o, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const int rc = RunDiskDaemon(d, &err);
  if (rc != 0) PrintError("disk: " + err);
  return rc == 0 ? kExitOk : kExitFailure;
}

// A table for people (reporters/disk_profiles_text.h), the profiles' JSON with --json.
int DiskProfilesCommand(bool json) {
  std::vector<DiskProfile> profiles;
  nlohmann::json all = nlohmann::json::array();
  for (const std::string& name : DiskProfileNames()) {
    DiskProfile p;
    std::string err;
    if (!LookupDiskProfile(name, &p, &err)) continue;
    all.push_back(DiskProfileToJson(p));
    profiles.push_back(p);
  }
  std::cout << (json ? all.dump(2) + "\n" : RenderDiskProfilesTable(profiles));
  return kExitOk;
}

// The calibration's steps, each failure its exit code; 1 also when a claimed figure is off.
int DiskCalibrateCommand(const CalibrationJobConfig& config, bool json) {
  CalibrationJob job(config, PrintError);
  std::string err;
  if (!job.Check(&err)) {
    PrintError(err);
    return kExitUsage;
  }
  CalibrationResult result;
  if (!job.OpenJournal(&err) || !job.MakeDisk(&err) || !job.Calibrate(&result, &err)) {
    PrintError(err);
    job.Restore();
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  const bool restored = job.Restore();
  std::cout << (json ? CalibrationResultToJson(result).dump(2) + "\n"
                     : RenderCalibrationText(result));
  return restored && result.AllClaimedWithin() ? kExitOk : kExitFailure;
}

void AddCalibrateOptions(CLI::App* calibrate, DiskServeOptions* o) {
  calibrate->footer(
      "Exit codes: 0 every figure the profile claims within 10 %; 1 one is not, or the "
      "calibration failed; 2 bad command line or profile.");
  calibrate
      ->add_option("profile", o->calibrate.emulated,
                   "PROFILE[:SIZE] (default size 4G; the image is the model's whole stroke unless "
                   "--disk-set capacity_bytes= says otherwise)")
      ->type_name("PROFILE[:SIZE]")
      ->required();
  calibrate
      ->add_option("--disk-set", o->calibrate.disk_set,
                   "Override a model parameter (key=value, units as in `disk profiles --json`), "
                   "repeatable (default: none)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  calibrate
      ->add_option("--runtime", o->calibrate.runtime_seconds,
                   "Seconds of fio a check (default: 10)")
      ->default_val(10)
      ->check(PlainRange(1.0, 3600.0, "seconds"));
  AddJsonFlag(calibrate, &o->calibrate_json, "One JSON object instead of the table");
}

}  // namespace

SubcommandRunner AddDiskSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto o = std::make_shared<DiskServeOptions>();
  CLI::App* serve = cmd->add_subcommand("serve", "Serve an image file through the model");
  serve->footer(
      "Exit codes: 0 unmounted and stopped; 1 the daemon failed; 2 bad command line or "
      "profile.");
  serve->add_option("--backing", o->backing, "Backing image file (best on tmpfs)")
      ->type_name("FILE")
      ->required();
  serve->add_option("--mount", o->mountpoint, "Empty directory to mount on")
      ->type_name("DIR")
      ->required();
  serve
      ->add_option("--profile", o->profile,
                   "Disk profile (default: ide-2003; `disk profiles` lists them)")
      ->type_name("PROFILE");
  serve
      ->add_option("--disk-set,--set", o->settings,
                   "Override a model parameter (key=value, units as in `disk profiles --json`), "
                   "repeatable (default: none)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one each: `--disk-set a=1 b=2` is not two
  serve
      ->add_option("--disk-trace,--trace", o->trace,
                   "Per-request trace file, as run's --disk-trace (default: none)")
      ->type_name("FILE");
  CLI::App* profiles =
      cmd->add_subcommand("profiles", "Print the emulated-disk profiles as a table, with units");
  profiles->footer("Exit codes: 0 printed; 2 bad command line.");
  AddJsonFlag(profiles, &o->profiles_json, "The profiles as a JSON array instead");
  CLI::App* calibrate = cmd->add_subcommand(
      "calibrate",
      "Measure an emulated drive with fio and hold it against the real drive's figures");
  AddCalibrateOptions(calibrate, o.get());
  return [o, serve, calibrate] {
    if (*serve) return DiskServeCommand(*o);
    if (*calibrate) return DiskCalibrateCommand(o->calibrate, o->calibrate_json);
    return DiskProfilesCommand(o->profiles_json);
  };
}

}  // namespace elevbench
