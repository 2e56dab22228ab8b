// `elevbench capture`: records every bio of a disk into an elevbench block trace
// (harness/trace/block_trace_file.h). Either a disk the user names, read-only, for a duration or
// while a command runs; or a target elevbench makes (--emulated, --scratch) with a command run
// in its filesystem's root, traced while it runs and while its writeback drains, the target
// removed afterwards. `elevbench trace show FILE` summarizes a trace. docs/replay.md.

#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>

#include "harness/cli/cli.h"
#include "harness/cli/commands.h"
#include "harness/core/interrupt.h"
#include "harness/core/system_info.h"
#include "harness/device/block_device.h"
#include "harness/device/scratch_device.h"
#include "harness/process/subprocess.h"
#include "harness/run/capture_run.h"
#include "harness/run/run_journal.h"
#include "harness/run/target.h"
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
    if (!CheckCaptureDevice(o->device, SystemPaths{}, &o->device, err) ||
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

// Traces the disk while the workload runs (harness/run/capture_run.h) and says what it gave.
int CaptureWorkload(const CaptureOptions& o, const RunTarget* target, RestoreJournal* journal,
                    Progress* progress) {
  CaptureConfig config;
  config.device = o.device;
  config.duration_seconds = o.duration;
  config.command = o.command;
  config.out = o.out;
  config.source = SourceOf(o);
  CaptureOutcome outcome;
  std::string err;
  const bool captured = RunCapture(config, target, journal, progress, &outcome, &err);
  if (!outcome.drain_error.empty()) PrintError(outcome.drain_error);
  if (!captured) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  if (outcome.command_exit_code != 0 || outcome.command_term_signal != 0) {
    PrintNote(o.command.front() + " exited with " +
              (outcome.command_term_signal
                   ? "signal " + std::to_string(outcome.command_term_signal)
                   : "status " + std::to_string(outcome.command_exit_code)) +
              (outcome.command_stderr_tail.empty() ? "" : ": " + outcome.command_stderr_tail));
  }
  PrintNote(
      "captured " + std::to_string(outcome.summary.records) + " bios from " +
      std::to_string(outcome.summary.processes.size()) + " processes in " +
      std::to_string(outcome.summary.duration_seconds) + " s into " + o.out +
      (outcome.lost_events ? " (" + std::to_string(outcome.lost_events) + " events lost)" : ""));
  return outcome.command_exit_code == 0 && outcome.command_term_signal == 0 &&
                 outcome.lost_events == 0
             ? kExitOk
             : kExitFailure;
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
  JournalGuard guard(&journal, PrintError);
  if (!OpenCommandJournal(&journal, &progress,
                          "elevbench capture (pid " + std::to_string(getpid()) + ")", &err)) {
    PrintError(err);
    return kExitFailure;
  }
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
