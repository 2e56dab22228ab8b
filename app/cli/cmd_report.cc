// `elevbench report`: the tables of saved results files, in a suite's own formats or the
// generic ones.

#include <CLI/CLI.hpp>
#include <iostream>
#include <memory>
#include <vector>

#include "app/cli/cli.h"
#include "app/cli/commands.h"
#include "app/suites_report.h"

namespace elevbench {
namespace {

// Every file is loaded first (an unreadable one is a usage error), then rendered
// (ReportResultsFiles), with the verdict block unless `verdict` is false.
int ReportCommand(const std::vector<std::string>& paths, const std::string& format, bool verdict) {
  ReportOptions options;
  options.verdict = verdict;
  ReportText report;
  std::string err;
  if (!ReportResultsFiles(paths, format, options, &report, &err)) return ErrorExit(err);
  std::cout << report.text;
  for (const std::string& path : report.unfinished) {
    PrintNote(path + " is from an unfinished run");
  }
  return kExitOk;
}

}  // namespace

SubcommandRunner AddReportSubcommand(CLI::App* cmd, const std::string&) {
  struct ReportArgs {
    std::vector<std::string> paths;
    std::string format;
    bool no_verdict = false;
  };
  auto args = std::make_shared<ReportArgs>();
  AddPlainOptions(cmd,
                  {{"files", "FILE", "Results JSON files written by 'run'", &args->paths, true},
                   {"--format", "FORMAT", ReportFormatsHelp(), &args->format}});
  cmd->add_flag("--no-verdict", args->no_verdict,
                "Leave out the verdict block (last in text formats, first in md and html), e.g. "
                "to post a table as the 2003 posts had it");
  return [args] { return ReportCommand(args->paths, args->format, !args->no_verdict); };
}

}  // namespace elevbench
