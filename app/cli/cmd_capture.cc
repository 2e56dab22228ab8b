// `elevbench capture`: records every bio of a disk into an elevbench block trace
// (harness/trace/block_trace_file.h). Either a disk the user names, read-only, for a duration or
// while a command runs; or a target elevbench makes (--emulated, --scratch) with a command run
// in its filesystem's root, traced while it runs and while its writeback drains, the target
// removed afterwards. `elevbench trace show FILE` summarizes a trace. docs/replay.md.

#include <CLI/CLI.hpp>
#include <iostream>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "harness/core/plain_range.h"
#include "harness/run/capture_job.h"
#include "harness/trace/block_trace_summary.h"
#include "reporters/block_trace_text.h"

namespace elevbench {
namespace {

int TraceShowCommand(const std::string& path, bool json) {
  BlockTrace trace;
  std::string err;
  if (!ReadBlockTraceFile(path, &trace, &err)) return ErrorExit(err);
  const BlockTraceSummary summary = SummarizeBlockTrace(trace);
  std::cout << (json ? BlockTraceSummaryJson(trace.header, summary).dump(2) + "\n"
                     : RenderBlockTraceText(trace.header, summary));
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
      ->check(PlainRange(0.001, 7 * 24 * 3600.0, "seconds"));
  AddPlainOptions(cmd, {{"--out", "FILE", "The trace file to write", &o->out, true},
                        {"--setup", "COMMAND",
                         "Shell command (sh -c) run in the target's root before the trace "
                         "starts; written back and the caches dropped after it",
                         &o->setup},
                        {"command", "COMMAND",
                         "-- COMMAND ARGS: the workload (run in the target's root)", &o->command}});
  return [o, cmd] {
    o->fs_given = cmd->count("--fs") > 0;
    return ExitCodeOf(RunCaptureCommand(*o, PrintError, PrintNote));
  };
}

SubcommandRunner AddTraceSubcommand(CLI::App* cmd, const std::string&) {
  cmd->require_subcommand(1);
  auto path = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  CLI::App* show = cmd->add_subcommand("show", "Summarize a block trace made by `capture`");
  AddPlainOptions(show, {{"file", "FILE", "The trace file", path.get(), true}});
  AddJsonFlag(show, json.get(), "One JSON object instead of text");
  return [path, json] { return TraceShowCommand(*path, *json); };
}

}  // namespace elevbench
