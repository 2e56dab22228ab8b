// `elevbench capture`: records every bio of a disk into an elevbench block trace
// (harness/trace/block_trace_file.h). Either a disk the user names, read-only, for a duration or
// while a command runs; or a target elevbench makes (--emulated, --scratch) with a command run
// in its filesystem's root, traced while it runs and while its writeback drains, the target
// removed afterwards. `elevbench trace show FILE` summarizes a trace. docs/replay.md.

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/cli/run_journal.h"
#include "harness/core/atomic_file.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/scratch_device.h"
#include "harness/device/sysfs.h"
#include "harness/process/bounded_call.h"
#include "harness/process/subprocess.h"
#include "harness/run/target.h"
#include "harness/trace/block_capture.h"
#include "harness/trace/block_trace_summary.h"
#include "reporters/block_trace_text.h"

namespace elevbench {
namespace {

namespace fs = std::filesystem;

struct CaptureOptions {
  std::string device;    ///< --device NAME: a disk of the user's, traced read-only
  double duration = 0;   ///< --duration SECONDS
  std::string emulated;  ///< --emulated PROFILE[:SIZE]
  std::string scratch;   ///< --scratch SIZE
  std::string fs = "ext4";
  std::string out;
  std::vector<std::string> command;  ///< after `--`
};

// The facts of the traced disk for the header, and its device number for the filter.
struct TracedDisk {
  std::string name;
  uint32_t major = 0, minor = 0;
};

// "sdb" or "/dev/sdb" -> "sdb" when it is a whole disk (/sys/block/NAME exists).
bool WholeDiskName(const std::string& given, std::string* name, std::string* err) {
  *name = given.rfind("/dev/", 0) == 0 ? given.substr(5) : given;
  if (name->empty() || name->find('/') != std::string::npos ||
      !fs::exists("/sys/block/" + *name + "/dev")) {
    *err = "--device " + given + ": not a whole disk (see `elevbench devices`; name the disk, " +
           "not a partition)";
    return false;
  }
  return true;
}

// --out on the traced disk (the disk itself, a partition, a device stacked on them; the file
// itself when it exists, e.g. a device node) is refused: the trace and its raw events beside it
// would be written to a disk the user asked only to observe, and the capture would trace them.
bool CheckOutOffTracedDisk(const std::string& out, const std::string& disk, std::string* err) {
  const fs::path path = fs::absolute(out);
  std::vector<std::string> checked = {path.parent_path().string()};
  std::error_code ec;
  if (fs::exists(path, ec)) checked.push_back(path.string());
  for (const std::string& p : checked) {
    bool on = false;
    if (!PathIsOnDisk(p, disk, SystemPaths{}, &on, err)) {
      *err = "--out " + out + ": cannot tell whether it is on " + disk + ": " + *err;
      return false;
    }
    if (on) {
      *err = "--out " + out + " is on " + disk +
             ", the disk --device traces: write the trace to another disk (a capture only "
             "observes its disk and must not trace its own writes)";
      return false;
    }
  }
  return true;
}

// Every usage error, before anything is created.
bool CheckCaptureOptions(CaptureOptions* o, TargetOptions* target, std::string* err) {
  const int targets = !o->device.empty() + !o->emulated.empty() + !o->scratch.empty();
  if (targets != 1) {
    *err = "give one of --device, --emulated or --scratch";
    return false;
  }
  if (o->device.empty() && o->command.empty()) {
    *err = "a capture on a device elevbench makes traces a command: add -- COMMAND ARGS";
    return false;
  }
  if (!o->device.empty() && o->command.empty() && o->duration <= 0) {
    *err = "--device needs --duration SECONDS or -- COMMAND ARGS";
    return false;
  }
  if (!o->command.empty() && !ProgramInPath(o->command.front()) &&
      access(o->command.front().c_str(), X_OK) != 0) {
    *err = "command not found: " + o->command.front();
    return false;
  }
  const fs::path out_dir = fs::absolute(o->out).parent_path();
  if (access(out_dir.c_str(), W_OK) != 0) {
    *err = "--out " + o->out + ": cannot write in " + out_dir.string();
    return false;
  }
  if (!o->device.empty()) {
    if (!WholeDiskName(o->device, &o->device, err) ||
        !CheckOutOffTracedDisk(o->out, o->device, err)) {
      return false;
    }
  } else if (!SupportedScratchFs(o->fs)) {
    *err = "unsupported --fs '" + o->fs + "' (ext2, ext4 or xfs)";
    return false;
  }
  if (!RunningAsRoot()) {
    *err = "capture needs root (tracefs" + std::string(o->device.empty() ? ", loop devices)" : ")");
    return false;
  }
  if (!o->device.empty()) return true;
  target->fs = o->fs;
  if (!o->scratch.empty()) {
    if (!ParseSizeBytes(o->scratch, &target->scratch_bytes, err)) {
      *err = "--scratch: " + *err;
      return false;
    }
    return true;
  }
  target->emulated = true;
  target->emulated_options.fs = o->fs;
  target->emulated_options.self_exe = SelfExecutablePath();
  return ParseEmulatedSpec(o->emulated, &target->emulated_options, err);
}

std::string ReadSysfs(const std::string& path) {
  std::string value, ignored;
  if (!Sysfs().Read(path, &value, &ignored)) return "";
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) value.pop_back();
  return value;
}

// The header's facts of the disk, read before the capture.
bool DescribeDisk(const std::string& disk, TracedDisk* traced, BlockTraceHeader* h,
                  std::string* err) {
  traced->name = disk;
  if (!ReadDiskNumbers(Sysfs(), disk, &traced->major, &traced->minor, err)) {
    *err = "cannot read the device number of " + disk + ": " + *err;
    return false;
  }
  h->device = disk;
  h->device_bytes =
      std::strtoull(ReadSysfs("/sys/block/" + disk + "/size").c_str(), nullptr, 10) * 512;
  h->logical_block_bytes = static_cast<uint32_t>(std::strtoul(
      ReadSysfs("/sys/block/" + disk + "/queue/logical_block_size").c_str(), nullptr, 10));
  const std::string sched = ReadSysfs("/sys/block/" + disk + "/queue/scheduler");
  const size_t open = sched.find('['), close = sched.find(']');
  h->scheduler =
      open != std::string::npos && close > open ? sched.substr(open + 1, close - open - 1) : sched;
  h->kernel = ReadMachineInfo().kernel;
  h->captured_at = NowIso8601();
  return true;
}

// Runs the command in `directory` (or here) until it ends; false when interrupted.
bool RunTracedCommand(const std::vector<std::string>& command, const std::string& directory,
                      Progress* progress, int* exit_code, std::string* err) {
  ProcessOptions options;
  options.stdout_path = "/dev/null";
  options.working_directory = directory;
  progress->Note("elevbench: capture: running " + command.front() +
                 (directory.empty() ? "" : " in " + directory));
  ProcessResult result;
  if (!RunProcess(command, options, &result, err)) return false;
  if (result.interrupted) {
    *err = "interrupted by signal " + std::to_string(InterruptSignal());
    return false;
  }
  *exit_code = result.exit_code;
  if (result.exit_code != 0) {
    PrintNote(command.front() + " exited with " +
              (result.term_signal ? "signal " + std::to_string(result.term_signal)
                                  : "status " + std::to_string(result.exit_code)) +
              (result.error_output.empty() ? "" : ": " + LastLine(result.error_output)));
  }
  return true;
}

// Waits out --duration, saying how far it is; false when interrupted.
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
  progress->Finish();
  return done;
}

// syncfs of the target's filesystem, so its writeback is in the trace; bounded like the cache
// drop's (a disk that stops answering gets its connection aborted, process/bounded_call.h).
void DrainWriteback(const std::string& directory) {
  BoundedCallLimits limits;
  limits.deadline_seconds = 120;
  std::string err;
  if (!SyncPathBounded(directory, limits, &err)) PrintError(err);
}

std::string SourceOf(const CaptureOptions& o) {
  std::string source = !o.device.empty()     ? "device " + o.device
                       : !o.emulated.empty() ? "emulated " + o.emulated + ", " + o.fs
                                             : "scratch " + o.scratch + ", " + o.fs;
  if (!o.command.empty()) {
    source += ":";
    for (const std::string& word : o.command) source += " " + word;
  }
  return source;
}

// Traces the disk while the workload runs and writes the trace file.
int CaptureWorkload(const CaptureOptions& o, const RunTarget* target, RestoreJournal* journal,
                    Progress* progress) {
  const std::string disk = target ? target->disks().front() : o.device;
  BlockTrace trace;
  TracedDisk traced;
  std::string err;
  if (!DescribeDisk(disk, &traced, &trace.header, &err)) {
    PrintError(err);
    return kExitFailure;
  }
  trace.header.source = SourceOf(o);
  trace.header.command = o.command;
  const std::string raw = fs::absolute(o.out).string() + ".raw";
  BlockCapture capture;
  if (!capture.Start(journal, traced.major, traced.minor, raw, &err)) {
    PrintError("capture: " + err);
    return kExitFailure;
  }
  int exit_code = 0;
  const bool ran = o.command.empty()
                       ? WaitDuration(o.duration, progress, &err)
                       : RunTracedCommand(o.command, target ? target->directory() : "", progress,
                                          &exit_code, &err);
  if (ran && target) DrainWriteback(target->directory());
  std::string stop_err;
  const bool stopped = capture.Stop(&trace, &stop_err);
  unlink(raw.c_str());
  if (!ran) {
    PrintError("capture: " + err + "; no trace written");
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  if (!stopped || !WriteFileAtomically(o.out, RenderBlockTrace(trace), &stop_err)) {
    PrintError("capture: " + stop_err);
    return kExitFailure;
  }
  const BlockTraceSummary summary = SummarizeBlockTrace(trace);
  PrintNote("captured " + std::to_string(summary.records) + " bios from " +
            std::to_string(summary.processes.size()) + " processes in " +
            std::to_string(summary.duration_seconds) + " s into " + o.out +
            (trace.header.lost_events
                 ? " (" + std::to_string(trace.header.lost_events) + " events lost)"
                 : ""));
  return exit_code == 0 && trace.header.lost_events == 0 ? kExitOk : kExitFailure;
}

int CaptureCommand(CaptureOptions o) {
  TargetOptions target_options;
  std::string err;
  if (!CheckCaptureOptions(&o, &target_options, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  InstallInterruptHandlers();
  Progress progress = Progress::ForStderr();
  RestoreJournal journal;
  JournalGuard guard(&journal);
  const int opened = OpenCommandJournal(&journal, &progress,
                                        "elevbench capture (pid " + std::to_string(getpid()) + ")");
  if (opened >= 0) return opened;
  RunTarget target;
  const bool make_target = o.device.empty();
  if (make_target && !target.Create(target_options, &journal, &progress, &err)) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  const int code = CaptureWorkload(o, make_target ? &target : nullptr, &journal, &progress);
  return guard.Restore() ? code : kExitFailure;
}

int TraceShowCommand(const std::string& path, bool json) {
  BlockTrace trace;
  std::string err;
  if (!ReadBlockTraceFile(path, &trace, &err)) {
    PrintError(err);
    return kExitUsage;
  }
  const BlockTraceSummary summary = SummarizeBlockTrace(trace);
  if (json) {
    std::cout << BlockTraceSummaryJson(trace.header, summary).dump(2) << "\n";
  } else {
    std::cout << RenderBlockTraceText(trace.header, summary);
  }
  return kExitOk;
}

}  // namespace

SubcommandRunner AddCaptureSubcommand(CLI::App* cmd, const std::string&) {
  auto o = std::make_shared<CaptureOptions>();
  cmd->add_option("--device", o->device,
                  "Trace this disk of yours, read-only (nothing is switched or written)");
  cmd->add_option("--duration", o->duration,
                  "Seconds to trace --device for (no default: --device needs it or -- COMMAND)")
      ->check(CLI::Range(0.001, 7 * 24 * 3600.0));
  cmd->add_option("--emulated", o->emulated,
                  "Make the emulated disk PROFILE[:SIZE] and trace COMMAND run on it");
  cmd->add_option("--scratch", o->scratch, "Make a scratch loop device of SIZE and trace COMMAND");
  cmd->add_option("--fs", o->fs,
                  "Filesystem of the device elevbench makes: ext2, ext4 (default), xfs");
  cmd->add_option("--out", o->out, "The trace file to write")->required();
  cmd->add_option("command", o->command,
                  "-- COMMAND ARGS: the workload (run in the target's root)");
  return [o] { return CaptureCommand(*o); };
}

SubcommandRunner AddTraceSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* show = cmd->add_subcommand("show", "Summarize a block trace made by `capture`");
  show->add_option("file", *path, "The trace file")->required();
  show->add_flag("--json", *json, "One JSON object instead of text");
  return [path, json] { return TraceShowCommand(*path, *json); };
}

}  // namespace elevbench
