#include "harness/run/capture_job.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/atomic_file.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/scratch_device.h"
#include "harness/process/subprocess.h"
#include "harness/run/emulated_writeback.h"

namespace elevbench {

std::string CaptureSourceOf(const CaptureJobConfig& o) {
  const TargetSpec& t = o.target;
  std::string source = !t.device.empty()     ? "device " + t.device
                       : !t.emulated.empty() ? "emulated " + t.emulated + ", " + t.fs
                                             : "scratch " + t.scratch + ", " + t.fs;
  if (!o.command.empty()) {
    source += ":";
    for (const std::string& word : o.command) source += " " + word;
  }
  if (!o.setup.empty()) source += " (set-up: " + o.setup + ")";
  return source;
}

bool DescribeCaptureOutcome(const CaptureJobConfig& o, const CaptureOutcome& outcome,
                            std::vector<std::string>* notes) {
  const bool command_failed = outcome.command_exit_code != 0 || outcome.command_term_signal != 0;
  if (command_failed) {
    notes->push_back(
        o.command.front() + " exited with " +
        (outcome.command_term_signal ? "signal " + std::to_string(outcome.command_term_signal)
                                     : "status " + std::to_string(outcome.command_exit_code)) +
        (outcome.command_stderr_tail.empty() ? "" : ": " + outcome.command_stderr_tail));
  }
  notes->push_back(
      "captured " + std::to_string(outcome.summary.records) + " bios from " +
      std::to_string(outcome.summary.processes.size()) + " processes in " +
      std::to_string(outcome.summary.duration_seconds) + " s into " + o.out +
      (outcome.lost_events ? " (" + std::to_string(outcome.lost_events) + " events lost)" : ""));
  return !command_failed && outcome.lost_events == 0;
}

CaptureJob::CaptureJob(CaptureJobConfig config,
                       std::function<void(const std::string& line)> report_error)
    : JournaledTargetJob("capture", std::move(report_error)), config_(std::move(config)) {}

bool CaptureJob::Check(std::string* err) {
  CaptureJobConfig& o = config_;
  TargetSpec& t = o.target;
  std::vector<std::string> given;
  for (const auto& [flag, value] :
       {std::pair<const char*, const std::string*>{"--device", &t.device},
        {"--emulated", &t.emulated},
        {"--scratch", &t.scratch}}) {
    if (!value->empty()) given.emplace_back(flag);
  }
  if (given.empty()) {
    *err = "give one of --device, --emulated or --scratch";
    return false;
  }
  if (given.size() > 1) {  // #45, fourth pass: as `run` says it
    *err = given[0] +
           (given.size() > 2 ? ", " + given[1] + " and " + given[2] : " and " + given[1]) +
           " are alternatives: give one";
    return false;
  }
  if (!t.device.empty() && o.fs_given) {  // #45, fourth pass: passed over in silence
    *err = "--fs applies to a device elevbench makes (--emulated, --scratch), not to --device";
    return false;
  }
  if (t.device.empty() && o.command.empty()) {
    *err = "a capture on a device elevbench makes traces a command: add -- COMMAND ARGS";
    return false;
  }
  if (!t.device.empty() && o.command.empty() && o.duration <= 0) {
    *err = "--device needs --duration SECONDS or -- COMMAND ARGS";
    return false;
  }
  if (!o.command.empty() && o.duration > 0) {  // #45: the trace lasts as long as the command
    *err =
        "--duration applies to a capture of --device without a command; with -- COMMAND the "
        "trace lasts as long as the command runs";
    return false;
  }
  if (!o.setup.empty() && !t.device.empty()) {
    *err =
        "--setup needs a target elevbench makes (--emulated or --scratch): --device is only "
        "observed";
    return false;
  }
  if (!o.command.empty() && !ProgramInPath(o.command.front()) &&
      access(o.command.front().c_str(), X_OK) != 0) {
    *err = "command not found: " + o.command.front();
    return false;
  }
  std::error_code ec;  // #45, fourth pass: an --out folder was refused only as root
  if (std::filesystem::is_directory(o.out, ec) &&
      !CheckParentFolderExists("--out", o.out, err, "capture.trace")) {
    return false;
  }
  const std::filesystem::path out_dir = std::filesystem::absolute(o.out).parent_path();
  if (access(out_dir.c_str(), W_OK) != 0) {
    *err = "--out " + o.out + ": cannot write in " + out_dir.string();
    return false;
  }
  if (!t.device.empty()) {
    if (!CheckCaptureDevice(t.device, SystemPaths{}, &t.device, err) ||
        !CheckOutOffTracedDisk(o.out, t.device, err)) {
      return false;
    }
  } else if (!ParseMadeTarget(t, &target_options(), err)) {  // --fs, --scratch, --emulated
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "capture needs root (tracefs" + std::string(t.device.empty() ? ", loop devices)" : ")");
    return false;
  }
  return true;
}

bool CaptureJob::MakeTarget(std::string* err) {
  if (!config_.target.device.empty()) return true;
  if (!target().Create(target_options(), journal(), progress(), err)) return false;
  // The emulated 2003 box's writeback limits, as every run on it has (emulated_writeback.h):
  // a buffered writer is throttled as it will be when it is run for real or replayed.
  EmulatedWriteback set;
  return !target().emulated() ||
         SetUpEmulatedWriteback(Sysfs{}, journal(), target().stack().loop_name, &set, err);
}

bool CaptureJob::Capture(CaptureOutcome* outcome, std::string* err) {
  CaptureConfig capture;
  capture.device = config_.target.device;
  capture.duration_seconds = config_.duration;
  capture.command = config_.command;
  capture.setup = config_.setup;
  capture.out = config_.out;
  capture.source = CaptureSourceOf(config_);
  const RunTarget* made = config_.target.device.empty() ? &target() : nullptr;
  return RunCapture(capture, made, journal(), progress(), outcome, err);
}

RunFailure RunCaptureCommand(const CaptureJobConfig& config,
                             const std::function<void(const std::string& line)>& error,
                             const std::function<void(const std::string& line)>& note) {
  CaptureJob job(config, error);
  std::string err;
  if (!job.Check(&err)) {
    error(err);
    return RunFailure::kUsage;
  }
  if (!job.OpenJournal(&err)) {
    error(err);
    return RunFailure::kFailure;
  }
  CaptureOutcome outcome;
  const bool made = job.MakeTarget(&err);
  const bool captured = made && job.Capture(&outcome, &err);
  if (!outcome.drain_error.empty()) error(outcome.drain_error);
  if (!captured) {
    error(err);
    return InterruptRequested() ? RunFailure::kInterrupted : RunFailure::kFailure;
  }
  std::vector<std::string> notes;
  const bool succeeded = DescribeCaptureOutcome(config, outcome, &notes);
  for (const std::string& n : notes) note(n);
  if (!outcome.buffers_problem.empty()) note(outcome.buffers_problem);
  return job.Restore() && succeeded ? RunFailure::kNone : RunFailure::kFailure;
}

}  // namespace elevbench
