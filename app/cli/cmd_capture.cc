// `elevbench capture`: records every bio of a disk into an elevbench block trace
// (harness/trace/block_trace_file.h). Either a disk the user names, read-only, for a duration or
// while a command runs; or a target elevbench makes (--emulated, --scratch) with a command run
// in its filesystem's root, traced while it runs and while its writeback drains, the target
// removed afterwards. `elevbench trace show FILE` summarizes a trace. docs/replay.md.

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/interrupt.h"
#include "harness/run/capture_job.h"
#include "harness/trace/block_trace_summary.h"
#include "reporters/block_trace_text.h"

namespace elevbench {
namespace {

// What the capture gave, said in notes; its exit code.
int CaptureExitCode(const CaptureJobConfig& o, const CaptureOutcome& outcome) {
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

// The steps of the capture job (harness/run/capture_job.h), each failure its exit code.
int CaptureCommand(const CaptureJobConfig& o) {
  CaptureJob job(o, PrintError);
  std::string err;
  if (!job.Check(&err)) {
    PrintError(err);
    return kExitUsage;
  }
  if (!job.OpenJournal(&err)) {
    PrintError(err);
    return kExitFailure;
  }
  CaptureOutcome outcome;
  const bool made = job.MakeTarget(&err);
  const bool captured = made && job.Capture(&outcome, &err);
  if (!outcome.drain_error.empty()) PrintError(outcome.drain_error);
  if (!captured) {
    PrintError(err);
    return InterruptRequested() ? kExitInterrupted : kExitFailure;
  }
  const int code = CaptureExitCode(o, outcome);
  return job.Restore() ? code : kExitFailure;
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
  auto o = std::make_shared<CaptureJobConfig>();
  AddTargetOptions(
      cmd, &o->target,
      {.device = "Trace this disk of yours, read-only (nothing is switched or written)",
       .emulated = "Make the emulated disk PROFILE[:SIZE] and trace COMMAND run on it",
       .scratch = "Make a scratch loop device of SIZE and trace COMMAND",
       .fs = "Filesystem of the device elevbench makes: ext2, ext4 (default), xfs"});
  cmd->add_option("--duration", o->duration,
                  "Seconds to trace --device for (no default: --device needs it or -- COMMAND)")
      ->check(CLI::Range(0.001, 7 * 24 * 3600.0));
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
