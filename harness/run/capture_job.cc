#include "harness/run/capture_job.h"

#include <unistd.h>

#include <filesystem>
#include <utility>

#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/scratch_device.h"
#include "harness/process/subprocess.h"

namespace elevbench {

std::string CaptureSourceOf(const CaptureJobConfig& o) {
  std::string source = !o.device.empty()     ? "device " + o.device
                       : !o.emulated.empty() ? "emulated " + o.emulated + ", " + o.fs
                                             : "scratch " + o.scratch + ", " + o.fs;
  if (!o.command.empty()) {
    source += ":";
    for (const std::string& word : o.command) source += " " + word;
  }
  return source;
}

CaptureJob::CaptureJob(CaptureJobConfig config,
                       std::function<void(const std::string& line)> report_error)
    : config_(std::move(config)),
      report_error_(std::move(report_error)),
      progress_(Progress::ForStderr()) {}

bool CaptureJob::Check(std::string* err) {
  CaptureJobConfig& o = config_;
  const int targets = !o.device.empty() + !o.emulated.empty() + !o.scratch.empty();
  if (targets != 1) {
    *err = "give one of --device, --emulated or --scratch";
    return false;
  }
  if (o.device.empty() && o.command.empty()) {
    *err = "a capture on a device elevbench makes traces a command: add -- COMMAND ARGS";
    return false;
  }
  if (!o.device.empty() && o.command.empty() && o.duration <= 0) {
    *err = "--device needs --duration SECONDS or -- COMMAND ARGS";
    return false;
  }
  if (!o.command.empty() && !ProgramInPath(o.command.front()) &&
      access(o.command.front().c_str(), X_OK) != 0) {
    *err = "command not found: " + o.command.front();
    return false;
  }
  const std::filesystem::path out_dir = std::filesystem::absolute(o.out).parent_path();
  if (access(out_dir.c_str(), W_OK) != 0) {
    *err = "--out " + o.out + ": cannot write in " + out_dir.string();
    return false;
  }
  if (!o.device.empty()) {
    if (!CheckCaptureDevice(o.device, SystemPaths{}, &o.device, err) ||
        !CheckOutOffTracedDisk(o.out, o.device, err)) {
      return false;
    }
  } else if (!SupportedScratchFs(o.fs)) {
    *err = "unsupported --fs '" + o.fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "capture needs root (tracefs" + std::string(o.device.empty() ? ", loop devices)" : ")");
    return false;
  }
  if (!o.device.empty()) return true;
  target_options_.fs = o.fs;
  if (!o.scratch.empty()) {
    if (!ParseSizeBytes(o.scratch, &target_options_.scratch_bytes, err)) {
      *err = "--scratch: " + *err;
      return false;
    }
    return true;
  }
  target_options_.emulated = true;
  target_options_.emulated_options.fs = o.fs;
  target_options_.emulated_options.self_exe = SelfExecutablePath();
  return ParseEmulatedSpec(o.emulated, &target_options_.emulated_options, err);
}

bool CaptureJob::OpenJournal(std::string* err) {
  InstallInterruptHandlers();
  return OpenCommandJournal(&journal_, &progress_,
                            "elevbench capture (pid " + std::to_string(getpid()) + ")", err);
}

bool CaptureJob::MakeTarget(std::string* err) {
  return !config_.device.empty() || target_.Create(target_options_, &journal_, &progress_, err);
}

bool CaptureJob::Capture(CaptureOutcome* outcome, std::string* err) {
  CaptureConfig capture;
  capture.device = config_.device;
  capture.duration_seconds = config_.duration;
  capture.command = config_.command;
  capture.out = config_.out;
  capture.source = CaptureSourceOf(config_);
  const RunTarget* target = config_.device.empty() ? &target_ : nullptr;
  return RunCapture(capture, target, &journal_, &progress_, outcome, err);
}

bool CaptureJob::Restore() { return guard_.Restore(); }

}  // namespace elevbench
