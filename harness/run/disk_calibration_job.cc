#include "harness/run/disk_calibration_job.h"

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "harness/core/system_info.h"
#include "harness/device/device_control.h"
#include "harness/device/scratch_device.h"
#include "harness/device/sysfs.h"
#include "harness/disk/disk_profile_spec.h"
#include "harness/process/subprocess.h"

namespace elevbench {
namespace {

constexpr uint64_t kDefaultCalibrationBytes = 4ULL << 30;

bool GivesCapacity(const std::vector<std::string>& overrides) {
  for (const std::string& o : overrides) {
    if (o.rfind("capacity_bytes=", 0) == 0) return true;
  }
  return false;
}

}  // namespace

CalibrationJob::CalibrationJob(CalibrationJobConfig config,
                               std::function<void(const std::string& line)> report_error)
    : JournaledTargetJob("disk calibrate", std::move(report_error)), config_(std::move(config)) {}

CalibrationJob::~CalibrationJob() {
  if (fio_dir_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(fio_dir_, ignored);
}

bool CalibrationJob::Check(std::string* err) {
  if (!std::isfinite(config_.runtime_seconds) || config_.runtime_seconds < 1 ||
      config_.runtime_seconds > 3600) {
    *err = "--runtime: give 1 to 3600 seconds a check";
    return false;
  }
  EmulatedOptions& emu = target_options().emulated_options;
  emu.size_bytes = kDefaultCalibrationBytes;
  if (!ParseEmulatedSpec(config_.emulated, &emu, err)) {
    *err = "disk calibrate: " + *err;
    return false;
  }
  emu.overrides = config_.disk_set;
  if (!GivesCapacity(emu.overrides)) {
    emu.overrides.push_back("capacity_bytes=" + std::to_string(emu.size_bytes));
  }
  DiskProfile profile;
  if (!ResolveDiskProfile(emu.profile_name, emu.overrides, "--disk-set", &profile, err)) {
    return false;
  }
  if (!ProgramInPath("fio")) {
    *err = "disk calibrate needs fio (./scripts/install-deps)";
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "disk calibrate needs root (FUSE, loop devices, sysfs)";
    return false;
  }
  emu.fs = kRawDeviceFs;
  emu.self_exe = SelfExecutablePath();
  target_options().fs = kRawDeviceFs;
  target_options().emulated = true;
  return true;
}

bool CalibrationJob::MakeDisk(std::string* err) {
  if (!target().Create(target_options(), journal(), progress(), err)) return false;
  const Sysfs sysfs;
  DeviceControl control(sysfs, journal(), target().disks());
  return control.PinQueueAttrs(EmulatedQueueAttrs(target().stack()), err) &&
         control.Apply(SchedulerConfig{"none", {}, ""}, err);
}

bool CalibrationJob::Calibrate(CalibrationResult* result, std::string* err) {
  const DiskProfile& profile = target().stack().profile;
  const DriveFigures figures = DriveFiguresOf(profile.name);
  result->profile = profile.name;
  result->drive = figures.drive;
  result->image_bytes = target_options().emulated_options.size_bytes;
  result->stroke_bytes = profile.capacity_bytes;
  result->runtime_seconds = std::round(config_.runtime_seconds);
  result->kernel = ReadMachineInfo().kernel;
  std::string ignored;
  if (!FioVersion(&result->fio_version, &ignored)) result->fio_version.clear();
  char folder[] = "/var/tmp/elevbench-calibrate-XXXXXX";
  if (mkdtemp(folder) == nullptr) {
    *err = "cannot create a folder for fio's files in /var/tmp";
    return false;
  }
  fio_dir_ = folder;
  SystemFioRunner fio;
  std::map<CalibrationCheck, double> measured;
  const SettleDrive settle = [this](std::string* e) { return target().DropCaches(e); };
  if (!RunCalibrationChecks(target().device(), figures, config_.runtime_seconds, fio_dir_, &fio,
                            settle, progress(), &measured, err)) {
    return false;
  }
  result->rows = CalibrationRows(figures, measured);
  return true;
}

}  // namespace elevbench
