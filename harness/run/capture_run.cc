#include "harness/run/capture_run.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "harness/core/atomic_file.h"
#include "harness/core/error.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "harness/trace/block_capture.h"
#include "harness/trace/handle_buffers.h"

namespace elevbench {

namespace fs = std::filesystem;

bool CheckCaptureDevice(const std::string& given, const SystemPaths& paths, std::string* name,
                        std::string* err) {
  *name = given.rfind("/dev/", 0) == 0 ? given.substr(5) : given;
  return CheckWholeDiskName(given, *name, paths, err);
}

bool CheckOutOffTracedDisk(const std::string& out, const std::string& disk, std::string* err) {
  const fs::path path = fs::absolute(out);
  std::vector<std::string> checked = {path.parent_path().string()};
  std::error_code ec;
  if (fs::exists(path, ec)) checked.push_back(path.string());
  for (const std::string& p : checked) {
    bool on = false;
    if (!PathIsOnDisk(p, disk, SystemPaths{}, &on, err)) {
      return Fail(err, "--out " + out + ": cannot tell whether it is on " + disk + ": " + *err);
    }
    if (on) {
      return Fail(err, "--out " + out + " is on " + disk +
                           ", the disk --device traces: write the trace to another disk (a "
                           "capture only observes its disk and must not trace its own writes)");
    }
  }
  return true;
}

bool DescribeTracedDisk(const std::string& disk, const SystemPaths& paths, BlockTraceHeader* header,
                        uint32_t* major, uint32_t* minor, std::string* err) {
  BlockDeviceInfo info;
  if (!ReadBlockDevice(disk, paths, &info, err) ||
      !ReadDiskNumbers(Sysfs(paths.root), disk, major, minor, err)) {
    return Fail(err, "cannot describe " + disk + ": " + *err);
  }
  header->device = disk;
  header->device_bytes = info.size_bytes;
  header->logical_block_bytes = info.logical_block_bytes;
  // A bio-based disk (dm, md) lists only "none", unbracketed: that is its scheduler.
  header->scheduler = info.current_scheduler.empty() && info.available_schedulers.size() == 1
                          ? info.available_schedulers.front()
                          : info.current_scheduler;
  header->kernel = ReadMachineInfo().kernel;
  header->captured_at = NowIso8601();
  return true;
}

namespace {

// Runs the command in `directory` (or here) until it ends; false when it could not start or
// was interrupted. Its status goes into *outcome.
bool RunTracedCommand(const std::vector<std::string>& command, const std::string& directory,
                      Progress* progress, CaptureOutcome* outcome, std::string* err) {
  ProcessOptions options;
  options.stdout_path = "/dev/null";
  options.working_directory = directory;
  progress->Note("elevbench: capture: running " + command.front() +
                 (directory.empty() ? "" : " in " + directory));
  ProcessResult result;
  if (!RunProcess(command, options, &result, err)) return false;
  if (result.interrupted) {
    return Fail(err, "interrupted by signal " + std::to_string(InterruptSignal()));
  }
  outcome->command_exit_code = result.exit_code;
  outcome->command_term_signal = result.term_signal;
  if (!result.error_output.empty()) outcome->command_stderr_tail = LastLine(result.error_output);
  return true;
}

// The set-up (CaptureConfig::setup) in the target's root, then the target written back and the
// caches dropped; false with err when it could not run, failed or was interrupted.
bool RunCaptureSetUp(const std::string& setup, const RunTarget& target, Progress* progress,
                     std::string* err) {
  ProcessOptions options;
  options.stdout_path = "/dev/null";
  options.working_directory = target.directory();
  progress->Note("elevbench: capture: set-up: " + setup);
  ProcessResult result;
  if (!RunProcess({"sh", "-c", setup}, options, &result, err)) return Fail(err, "--setup: " + *err);
  if (result.interrupted) {
    return Fail(err, "interrupted by signal " + std::to_string(InterruptSignal()));
  }
  if (result.exit_code != 0 || result.term_signal != 0) {
    const std::string tail = LastLine(result.error_output);
    return Fail(err,
                "--setup failed (" + HowItEnded(result) + ")" + (tail.empty() ? "" : ": " + tail));
  }
  if (!target.DropCaches(err)) return Fail(err, "dropping the caches after --setup: " + *err);
  return true;
}

// Waits out `seconds`, saying how far it is; false when interrupted.
bool WaitDuration(double seconds, Progress* progress, std::string* err) {
  const auto start = std::chrono::steady_clock::now();
  progress->Start("capture", 1);
  progress->BeginCell(0, "tracing for " + Progress::FormatDuration(seconds));
  int shown = -1;
  bool done = false;
  while (!done) {
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done = elapsed >= seconds;
    if (!done && InterruptRequested()) {
      *err = "interrupted by signal " + std::to_string(InterruptSignal());
      break;
    }
    if (static_cast<int>(elapsed) != shown) {
      shown = static_cast<int>(elapsed);
      progress->Phase(Progress::FormatDuration(elapsed) + " of " +
                      Progress::FormatDuration(seconds));
    }
    if (!done) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  progress->EndCell();
  progress->Finish(/*stopped=*/!done);
  return done;
}

}  // namespace

bool RunCapture(const CaptureConfig& config, const RunTarget* target, RestoreJournal* journal,
                Progress* progress, CaptureOutcome* outcome, std::string* err) {
  *outcome = CaptureOutcome{};
  const std::string disk = target != nullptr ? target->disks().front() : config.device;
  // The set-up first: the header's facts (its time, the disk's scheduler) are the trace's own.
  if (!config.setup.empty() &&
      (target == nullptr || !RunCaptureSetUp(config.setup, *target, progress, err))) {
    if (target == nullptr) *err = "--setup needs a target elevbench makes";
    return Fail(err, "capture: " + *err + "; no trace written");
  }
  BlockTrace trace;
  uint32_t major = 0, minor = 0;
  if (!DescribeTracedDisk(disk, SystemPaths{}, &trace.header, &major, &minor, err)) return false;
  trace.header.source = config.source;
  trace.header.command = config.command;
  const std::string raw = fs::absolute(config.out).string() + ".raw";
  BlockCapture capture;
  if (!capture.Start(journal, major, minor, raw, err)) return Fail(err, "capture: " + *err);
  const bool ran =
      config.command.empty()
          ? WaitDuration(config.duration_seconds, progress, err)
          : RunTracedCommand(config.command, target != nullptr ? target->directory() : "", progress,
                             outcome, err);
  if (ran && target != nullptr) {
    // syncfs of the target, so that its writeback is in the trace; bounded like the cache
    // drop's (a disk that stops answering gets its connection aborted).
    BoundedCallLimits limits;
    limits.deadline_seconds = 120;
    (void)SyncPathBounded(target->directory(), limits, &outcome->drain_error);
  }
  std::string stop_err;
  const bool stopped = capture.Stop(&trace, &stop_err);
  unlink(raw.c_str());
  // The buffer each journal handle changed, while the disk is still there; without it the
  // replay waits for any metadata write (docs/replay.md §3, "After a journal handle").
  const std::string disk_path = disk.rfind('/', 0) == 0 ? disk : "/dev/" + disk;  // "loop8"
  if (stopped &&
      !MapHandleBuffers(disk_path, &trace.header.journal_handles, &outcome->buffers_problem)) {
    outcome->buffers_problem =
        "the journal handles' buffers are not known: " + outcome->buffers_problem;
  }
  if (!ran) return Fail(err, "capture: " + *err + "; no trace written");
  if (!stopped || !WriteFileAtomically(config.out, RenderBlockTrace(trace), &stop_err)) {
    return Fail(err, "capture: " + stop_err);
  }
  outcome->summary = SummarizeBlockTrace(trace);
  outcome->lost_events = trace.header.lost_events;
  return true;
}

}  // namespace elevbench
